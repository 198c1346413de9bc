import { shortenAddress } from '@pm/core/address';
import { explorerAddressUrl } from '@pm/core/constants';
import { ChevronDown, Copy, ExternalLink, ListChecks, LogOut } from 'lucide';
import type { Address } from 'viem';
import { useBalance, useConnection } from 'wagmi';
import { Link } from 'wouter';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Icon } from '#ui/icon.tsx';
import { Menu, MenuContent, MenuSeparator, MenuTrigger, menuItemProps } from '#ui/menu.tsx';
import { toast } from '#ui/toast.ts';
import { useWallet } from '../hooks/use-wallet.ts';
import { useWalletContext } from '../wallet-context.ts';

/** docs/product.md §2: the shortened address opens 'Wallet Info' with copy, explorer and disconnect. */
export function WalletMenu({ address }: { address: Address }) {
  useNamespace('walletParts');
  const { t } = useTranslation();
  const short = shortenAddress(address);
  return (
    <Menu>
      <MenuTrigger variant="outline" aria-label={t('wallet.openMenu', { address: short })}>
        <span aria-hidden="true" className="size-2 rounded-full bg-yes" />
        <span className="font-mono tabular-nums">{short}</span>
        <Icon node={ChevronDown} aria-hidden="true" className="size-4 text-muted" />
      </MenuTrigger>
      <MenuContent className="w-72 max-w-[calc(100vw-24px)]">
        <WalletInfo address={address} />
      </MenuContent>
    </Menu>
  );
}

/** Mounted only while the menu is open, so the balance is read fresh each time it opens. */
function WalletInfo({ address }: { address: Address }) {
  const { t } = useTranslation();
  const format = useFormat();
  const connection = useConnection();
  const { chain } = useWalletContext();
  const { disconnect } = useWallet();
  const balance = useBalance({ address, chainId: chain.id });
  const symbol = chain.nativeCurrency.symbol;

  const copyAddress = async () => {
    try {
      await navigator.clipboard.writeText(address);
      toast.success(t('walletMenu.addressCopied'));
    } catch {
      toast.error(t('walletMenu.copyFailed'));
    }
  };

  return (
    <>
      <p className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">
        {t('walletMenu.info')}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 px-3 pb-3 text-sm">
        <dt className="text-muted">{t('walletMenu.address')}</dt>
        <dd className="text-right font-mono tabular-nums">{shortenAddress(address)}</dd>
        <dt className="text-muted">{t('walletMenu.network')}</dt>
        <dd className="text-right">{connection.chain?.name ?? t('walletMenu.unknownNetwork')}</dd>
        <dt className="text-muted">{t('walletMenu.balance')}</dt>
        <dd className="text-right tabular-nums" data-testid="wallet-balance">
          {balance.data
            ? format.bnb(balance.data.value, { symbol: balance.data.symbol })
            : format.bnb(0n, { decimals: 0, symbol })}
        </dd>
      </dl>
      <MenuSeparator />
      <Link to="/my-bets" {...menuItemProps}>
        <Icon node={ListChecks} aria-hidden="true" className="size-4" />
        {t('walletMenu.myBets')}
      </Link>
      <button type="button" {...menuItemProps} onClick={() => void copyAddress()}>
        <Icon node={Copy} aria-hidden="true" className="size-4" />
        {t('walletMenu.copyAddress')}
      </button>
      <a
        href={explorerAddressUrl(chain.id, address)}
        target="_blank"
        rel="noopener noreferrer"
        {...menuItemProps}
      >
        <Icon node={ExternalLink} aria-hidden="true" className="size-4" />
        {t('walletMenu.viewOnExplorer')}
      </a>
      <button type="button" {...menuItemProps} onClick={disconnect}>
        <Icon node={LogOut} aria-hidden="true" className="size-4" />
        {t('walletMenu.disconnect')}
      </button>
    </>
  );
}

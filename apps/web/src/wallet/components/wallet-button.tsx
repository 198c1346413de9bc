import { shortenAddress } from '@pm/core/address';
import { ChevronDown, Wallet as WalletIcon } from 'lucide';
import { Suspense } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { useWallet } from '../hooks/use-wallet.ts';
import { WrongNetwork } from './wrong-network.tsx';

// The menu (and its balance read) loads only for a connected wallet.
const WalletMenu = lazyWithPreload(() => import('./wallet-menu.tsx').then((module) => module.WalletMenu));

/** The top bar's wallet area in its three states (docs/product.md §2, §4). */
export function WalletButton() {
  const { t } = useTranslation();
  const wallet = useWallet();

  if (!wallet.address) {
    return (
      <Button onClick={wallet.connect} disabled={wallet.isConnecting}>
        <Icon node={WalletIcon} aria-hidden="true" className="size-4" />
        {wallet.isConnecting ? t('wallet.connecting') : t('wallet.connect')}
      </Button>
    );
  }
  if (!wallet.isCorrectChain) return <WrongNetwork />;
  const short = shortenAddress(wallet.address);
  return (
    <Suspense
      fallback={
        // The menu's button as it will look, inert for the moment its code takes to arrive.
        <Button variant="outline" disabled aria-label={t('wallet.openMenu', { address: short })}>
          <span aria-hidden="true" className="size-2 rounded-full bg-yes" />
          <span className="font-mono tabular-nums">{short}</span>
          <Icon node={ChevronDown} aria-hidden="true" className="size-4 text-muted" />
        </Button>
      }
    >
      <WalletMenu address={wallet.address} />
    </Suspense>
  );
}

import { ArrowLeftRight, TriangleAlert } from 'lucide';
import { useSwitchChain } from 'wagmi';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { toast } from '#ui/toast.ts';
import { useWallet } from '../hooks/use-wallet.ts';
import { walletErrorMessage } from '../utils/wallet-error-message.ts';
import { useWalletContext } from '../wallet-context.ts';

/**
 * docs/product.md §2: connected on another chain → a red 'Wrong Network' button that disconnects. Beside it
 * we offer the switch (wallet_switchEthereumChain, adding the chain if the wallet lacks it), which
 * is what a user on the wrong chain usually wants.
 */
export function WrongNetwork() {
  const { t } = useTranslation();
  const { chain } = useWalletContext();
  const { disconnect } = useWallet();
  const switchChain = useSwitchChain();
  const switchLabel = t('wallet.switchNetwork', { chain: chain.name });

  const switchToDeployment = () => {
    switchChain.mutate(
      { chainId: chain.id },
      { onError: (error) => toast.error(walletErrorMessage(error) ?? t('wallet.switchFailed')) },
    );
  };

  return (
    <div className="flex items-center gap-2">
      <Button
        variant="outline"
        size="sm"
        onClick={switchToDeployment}
        disabled={switchChain.isPending}
        title={switchLabel}
        aria-label={switchLabel}
        className="h-10 px-2.5 sm:px-3"
      >
        <Icon node={ArrowLeftRight} aria-hidden="true" className="size-4" />
        <span className="hidden sm:inline">{t('wallet.switchNetworkShort')}</span>
      </Button>
      <Button
        variant="danger"
        onClick={disconnect}
        title={t('wallet.wrongNetworkHint')}
        className="px-3 sm:px-4"
      >
        <Icon node={TriangleAlert} aria-hidden="true" className="hidden size-4 sm:block" />
        {t('wallet.wrongNetwork')}
      </Button>
    </div>
  );
}

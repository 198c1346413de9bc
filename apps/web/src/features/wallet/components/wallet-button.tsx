import { Wallet as WalletIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button.tsx';
import { useWallet } from '../hooks/use-wallet.ts';
import { WalletMenu } from './wallet-menu.tsx';
import { WrongNetwork } from './wrong-network.tsx';

/** The top bar's wallet area in its three states (spec §2, §4). */
export function WalletButton() {
  const { t } = useTranslation();
  const wallet = useWallet();

  if (!wallet.address) {
    return (
      <Button onClick={wallet.connect} disabled={wallet.isConnecting}>
        <WalletIcon aria-hidden="true" className="size-4" />
        {wallet.isConnecting ? t('wallet.connecting') : t('wallet.connect')}
      </Button>
    );
  }
  if (!wallet.isCorrectChain) return <WrongNetwork />;
  return <WalletMenu address={wallet.address} />;
}

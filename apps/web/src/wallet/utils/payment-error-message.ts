import type { TFunction } from '#i18n/translate.ts';
import { PaymentRevertedError, WalletNotConnectedError } from './payment-errors.ts';
import { walletErrorMessage } from './wallet-error-message.ts';

/** docs/product.md §8: 'Wallet not connected', 'Failed to send transaction', else the wallet's message, else 'Failed to send payment'. */
export function paymentErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof WalletNotConnectedError) return t('wallet.notConnected');
  if (error instanceof PaymentRevertedError) return t('wallet.txFailed');
  return walletErrorMessage(error) ?? t('wallet.sendFailed');
}

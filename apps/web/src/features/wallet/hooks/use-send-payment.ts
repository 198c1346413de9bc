import { useMutation } from '@tanstack/react-query';
import type { Address, Hex, TransactionReceipt } from 'viem';
import { useConfig, useSendTransaction } from 'wagmi';
import { waitForTransactionReceipt } from 'wagmi/actions';
import { PaymentRevertedError, WalletNotConnectedError } from '../utils/payment-errors.ts';
import { useWalletContext } from '../wallet-context.ts';
import { useWallet } from './use-wallet.ts';

export type Payment = {
  /** The vault (GET /api/config `vaultAddress`). */
  to: Address;
  value: bigint;
  /** The payment intent (`encodeIntent` of @pm/core/intent): what this payment is for. */
  data: Hex;
};

export type PaymentResult = { hash: Hex; receipt: TransactionReceipt };

/** Spec §4 payment dialog: which message to show while a payment is under way. */
export type PaymentStage = 'idle' | 'confirm-in-wallet' | 'waiting-for-confirmation' | 'confirmed' | 'failed';

/**
 * Sends BNB from the connected wallet on the deployment's chain and waits until the chain has it.
 * The mutation resolves with the hash and a successful receipt; it rejects with
 * WalletNotConnectedError, PaymentRevertedError, or the wallet's error (show it with
 * `walletErrorMessage`). `hash` is known as soon as the wallet submits, before the receipt: keep it
 * if you need to record the payment even when the page is left.
 */
export function useSendPayment() {
  const config = useConfig();
  const { chain } = useWalletContext();
  const { address } = useWallet();
  const sendTransaction = useSendTransaction();

  const mutation = useMutation({
    mutationKey: ['send-payment'],
    mutationFn: async (payment: Payment): Promise<PaymentResult> => {
      if (!address) throw new WalletNotConnectedError();
      sendTransaction.reset();
      const hash = await sendTransaction.mutateAsync({ ...payment, account: address, chainId: chain.id });
      const receipt = await waitForTransactionReceipt(config, { hash, chainId: chain.id });
      // viem's wait does not throw on revert (DESIGN "Payment verification").
      if (receipt.status !== 'success') throw new PaymentRevertedError(hash);
      return { hash, receipt };
    },
  });

  const stage: PaymentStage = mutation.isSuccess
    ? 'confirmed'
    : mutation.isError
      ? 'failed'
      : !mutation.isPending
        ? 'idle'
        : sendTransaction.isSuccess
          ? 'waiting-for-confirmation'
          : 'confirm-in-wallet';

  const reset = () => {
    mutation.reset();
    sendTransaction.reset();
  };

  return { ...mutation, reset, stage, hash: sendTransaction.data };
}

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Hex } from 'viem';
import { useConfig } from 'wagmi';
import { WalletNotConnectedError } from '../utils/payment-errors.ts';
import type { Payment, PaymentResult } from '../utils/send-payment.ts';
import { useWalletContext } from '../wallet-context.ts';
import { useWallet } from './use-wallet.ts';

export type { Payment, PaymentResult } from '../utils/send-payment.ts';

/** docs/product.md §4 payment dialog: which message to show while a payment is under way. */
type PaymentStage = 'idle' | 'confirm-in-wallet' | 'waiting-for-confirmation' | 'confirmed' | 'failed';

/** Starts loading the payment code early (the pay button calls it on hover and focus). */
const preloadPayment = () => import('../utils/send-payment.ts');

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
  const [hash, setHash] = useState<Hex | undefined>(undefined);

  const mutation = useMutation({
    mutationKey: ['send-payment'],
    mutationFn: async (payment: Payment): Promise<PaymentResult> => {
      if (!address) throw new WalletNotConnectedError();
      setHash(undefined);
      const { sendPayment } = await preloadPayment();
      return sendPayment(config, { payment, account: address, chainId: chain.id, onSubmitted: setHash });
    },
  });

  const stage: PaymentStage = mutation.isSuccess
    ? 'confirmed'
    : mutation.isError
      ? 'failed'
      : !mutation.isPending
        ? 'idle'
        : hash
          ? 'waiting-for-confirmation'
          : 'confirm-in-wallet';

  const reset = () => {
    mutation.reset();
    setHash(undefined);
  };

  return { ...mutation, reset, stage, hash };
}

import type { Address, Hex, TransactionReceipt } from 'viem';
import type { Config } from 'wagmi';
import { sendTransaction, waitForTransactionReceipt } from 'wagmi/actions';
import { PaymentRevertedError } from './payment-errors.ts';

export type Payment = {
  /** The escrow contract every stake is deposited into (GET /api/config `escrow.address`). */
  to: Address;
  value: bigint;
  /**
   * What this payment is for: the escrow's `deposit` call (`depositCall` of @pm/escrow), whose terms
   * name the market or round, the side and the kind of stake.
   */
  data: Hex;
};

export type PaymentResult = { hash: Hex; receipt: TransactionReceipt };

/**
 * Sends BNB from `account` on `chainId` and waits until the chain has it; `onSubmitted` hears the
 * hash as soon as the wallet submits. Loaded on first use (viem's transaction code is the bulk of
 * the wallet's weight), so pages that never pay do not download it.
 */
export async function sendPayment(
  config: Config,
  request: { payment: Payment; account: Address; chainId: number; onSubmitted: (hash: Hex) => void },
): Promise<PaymentResult> {
  const { payment, account, chainId } = request;
  const hash = await sendTransaction(config, { ...payment, account, chainId });
  request.onSubmitted(hash);
  const receipt = await waitForTransactionReceipt(config, { hash, chainId });
  // viem's wait does not throw on revert (docs/architecture.md "Payment verification").
  if (receipt.status !== 'success') throw new PaymentRevertedError(hash);
  return { hash, receipt };
}

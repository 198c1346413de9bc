import { capFees, type Fees } from '@pm/core/operator-fees';
import {
  BaseError,
  ExecutionRevertedError,
  isHash,
  type PublicClient,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import { finalHeightBelow } from '../chain/finality.ts';
import { describeError } from '../errors/describe-error.ts';

// What the operator sender reads from the chain (fees, sending, the final nonce, receipts), and how it
// reads a node's refusal; the final height and a receipt's standing are chain/finality.ts's.

/** The market's EIP-1559 fees now, under the deployment's ceiling. */
export async function cappedMarketFees(chain: PublicClient, ceiling: bigint): Promise<Fees> {
  const estimate = await chain.estimateFeesPerGas({ type: 'eip1559', chain: null });
  return capFees(
    { maxFeePerGas: estimate.maxFeePerGas, maxPriorityFeePerGas: estimate.maxPriorityFeePerGas },
    ceiling,
  );
}

/** True when the node says the call itself reverts (as opposed to the node being unreachable). */
export function isExecutionReverted(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (error.walk((cause) => cause instanceof ExecutionRevertedError)) return true;
  return /execution reverted|transaction reverted/i.test(`${error.shortMessage} ${error.details}`);
}

export type SendOutcome =
  | { kind: 'sent' }
  | {
      kind: 'nonce-too-low' | 'insufficient-funds' | 'fee-refused' | 'refused';
      message: string;
      error: unknown;
    };

/**
 * Sends signed bytes and classifies the node's answer. "already known" is success (sent before, by
 * us or another instance); "nonce too low" is NOT: the chain is read to learn who used the nonce.
 */
export async function sendRaw(chain: PublicClient, raw: `0x${string}`): Promise<SendOutcome> {
  try {
    await chain.sendRawTransaction({ serializedTransaction: raw });
    return { kind: 'sent' };
  } catch (error) {
    const message = describeError(error);
    const lower = message.toLowerCase();
    if (lower.includes('already known') || lower.includes('known transaction')) return { kind: 'sent' };
    if (lower.includes('nonce too low')) return { kind: 'nonce-too-low', message, error };
    if (lower.includes('insufficient funds') || lower.includes("doesn't have enough funds"))
      return { kind: 'insufficient-funds', message, error };
    if (FEE_REFUSAL.test(lower)) return { kind: 'fee-refused', message, error };
    return { kind: 'refused', message, error };
  }
}

/** Refusals a higher fee cures (geth, BSC, Hardhat wording). */
const FEE_REFUSAL =
  /underpriced|too low for the next block|less than block base fee|fee cap|feecap|exceeds the configured cap|fee too low/;

/** The operator key's transaction count at the last final block: nonces below it are used for good. */
export async function readFinalNonce(
  chain: PublicClient,
  address: `0x${string}`,
  confirmations: number | 'finalized',
): Promise<bigint> {
  if (confirmations === 'finalized')
    return BigInt(await chain.getTransactionCount({ address, blockTag: 'finalized' }));
  const finalBlock = finalHeightBelow(await chain.getBlockNumber({ cacheTime: 0 }), confirmations) ?? 0n;
  return BigInt(await chain.getTransactionCount({ address, blockNumber: finalBlock }));
}

/** Every receipt the node has for these hashes (after a replacement, any one of them may be mined). */
export async function findReceipts(
  chain: PublicClient,
  hashes: readonly string[],
): Promise<TransactionReceipt[]> {
  const receipts: TransactionReceipt[] = [];
  for (const hash of hashes) {
    if (!isHash(hash)) continue;
    try {
      receipts.push(await chain.getTransactionReceipt({ hash }));
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
  }
  return receipts;
}

/**
 * The first of these hashes the node knows as a transaction (pending or mined), with its nonce;
 * null when it knows none. A node that refused a broadcast but holds the transaction (sent before,
 * by us or another instance) answers here.
 */
export async function findKnownTransaction(
  chain: PublicClient,
  hashes: readonly string[],
): Promise<{ hash: `0x${string}`; nonce: bigint; mined: boolean } | null> {
  for (const hash of hashes) {
    if (!isHash(hash)) continue;
    try {
      const tx = await chain.getTransaction({ hash });
      return { hash, nonce: BigInt(tx.nonce), mined: tx.blockNumber !== null };
    } catch (error) {
      if (!(error instanceof TransactionNotFoundError)) throw error;
    }
  }
  return null;
}

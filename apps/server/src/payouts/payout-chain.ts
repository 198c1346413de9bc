import { capFees, type Fees } from '@pm/core/vault-transfers';
import {
  BaseError,
  ExecutionRevertedError,
  isHash,
  type PublicClient,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import { describeError } from '../errors/describe-error.ts';

// What the payouts pipeline reads from the chain, and how it reads a node's refusal.

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

export const FEE_REFUSED_PREFIX = 'broadcast refused for its fee: ';

/** The first of these hashes that has a receipt (any of a payout's hashes may be the one mined). */
export async function findMinedReceipt(
  chain: PublicClient,
  hashes: string[],
): Promise<TransactionReceipt | null> {
  for (const hash of hashes) {
    try {
      if (isHash(hash)) return await chain.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
  }
  return null;
}

/** The vault's transaction count at the last final block: nonces below it are used for good. */
export async function readFinalNonce(
  chain: PublicClient,
  address: `0x${string}`,
  confirmations: number | 'finalized',
): Promise<bigint> {
  if (confirmations === 'finalized')
    return BigInt(await chain.getTransactionCount({ address, blockTag: 'finalized' }));
  const latest = await chain.getBlockNumber({ cacheTime: 0 });
  const finalBlock = latest - BigInt(confirmations) + 1n;
  return BigInt(await chain.getTransactionCount({ address, blockNumber: finalBlock > 0n ? finalBlock : 0n }));
}

export async function isFinal(
  chain: PublicClient,
  confirmations: number | 'finalized',
  receipt: TransactionReceipt,
): Promise<boolean> {
  if (confirmations === 'finalized') {
    const finalized = await chain.getBlock({ blockTag: 'finalized' });
    return finalized.number !== null && finalized.number >= receipt.blockNumber;
  }
  const latest = await chain.getBlockNumber({ cacheTime: 0 });
  return latest - receipt.blockNumber + 1n >= BigInt(confirmations);
}

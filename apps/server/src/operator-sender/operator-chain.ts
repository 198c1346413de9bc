import {
  isHash,
  type PublicClient,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';

// What the operator sender reads from the chain beyond what the payouts already read
// (payouts/payout-chain.ts: fees, sending, the final nonce).

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

/**
 * The highest block that is final now: the finalized block, or the one `confirmations` deep (the
 * head counts as one). Null when the chain is not that long yet.
 */
export async function readFinalHeight(
  chain: PublicClient,
  confirmations: number | 'finalized',
): Promise<bigint | null> {
  if (confirmations === 'finalized') return (await chain.getBlock({ blockTag: 'finalized' })).number;
  const latest = await chain.getBlockNumber({ cacheTime: 0 });
  const height = latest - BigInt(confirmations) + 1n;
  return height < 0n ? null : height;
}

/**
 * Where a receipt stands: final and in the canonical block at its height (that block's hash is the
 * receipt's and it holds the transaction: the check payments/verify-payment.ts makes), not final
 * yet, or named by a block the chain no longer has (a reorg, or a lagging node's stale answer).
 */
export async function receiptStanding(
  chain: PublicClient,
  confirmations: number | 'finalized',
  receipt: TransactionReceipt,
): Promise<'final' | 'pending' | 'not-canonical'> {
  const finalHeight = await readFinalHeight(chain, confirmations);
  if (finalHeight === null || finalHeight < receipt.blockNumber) return 'pending';
  const block = await chain.getBlock({ blockNumber: receipt.blockNumber });
  if (block.hash !== receipt.blockHash) return 'not-canonical';
  const wanted = receipt.transactionHash.toLowerCase();
  return block.transactions.some((hash) => hash.toLowerCase() === wanted) ? 'final' : 'not-canonical';
}

import {
  type Block,
  type Hash,
  type PublicClient,
  type Transaction,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import { AppError } from '../errors/app-error.ts';

// The chain's finality, in one home: which block is final now, where a receipt stands (final, not
// final yet, or named by a block the chain no longer has), and the waits of docs/architecture.md
// "Payment verification" that an escrow deposit's check makes (escrow/deposits/verify-deposit.ts): find
// a transaction, wait until its receipt is final and in the canonical block. In those waits every
// failed read is CHAIN_UNAVAILABLE ("try again"), never a refusal; the operator key's sender reads the
// final height and a receipt's standing as the node answers (operator-sender/operator-sender.ts), so a
// failed read keeps the node's own words in its row.

/** A block count (the head counts as one), or 'finalized' (BSC fast finality). */
export type Confirmations = number | 'finalized';

/** Where a receipt stands: final and in the canonical block, not final yet, or off the chain. */
export type ReceiptStanding = 'final' | 'pending' | 'not-canonical';

/** The block `confirmations` deep under `head` (the head counts as one); null when the chain is shorter. */
export function finalHeightBelow(head: bigint, confirmations: number): bigint | null {
  const height = head - BigInt(confirmations) + 1n;
  return height < 0n ? null : height;
}

/**
 * The highest block that is final now: the finalized block, or the one `confirmations` deep. Null
 * when the chain is not that long yet. A failed read throws as the client threw it.
 */
export async function readFinalHeight(
  client: PublicClient,
  confirmations: Confirmations,
): Promise<bigint | null> {
  if (confirmations === 'finalized') return (await client.getBlock({ blockTag: 'finalized' })).number;
  return finalHeightBelow(await client.getBlockNumber({ cacheTime: 0 }), confirmations);
}

/** True when the receipt's block is at or under the final height. */
export function isFinalAt(
  receipt: Pick<TransactionReceipt, 'blockNumber'>,
  finalHeight: bigint | null,
): boolean {
  return finalHeight !== null && receipt.blockNumber <= finalHeight;
}

/**
 * True when `block`, the canonical block at the receipt's height, is the receipt's block and holds its
 * transaction. Height alone is not enough: a receipt read before a reorg, or from a lagging node,
 * names a block that may not be on the chain.
 */
export function isInCanonicalBlock(
  receipt: Pick<TransactionReceipt, 'blockHash' | 'transactionHash'>,
  block: { hash: string | null; transactions: readonly string[] },
): boolean {
  if (block.hash !== receipt.blockHash) return false;
  const wanted = receipt.transactionHash.toLowerCase();
  return block.transactions.some((hash) => hash.toLowerCase() === wanted);
}

/**
 * Where a receipt stands now: final and in the canonical block at its height, not final yet, or named
 * by a block the chain no longer has (a reorg, or a lagging node's stale answer). A failed read throws
 * as the client threw it.
 */
export async function receiptStanding(
  client: PublicClient,
  confirmations: Confirmations,
  receipt: TransactionReceipt,
): Promise<ReceiptStanding> {
  if (!isFinalAt(receipt, await readFinalHeight(client, confirmations))) return 'pending';
  const block = await client.getBlock({ blockNumber: receipt.blockNumber });
  return isInCanonicalBlock(receipt, block) ? 'final' : 'not-canonical';
}

/** A chain read whose failure is CHAIN_UNAVAILABLE ("try again"), never a refusal. */
export async function unavailableOnFailure<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}

export type FinalityReads = {
  client: PublicClient;
  confirmations: Confirmations;
  /** First pause between reads; later pauses double (default 250 ms). */
  pollMs?: number;
  /** How long an unknown hash is looked for before it is called not found (default 3 s, at most the wait). */
  notFoundMs?: number;
};

export type FinalReceipt = { receipt: TransactionReceipt; blockTime: Date };

/**
 * The transaction, or null when our node does not know it. A wallet sends through its own RPC, so
 * a fresh hash may reach ours a moment later: look a few times, briefly, then call it not found.
 * Requests for one hash share one watcher: the RPC is asked a bounded number of times
 * however many requests name the hash, and a random hash costs a few reads, not 15 s.
 */
export function watchTransaction(
  deps: FinalityReads,
  hash: Hash,
  deadline: number,
): Promise<Transaction | null> {
  return sharedTransaction(deps.client, hash.toLowerCase(), () => {
    const giveUpAt = Math.min(deadline, Date.now() + (deps.notFoundMs ?? 3_000));
    return poll(() => getTransactionOrNull(deps.client, hash), giveUpAt, deps.pollMs ?? 250);
  });
}

/**
 * The receipt once final and still on the canonical chain, or null if that takes longer than the
 * wait. Height alone is not enough: a receipt read before a reorg, or from a lagging
 * node, names a block that may not be on the chain. So once final, the canonical block at the
 * receipt's height is read, and it must be the receipt's block and hold the transaction; the block
 * time comes from that very block. A reverted receipt is answered at once (it can never become a
 * payment). The receipt and the final height are read at once (one JSON-RPC batch where the
 * transport batches, chain-client.ts), then the block: two round trips (docs/decisions/024). Shared
 * per hash as `watchTransaction` is.
 */
export function watchFinalReceipt(
  deps: FinalityReads,
  hash: Hash,
  deadline: number,
): Promise<FinalReceipt | null> {
  return sharedFinal(deps.client, hash.toLowerCase(), () =>
    poll(
      async () => {
        const [receipt, finalHeight] = await Promise.all([
          getReceiptOrNull(deps.client, hash),
          unavailableOnFailure(readFinalHeight(deps.client, deps.confirmations)),
        ]);
        if (!receipt) return null;
        if (receipt.status !== 'success') return { receipt, blockTime: new Date(0) };
        if (!isFinalAt(receipt, finalHeight)) return null;
        const canonical = await readBlock(deps.client, { blockNumber: receipt.blockNumber });
        if (!isInCanonicalBlock(receipt, canonical)) return null;
        return { receipt, blockTime: blockTimeOf(canonical) };
      },
      deadline,
      deps.pollMs ?? 250,
    ),
  );
}

/**
 * A block read: any failure, a missing block (a lagging node) or a refusal no transient pattern
 * knows (a node without the `finalized` tag, "header not found"), is CHAIN_UNAVAILABLE, "try
 * again", like every other failed read here; it escaped as a raw error and a 500 (security review 2).
 */
export async function readBlock(
  client: PublicClient,
  params: { blockNumber: bigint } | { blockTag: 'finalized' },
): Promise<Block<bigint, false>> {
  try {
    return await client.getBlock(params);
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}

/** A block's own timestamp: what deadlines are compared with. */
export function blockTimeOf(block: Block<bigint, false>): Date {
  return new Date(Number(block.timestamp) * 1000);
}

async function getTransactionOrNull(client: PublicClient, hash: Hash): Promise<Transaction | null> {
  try {
    return await client.getTransaction({ hash });
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return null;
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}

async function getReceiptOrNull(client: PublicClient, hash: Hash): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}

/**
 * Calls `read` until it answers non-null or the deadline passes; always tries at least once. The
 * pause doubles from `pollMs` up to 2 s, so a 15 s wait costs about ten reads, not sixty.
 */
async function poll<T>(read: () => Promise<T | null>, deadline: number, pollMs: number): Promise<T | null> {
  for (let pause = pollMs; ; pause = Math.min(pause * 2, MAX_POLL_MS)) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() + pause > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

const MAX_POLL_MS = 2_000;

/**
 * One read per key in flight, per RPC client: a second caller for the same key joins the first.
 * A read is forgotten once it settles, so nothing is cached past one request's wait.
 */
function sharedReads<T>() {
  const inFlight = new WeakMap<PublicClient, Map<string, Promise<T>>>();
  return (client: PublicClient, key: string, read: () => Promise<T>): Promise<T> => {
    let reads = inFlight.get(client);
    if (!reads) {
      reads = new Map();
      inFlight.set(client, reads);
    }
    const running = reads.get(key);
    if (running) return running;
    const started = read().finally(() => reads.delete(key));
    reads.set(key, started);
    return started;
  };
}

const sharedTransaction = sharedReads<Transaction | null>();
const sharedFinal = sharedReads<FinalReceipt | null>();

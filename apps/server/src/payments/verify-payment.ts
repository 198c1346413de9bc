import { decodeIntent, intentText, type PaymentIntent, sameIntent } from '@pm/core/intent';
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

// docs/architecture.md "Payment verification": a payment counts only if every rule holds, checked against our
// own RPC. The transaction's data carries the payer's intent, so a stranger cannot post someone
// else's fresh hash for another market or side.

export type PaymentVerifierDeps = {
  client: PublicClient;
  chainId: number;
  vaultAddress: `0x${string}`;
  /** A block count, or 'finalized' (BSC fast finality). */
  confirmations: number | 'finalized';
  /** How long we wait ourselves for the transaction to appear and become final. */
  waitMs: number;
  /** First pause between reads; later pauses double (default 250 ms). */
  pollMs?: number;
  /** How long an unknown hash is looked for before TX_NOT_FOUND (default 3 s, at most waitMs). */
  notFoundMs?: number;
};

export type PaymentClaim = {
  txHash: Hash;
  /** The address the request says paid. */
  from: `0x${string}`;
  amountWei: bigint;
  intent: PaymentIntent;
};

export type VerifiedPayment = {
  txHash: Hash;
  from: `0x${string}`;
  amountWei: bigint;
  intentText: string;
  blockNumber: bigint;
  /** The block's own timestamp: what deadlines are compared with. */
  blockTime: Date;
};

export type VerifyResult =
  | { status: 'verified'; payment: VerifiedPayment }
  | { status: 'pending'; txHash: Hash };

export async function verifyPayment(deps: PaymentVerifierDeps, claim: PaymentClaim): Promise<VerifyResult> {
  const deadline = Date.now() + deps.waitMs;
  // Requests for one hash share one watcher (review F9): the RPC is asked a bounded number of
  // times however many requests name the hash, and a random hash costs a few reads, not 15 s.
  const tx = await sharedTransaction(deps.client, claim.txHash.toLowerCase(), () =>
    findTransaction(deps, claim.txHash, deadline),
  );
  if (!tx) throw new AppError('TX_NOT_FOUND');
  checkTransaction(deps, claim, tx);

  const mined = await sharedFinal(deps.client, claim.txHash.toLowerCase(), () =>
    waitUntilFinal(deps, claim.txHash, deadline),
  );
  // Seen but not mined and final within our wait: valid so far, kept and recorded once final.
  if (!mined) return { status: 'pending', txHash: claim.txHash };
  // viem's waitForTransactionReceipt does not throw on revert: check the status ourselves.
  if (mined.receipt.status !== 'success') throw new AppError('TX_FAILED');
  return {
    status: 'verified',
    payment: {
      txHash: claim.txHash,
      from: claim.from,
      amountWei: tx.value,
      intentText: intentText(claim.intent),
      blockNumber: mined.receipt.blockNumber,
      blockTime: mined.blockTime,
    },
  };
}

/**
 * The transaction, or null when our node does not know it. A wallet sends through its own RPC, so
 * a fresh hash may reach ours a moment later: look a few times, briefly, then call it not found.
 */
async function findTransaction(
  deps: PaymentVerifierDeps,
  hash: Hash,
  deadline: number,
): Promise<Transaction | null> {
  const giveUpAt = Math.min(deadline, Date.now() + (deps.notFoundMs ?? 3_000));
  return poll(() => getTransactionOrNull(deps.client, hash), giveUpAt, deps.pollMs ?? 250);
}

type MinedPayment = { receipt: TransactionReceipt; blockTime: Date };

/**
 * The receipt once final and still on the canonical chain, or null if that takes longer than the
 * wait. Height alone is not enough (review F7): a receipt read before a reorg, or from a lagging
 * node, names a block that may not be on the chain. So once final, the canonical block at the
 * receipt's height is read, and it must be the receipt's block and hold the transaction; the block
 * time comes from that very block. A reverted receipt is answered at once (it can never become a
 * payment). The receipt and the final height are read at once (one JSON-RPC batch where the
 * transport batches, chain-client.ts), then the block: two round trips (issue 21).
 */
async function waitUntilFinal(
  deps: PaymentVerifierDeps,
  hash: Hash,
  deadline: number,
): Promise<MinedPayment | null> {
  const pollMs = deps.pollMs ?? 250;
  return poll(
    async () => {
      const [receipt, finalHeight] = await Promise.all([
        getReceiptOrNull(deps.client, hash),
        readFinalHeight(deps),
      ]);
      if (!receipt) return null;
      if (receipt.status !== 'success') return { receipt, blockTime: new Date(0) };
      if (finalHeight === null || finalHeight < receipt.blockNumber) return null;
      const canonical = await readBlock(deps.client, { blockNumber: receipt.blockNumber });
      if (canonical.hash !== receipt.blockHash) return null;
      const wanted = hash.toLowerCase();
      if (!canonical.transactions.some((each) => each.toLowerCase() === wanted)) return null;
      return { receipt, blockTime: new Date(Number(canonical.timestamp) * 1000) };
    },
    deadline,
    pollMs,
  );
}

function checkTransaction(deps: PaymentVerifierDeps, claim: PaymentClaim, tx: Transaction): void {
  // A transaction without a chain id (pre-EIP-155) could be replayed from another chain.
  if (tx.chainId !== deps.chainId) throw new AppError('WRONG_CHAIN');
  if (!tx.to || tx.to.toLowerCase() !== deps.vaultAddress.toLowerCase())
    throw new AppError('WRONG_RECIPIENT');
  if (tx.from.toLowerCase() !== claim.from.toLowerCase()) throw new AppError('WRONG_SENDER');
  if (tx.value !== claim.amountWei) throw new AppError('WRONG_AMOUNT');
  const intent = decodeIntent(tx.input);
  if (!intent || !sameIntent(intent, claim.intent)) throw new AppError('INTENT_MISMATCH');
}

/**
 * The highest block that is final now: the finalized block, or the one `confirmations` blocks deep
 * (the head counts as one). Null when the chain is not that long yet.
 */
async function readFinalHeight(deps: PaymentVerifierDeps): Promise<bigint | null> {
  if (deps.confirmations === 'finalized') {
    const finalized = await readBlock(deps.client, { blockTag: 'finalized' });
    return finalized.number;
  }
  const latest = await deps.client.getBlockNumber({ cacheTime: 0 });
  const height = latest - BigInt(deps.confirmations) + 1n;
  return height < 0n ? null : height;
}

async function getTransactionOrNull(client: PublicClient, hash: Hash): Promise<Transaction | null> {
  try {
    return await client.getTransaction({ hash });
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return null;
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}

/**
 * A block read: any failure, a missing block (a lagging node) or a refusal no transient pattern
 * knows (a node without the `finalized` tag, "header not found"), is CHAIN_UNAVAILABLE, "try
 * again", like every other failed read here; it escaped as a raw error and a 500 (security review 2).
 */
async function readBlock(
  client: PublicClient,
  params: { blockNumber: bigint } | { blockTag: 'finalized' },
): Promise<Block<bigint, false>> {
  try {
    return await client.getBlock(params);
  } catch (error) {
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
const sharedFinal = sharedReads<MinedPayment | null>();

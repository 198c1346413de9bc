import { decodeIntent, intentText, type PaymentIntent, sameIntent } from '@pm/core/intent';
import {
  type Hash,
  type PublicClient,
  type Transaction,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import { AppError } from '../http/app-error.ts';

// DESIGN "Payment verification": a payment counts only if every rule holds, checked against our
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
  pollMs?: number;
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
  const pollMs = deps.pollMs ?? 250;

  const tx = await poll(() => getTransactionOrNull(deps.client, claim.txHash), deadline, pollMs);
  if (!tx) throw new AppError('TX_NOT_FOUND');
  checkTransaction(deps, claim, tx);

  const receipt = await poll(() => getReceiptOrNull(deps.client, claim.txHash), deadline, pollMs);
  // Seen but not mined within our wait: valid so far, the client may post again.
  if (!receipt) return { status: 'pending', txHash: claim.txHash };
  // viem's waitForTransactionReceipt does not throw on revert: check the status ourselves.
  if (receipt.status !== 'success') throw new AppError('TX_FAILED');

  const final = await poll(async () => ((await isFinal(deps, receipt)) ? true : null), deadline, pollMs);
  if (!final) return { status: 'pending', txHash: claim.txHash };

  const block = await deps.client.getBlock({ blockNumber: receipt.blockNumber });
  return {
    status: 'verified',
    payment: {
      txHash: claim.txHash,
      from: claim.from,
      amountWei: tx.value,
      intentText: intentText(claim.intent),
      blockNumber: receipt.blockNumber,
      blockTime: new Date(Number(block.timestamp) * 1000),
    },
  };
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

async function isFinal(deps: PaymentVerifierDeps, receipt: TransactionReceipt): Promise<boolean> {
  if (deps.confirmations === 'finalized') {
    const finalized = await deps.client.getBlock({ blockTag: 'finalized' });
    return finalized.number !== null && finalized.number >= receipt.blockNumber;
  }
  const latest = await deps.client.getBlockNumber({ cacheTime: 0 });
  return latest - receipt.blockNumber + 1n >= BigInt(deps.confirmations);
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

/** Calls `read` until it answers non-null or the deadline passes; always tries at least once. */
async function poll<T>(read: () => Promise<T | null>, deadline: number, pollMs: number): Promise<T | null> {
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() + pollMs > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

import { normalizeAddress } from '@pm/core/address';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  isHash,
  isHex,
  keccak256,
  type PublicClient,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { Db, DbOrTx } from '../db/client.ts';
import { bets, oracleBets, payments, payouts } from '../db/schema.ts';
import { publish } from '../realtime/publish.ts';
import type { VaultSigner } from './vault-signer.ts';

// DESIGN "Claims and payouts" (pattern: OpenZeppelin Relayer's EVM transaction states).
// A payout is a row first (amount, nonce from the database), then its signed raw transaction and
// hash are stored, then it is broadcast, then confirmed. On restart the stored raw bytes are sent
// again — never re-signed at a new nonce while the old one could still mine. A payout not mined in
// time is replaced at the same nonce with at least +12.5% fees. Bets become claimed only when final.

export type PayoutProcessorDeps = {
  db: Db;
  chain: PublicClient;
  signer: VaultSigner;
  confirmations: number | 'finalized';
  /** How long a broadcast payout may wait unmined before it is replaced with higher fees. */
  replaceAfterMs?: number;
  now?: () => number;
  /** Test hook: simulate a crash right after a step is stored. */
  crashAfter?: 'signed' | 'broadcast';
};

export type PayoutRow = typeof payouts.$inferSelect;

export class SimulatedCrash extends Error {
  override name = 'SimulatedCrash';
}

const OPEN_STATUSES = ['created', 'signed', 'broadcast'];

/** Moves one payout as far as it can go now; answers its status afterwards. */
export async function advancePayout(deps: PayoutProcessorDeps, payoutId: number): Promise<PayoutRow> {
  let payout = await loadPayout(deps.db, payoutId);
  if (payout.status === 'created') payout = await signPayout(deps, payout, null);
  if (payout.status === 'signed' || payout.status === 'broadcast') {
    const mined = await findMinedReceipt(deps.chain, payout.txHashes);
    if (mined) return confirmIfFinal(deps, payout, mined);
    payout = await maybeReplace(deps, payout);
    await broadcast(deps, payout);
    if (deps.crashAfter === 'broadcast') throw new SimulatedCrash('after broadcast');
    payout = await markBroadcast(deps, payout);
  }
  return payout;
}

/** Waits (bounded) for a payout to be final, advancing it meanwhile. */
export async function settlePayout(
  deps: PayoutProcessorDeps,
  payoutId: number,
  waitMs: number,
): Promise<PayoutRow> {
  const deadline = Date.now() + waitMs;
  let payout = await advancePayout(deps, payoutId);
  while (payout.status !== 'confirmed' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const mined = await findMinedReceipt(deps.chain, payout.txHashes);
    payout = mined ? await confirmIfFinal(deps, payout, mined) : await loadPayout(deps.db, payoutId);
  }
  return payout;
}

/** Every open payout, lowest nonce first (a later nonce cannot mine before an earlier one). */
export async function advanceOpenPayouts(deps: PayoutProcessorDeps): Promise<void> {
  const open = await deps.db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(inArray(payouts.status, OPEN_STATUSES), eq(payouts.fromAddress, deps.signer.address)))
    .orderBy(asc(payouts.nonce));
  for (const { id } of open) await advancePayout(deps, id);
}

async function loadPayout(db: DbOrTx, id: number): Promise<PayoutRow> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
  if (!row) throw new Error(`payout ${id} not found`);
  return row;
}

/**
 * Signs at the payout's own nonce and stores raw bytes + hash before anything is sent. The row is
 * locked while signing, so two instances never sign two different transactions for one step.
 */
async function signPayout(
  deps: PayoutProcessorDeps,
  payout: PayoutRow,
  bump: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | null,
): Promise<PayoutRow> {
  const fees = bump ?? (await currentFees(deps.chain));
  const signed = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payouts).where(eq(payouts.id, payout.id)).for('update');
    if (!locked) throw new Error(`payout ${payout.id} vanished`);
    // Someone else signed (or replaced) it meanwhile: use theirs.
    if (locked.status !== payout.status || locked.txHash !== payout.txHash) return locked;
    const rawTx = await deps.signer.wallet.signTransaction({
      account: deps.signer.account,
      chain: deps.signer.wallet.chain,
      to: normalizeAddress(locked.toAddress),
      value: locked.amount,
      nonce: Number(locked.nonce),
      gas: 21_000n,
      type: 'eip1559',
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const txHash = keccak256(rawTx);
    const [updated] = await tx
      .update(payouts)
      .set({
        status: 'signed',
        rawTx,
        txHash,
        txHashes: [...locked.txHashes, txHash],
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        attempts: sql`${payouts.attempts} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(payouts.id, locked.id))
      .returning();
    if (!updated) throw new Error(`payout ${payout.id} vanished`);
    return updated;
  });
  if (deps.crashAfter === 'signed') throw new SimulatedCrash('after signing');
  return signed;
}

async function currentFees(chain: PublicClient) {
  const estimate = await chain.estimateFeesPerGas({ type: 'eip1559', chain: null });
  return { maxFeePerGas: estimate.maxFeePerGas, maxPriorityFeePerGas: estimate.maxPriorityFeePerGas };
}

/** Not mined for too long: sign again at the same nonce with fees raised by at least 12.5%. */
async function maybeReplace(deps: PayoutProcessorDeps, payout: PayoutRow): Promise<PayoutRow> {
  const now = deps.now?.() ?? Date.now();
  const replaceAfterMs = deps.replaceAfterMs ?? 60_000;
  if (payout.status !== 'broadcast' || !payout.broadcastAt) return payout;
  if (now - payout.broadcastAt.getTime() < replaceAfterMs) return payout;
  const bump = (value: bigint | null) => ((value ?? 0n) * 1125n + 999n) / 1000n + 1n;
  const market = await currentFees(deps.chain);
  const maxPriorityFeePerGas = max(bump(payout.maxPriorityFeePerGas), market.maxPriorityFeePerGas);
  const maxFeePerGas = max(max(bump(payout.maxFeePerGas), market.maxFeePerGas), maxPriorityFeePerGas);
  return signPayout(deps, payout, { maxFeePerGas, maxPriorityFeePerGas });
}

async function broadcast(deps: PayoutProcessorDeps, payout: PayoutRow): Promise<void> {
  const rawTx = payout.rawTx;
  if (!rawTx || !isHex(rawTx)) throw new Error(`payout ${payout.id} has no signed transaction`);
  try {
    await deps.chain.sendRawTransaction({ serializedTransaction: rawTx });
  } catch (error) {
    const message = error instanceof Error ? error.message.toLowerCase() : '';
    // Sent before (by us, before a restart, or by another instance): that is success.
    if (
      message.includes('already known') ||
      message.includes('nonce too low') ||
      message.includes('known transaction')
    ) {
      return;
    }
    await deps.db
      .update(payouts)
      .set({ lastError: message.slice(0, 500), updatedAt: sql`now()` })
      .where(eq(payouts.id, payout.id));
    throw error;
  }
}

async function markBroadcast(deps: PayoutProcessorDeps, payout: PayoutRow): Promise<PayoutRow> {
  if (payout.status === 'broadcast' && payout.broadcastAt) return payout;
  const [updated] = await deps.db
    .update(payouts)
    .set({
      status: 'broadcast',
      broadcastAt: new Date(deps.now?.() ?? Date.now()),
      lastError: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(payouts.id, payout.id), inArray(payouts.status, ['signed', 'broadcast'])))
    .returning();
  return updated ?? loadPayout(deps.db, payout.id);
}

async function findMinedReceipt(chain: PublicClient, hashes: string[]): Promise<TransactionReceipt | null> {
  for (const hash of hashes) {
    try {
      if (isHash(hash)) return await chain.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
  }
  return null;
}

/**
 * Final on chain: the payout is confirmed and its bets claimed, in one transaction with the
 * realtime event. A plain transfer from an EOA cannot revert; if it ever did, the payout stays open
 * for an operator (never re-sent at another nonce automatically).
 */
async function confirmIfFinal(deps: PayoutProcessorDeps, payout: PayoutRow, receipt: TransactionReceipt) {
  if (receipt.status !== 'success') {
    await deps.db
      .update(payouts)
      .set({ lastError: `transaction ${receipt.transactionHash} reverted`, updatedAt: sql`now()` })
      .where(eq(payouts.id, payout.id));
    return loadPayout(deps.db, payout.id);
  }
  if (!(await isFinal(deps, receipt))) return payout;
  return deps.db.transaction(async (tx) => {
    const [confirmed] = await tx
      .update(payouts)
      .set({
        status: 'confirmed',
        txHash: receipt.transactionHash,
        confirmedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(payouts.id, payout.id), inArray(payouts.status, OPEN_STATUSES)))
      .returning();
    // Confirmed by someone else meanwhile. (Read through tx: on PGlite, db would wait for this tx.)
    if (!confirmed) return loadPayout(tx, payout.id);
    await tx.update(bets).set({ status: 'claimed' }).where(eq(bets.payoutId, payout.id));
    await tx.update(oracleBets).set({ claimed: true }).where(eq(oracleBets.payoutId, payout.id));
    await tx.update(payments).set({ status: 'refunded' }).where(eq(payments.refundPayoutId, payout.id));
    await publish(tx, { topic: 'payouts', address: confirmed.toAddress });
    await publish(tx, { topic: 'vault' });
    return confirmed;
  });
}

async function isFinal(deps: PayoutProcessorDeps, receipt: TransactionReceipt): Promise<boolean> {
  if (deps.confirmations === 'finalized') {
    const finalized = await deps.chain.getBlock({ blockTag: 'finalized' });
    return finalized.number !== null && finalized.number >= receipt.blockNumber;
  }
  const latest = await deps.chain.getBlockNumber({ cacheTime: 0 });
  return latest - receipt.blockNumber + 1n >= BigInt(deps.confirmations);
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx, Tx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { bets, markets, oracleBets, payments, payouts, type ReleasedItems } from '../db/schema.ts';
import { claimableMarketBet, claimableRoundBet } from './claimable-repository.ts';

// Every read and write of payout rows and of what links bets and refunds to them (docs/architecture.md
// "Claims and payouts", decision 002). Each function takes the pool or the caller's transaction.

export type PayoutRow = typeof payouts.$inferSelect;
export type NewPayout = Pick<
  typeof payouts.$inferInsert,
  'chainId' | 'fromAddress' | 'toAddress' | 'amount' | 'kind' | 'reissuedFrom'
>;

/** A payout not yet confirmed or failed: it may still take money from the vault. */
export const OPEN_PAYOUT_STATUSES = ['created', 'signed', 'broadcast'];

/**
 * Serialises nonce assignment for the vault across every instance (transaction-scoped). The operator
 * sender takes it too while its key is the vault's (VAULT_PRIVATE_KEY: decision 026), so a payout
 * and an operator action never take the same nonce.
 */
export const VAULT_NONCE_LOCK = 8173002;
const NONCE_LOCK = VAULT_NONCE_LOCK;
/** Serialises claims across instances, so one address never gets two payouts for the same bets. */
const CLAIMS_LOCK = 8173003;

export async function findPayout(db: DbOrTx, id: number): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
  return row;
}

/** The payout, locked (`FOR UPDATE`) for the caller's transaction. */
export async function lockPayout(tx: Tx, id: number): Promise<PayoutRow | undefined> {
  const [row] = await tx.select().from(payouts).where(eq(payouts.id, id)).for('update');
  return row;
}

/** A new payout, unsigned: the nonce is taken when it is signed (decision 002). */
export async function insertPayout(tx: DbOrTx, values: NewPayout): Promise<PayoutRow> {
  const [row] = await tx
    .insert(payouts)
    .values({ ...values, nonce: null })
    .returning();
  if (!row) throw new Error('payout insert returned nothing');
  return row;
}

/** Links the bets a payout pays to it, in the caller's transaction (a claim, or a re-issue). */
export async function linkPayoutBets(
  tx: DbOrTx,
  payoutId: number,
  items: { betIds: number[]; oracleBetIds: number[] },
): Promise<void> {
  if (items.betIds.length) {
    await tx.update(bets).set({ payoutId }).where(inArray(bets.id, items.betIds));
  }
  if (items.oracleBetIds.length) {
    await tx.update(oracleBets).set({ payoutId }).where(inArray(oracleBets.id, items.oracleBetIds));
  }
}

/** Takes the claims lock for this transaction. */
export async function lockClaims(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CLAIMS_LOCK})`);
}

/** The claim payout to this address still in flight, if any. */
export async function findOpenClaim(tx: DbOrTx, address: string): Promise<PayoutRow | undefined> {
  const [open] = await tx
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.toAddress, address),
        eq(payouts.kind, 'claim'),
        inArray(payouts.status, OPEN_PAYOUT_STATUSES),
      ),
    )
    .limit(1);
  return open;
}

/** How many bets (of both games) a payout pays. */
export async function countPaidBets(tx: DbOrTx, payoutId: number): Promise<number> {
  const [row] = await queryRows(
    tx,
    sql`select (select count(*) from bets where payout_id = ${payoutId}) + (select count(*) from oracle_bets where payout_id = ${payoutId}) as n`,
    z.object({ n: z.coerce.number() }),
  );
  return row?.n ?? 0;
}

/** The vault's open payouts: signed ones by nonce (a later nonce cannot mine first), then created ones oldest first. */
export async function listOpenPayoutIds(db: DbOrTx, fromAddress: string): Promise<number[]> {
  const rows = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(inArray(payouts.status, OPEN_PAYOUT_STATUSES), eq(payouts.fromAddress, fromAddress)))
    .orderBy(sql`${payouts.nonce} asc nulls last`, asc(payouts.id));
  return rows.map((row) => row.id);
}

/** Every open, failed … payout of these statuses, by nonce then id (ops payouts:status). */
export async function listPayoutsByStatus(db: DbOrTx, statuses: string[]): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(inArray(payouts.status, statuses))
    .orderBy(sql`${payouts.nonce} asc nulls last`, asc(payouts.id));
}

/** Every hash a payout of this vault signed, and its nonce release (the outflow audit). */
export async function listVaultPayoutHashes(db: DbOrTx, vaultAddress: string) {
  return db
    .select({
      id: payouts.id,
      status: payouts.status,
      txHashes: payouts.txHashes,
      cancelTxHash: payouts.cancelTxHash,
    })
    .from(payouts)
    .where(eq(payouts.fromAddress, vaultAddress));
}

/**
 * Takes the vault's nonce lock for this transaction and answers the next free nonce: one past the
 * highest the database ever assigned, or the chain's pending count if that is ahead (the key was
 * used elsewhere). Nonces come from the database, never from an in-memory counter.
 */
export async function lockNextVaultNonce(
  tx: Tx,
  input: { chainId: number; vaultAddress: string; chainPendingNonce: bigint },
): Promise<bigint> {
  await tx.execute(sql`select pg_advisory_xact_lock(${NONCE_LOCK})`);
  // The operator sender's transactions from the same key (escrow settlements and relays) hold nonces too.
  const [last] = await queryRows(
    tx,
    sql`select max(nonce) as nonce from (
          select nonce from payouts where chain_id = ${input.chainId} and from_address = ${input.vaultAddress}
          union all
          select nonce from operator_transactions
            where chain_id = ${input.chainId} and sender = ${input.vaultAddress.toLowerCase()}
        ) held`,
    z.object({ nonce: z.coerce.bigint().nullable() }),
  );
  const nextFromDb = last?.nonce == null ? 0n : last.nonce + 1n;
  return nextFromDb > input.chainPendingNonce ? nextFromDb : input.chainPendingNonce;
}

/** What the payouts signed and not yet confirmed can still take from the vault (value + max gas). */
export async function sumOwedInFlight(db: DbOrTx, vaultAddress: string): Promise<bigint> {
  const [row] = await queryRows(
    db,
    sql`select coalesce(sum(amount + coalesce(gas_limit, 21000) * coalesce(max_fee_per_gas, 0)), 0) as owed
        from payouts where from_address = ${vaultAddress} and status in ('signed', 'broadcast')`,
    z.object({ owed: z.coerce.bigint() }),
  );
  return row?.owed ?? 0n;
}

/** Seconds since the oldest payout not yet confirmed or failed was created (database time); null: none. */
export async function readOldestOpenPayoutAgeS(db: DbOrTx): Promise<number | null> {
  const [row] = await queryRows(
    db,
    sql`select extract(epoch from now() - min(created_at))::float8 as age from payouts
        where status in ('created', 'signed', 'broadcast')`,
    z.object({ age: z.number().nullable() }),
  );
  return row?.age ?? null;
}

/**
 * Stores a signed transfer (a first signature, or a replacement at the same nonce): every hash is
 * kept, since any of them mining settles the payout.
 */
export async function storeSignedPayout(
  tx: DbOrTx,
  id: number,
  signed: {
    rawTx: `0x${string}`;
    txHash: string;
    txHashes: string[];
    maxFeePerGas: bigint;
    maxPriorityFeePerGas: bigint;
    /** Set on a first signature only; a replacement keeps its own. */
    nonce?: bigint;
    gasLimit?: bigint;
  },
): Promise<PayoutRow | undefined> {
  const [updated] = await tx
    .update(payouts)
    .set({
      status: 'signed',
      ...signed,
      attempts: sql`${payouts.attempts} + 1`,
      lastError: null,
      updatedAt: sql`now()`,
    })
    .where(eq(payouts.id, id))
    .returning();
  return updated;
}

/** Stores the 0-value self-transfer that frees the payout's nonce. */
export async function storeNonceRelease(
  db: DbOrTx,
  id: number,
  release: { cancelRawTx: `0x${string}`; cancelTxHash: string; reason: string },
): Promise<PayoutRow | undefined> {
  const [updated] = await db
    .update(payouts)
    .set({
      cancelRawTx: release.cancelRawTx,
      cancelTxHash: release.cancelTxHash,
      lastError: release.reason,
      updatedAt: sql`now()`,
    })
    .where(eq(payouts.id, id))
    .returning();
  return updated;
}

export async function recordPayoutError(
  db: DbOrTx,
  id: number,
  message: string,
): Promise<PayoutRow | undefined> {
  const [updated] = await db
    .update(payouts)
    .set({ lastError: message.slice(0, 500), updatedAt: sql`now()` })
    .where(eq(payouts.id, id))
    .returning();
  return updated;
}

/** Marks a signed (or re-sent) payout broadcast; undefined when it is no longer signed or broadcast. */
export async function markPayoutBroadcast(
  db: DbOrTx,
  id: number,
  broadcastAt: Date,
): Promise<PayoutRow | undefined> {
  const [updated] = await db
    .update(payouts)
    .set({ status: 'broadcast', broadcastAt, lastError: null, updatedAt: sql`now()` })
    .where(and(eq(payouts.id, id), inArray(payouts.status, ['signed', 'broadcast'])))
    .returning();
  return updated;
}

/**
 * Confirms an open payout and marks what it paid as paid: its bets claimed, its refunds refunded.
 * Undefined (and nothing changed) when it is no longer open.
 */
export async function confirmPayout(tx: Tx, id: number, txHash: string): Promise<PayoutRow | undefined> {
  const [confirmed] = await tx
    .update(payouts)
    .set({
      status: 'confirmed',
      txHash,
      lastError: null,
      confirmedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(payouts.id, id), inArray(payouts.status, OPEN_PAYOUT_STATUSES)))
    .returning();
  if (!confirmed) return undefined;
  await tx.update(bets).set({ status: 'claimed' }).where(eq(bets.payoutId, id));
  await tx.update(oracleBets).set({ claimed: true }).where(eq(oracleBets.payoutId, id));
  await tx.update(payments).set({ status: 'refunded' }).where(eq(payments.refundPayoutId, id));
  return confirmed;
}

/**
 * Fails a payout and releases what it paid for: its bets are claimable again, its refunds held for
 * an operator. The released ids are kept on the row for `payouts:reissue`.
 */
export async function failPayoutAndRelease(tx: Tx, id: number, reason: string): Promise<PayoutRow> {
  const releasedBets = await tx
    .update(bets)
    .set({ payoutId: null })
    .where(eq(bets.payoutId, id))
    .returning({ id: bets.id });
  const releasedRounds = await tx
    .update(oracleBets)
    .set({ payoutId: null })
    .where(eq(oracleBets.payoutId, id))
    .returning({ id: oracleBets.id });
  const releasedPayments = await tx
    .update(payments)
    .set({ status: 'refund_held', refundPayoutId: null, refundLastError: reason })
    .where(eq(payments.refundPayoutId, id))
    .returning({ id: payments.id });
  const released: ReleasedItems = {
    bets: releasedBets.map((row) => row.id),
    oracleBets: releasedRounds.map((row) => row.id),
    payments: releasedPayments.map((row) => row.id),
  };
  const [failed] = await tx
    .update(payouts)
    .set({ status: 'failed', lastError: reason, failedAt: sql`now()`, updatedAt: sql`now()`, released })
    .where(eq(payouts.id, id))
    .returning();
  if (!failed) throw new Error(`payout ${id} vanished`);
  return failed;
}

/**
 * Sends a signed or broadcast payout back to `created`, unsigned, if it still holds `nonce`;
 * undefined when it moved on meanwhile.
 */
export async function requeueSignedPayout(
  db: DbOrTx,
  id: number,
  nonce: bigint | null,
  reason: string,
): Promise<PayoutRow | undefined> {
  const [requeued] = await db
    .update(payouts)
    .set({
      status: 'created',
      nonce: null,
      rawTx: null,
      txHash: null,
      cancelRawTx: null,
      cancelTxHash: null,
      broadcastAt: null,
      lastError: reason,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(payouts.id, id),
        inArray(payouts.status, ['signed', 'broadcast']),
        nonce === null ? sql`false` : eq(payouts.nonce, nonce),
      ),
    )
    .returning();
  return requeued;
}

/**
 * The released items of a failed payout still unpaid and in no other payout, locked for this
 * transaction: bets by the claimable rule itself (their owner may be another address now), refunds
 * still due or held.
 */
export async function lockReleasedUnpaid(tx: Tx, released: ReleasedItems) {
  const none = [-1];
  const marketBets = await tx
    .select({ bet: bets })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId))
    .where(and(inArray(bets.id, released.bets.length ? released.bets : none), claimableMarketBet))
    .for('update', { of: bets });
  const roundBets = await tx
    .select()
    .from(oracleBets)
    .where(
      and(inArray(oracleBets.id, released.oracleBets.length ? released.oracleBets : none), claimableRoundBet),
    )
    .for('update');
  const refunds = await tx
    .select()
    .from(payments)
    .where(
      and(
        inArray(payments.id, released.payments.length ? released.payments : none),
        isNull(payments.refundPayoutId),
        inArray(payments.status, ['refund_held', 'refund_due']),
      ),
    )
    .for('update');
  return { bets: marketBets.map(({ bet }) => bet), oracleBets: roundBets, payments: refunds };
}

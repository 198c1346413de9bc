import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/query-rows.ts';
import { chainCursors, escrowDeposits, payments } from '../../db/schema.ts';

// Escrow deposits that reconciliation found on chain and settles one by one (escrow_deposits), and
// how far its chain scan has read (chain_cursors). Each function takes the pool or the caller's
// transaction.

export type EscrowDepositRow = typeof escrowDeposits.$inferSelect;
export type NewEscrowDeposit = Pick<
  typeof escrowDeposits.$inferInsert,
  | 'chainId'
  | 'stakeId'
  | 'txHash'
  | 'logIndex'
  | 'owner'
  | 'amount'
  | 'marketKey'
  | 'kind'
  | 'side'
  | 'terms'
  | 'blockNumber'
  | 'blockHash'
  | 'blockTime'
  | 'nextAttemptAt'
>;

/** The last block a scan named `name` read, if it ever ran. */
export async function readChainCursor(db: DbOrTx, name: string): Promise<bigint | undefined> {
  const [cursor] = await db.select().from(chainCursors).where(eq(chainCursors.name, name));
  return cursor?.blockNumber;
}

/** Moves the cursor of the scan named `name` to `blockNumber` (the last block it read). */
export async function writeChainCursor(
  tx: DbOrTx,
  cursor: { name: string; blockNumber: bigint },
): Promise<void> {
  await tx
    .insert(chainCursors)
    .values(cursor)
    .onConflictDoUpdate({
      target: chainCursors.name,
      set: { blockNumber: cursor.blockNumber, updatedAt: new Date() },
    });
}

/** Which of these stakes are payments already (recorded as bets, or refused and owed back). */
export async function findKnownStakeIds(
  db: DbOrTx,
  chainId: number,
  stakeIds: readonly bigint[],
): Promise<Set<bigint>> {
  if (stakeIds.length === 0) return new Set();
  const rows = await db
    .select({ stakeId: payments.stakeId })
    .from(payments)
    .where(and(eq(payments.chainId, chainId), inArray(payments.stakeId, [...stakeIds])));
  return new Set(rows.flatMap((row) => (row.stakeId === null ? [] : [row.stakeId])));
}

/** The status of the payment that holds this stake, if any. */
export async function findStakePaymentStatus(
  db: DbOrTx,
  chainId: number,
  stakeId: bigint,
): Promise<string | undefined> {
  const [row] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(and(eq(payments.chainId, chainId), eq(payments.stakeId, stakeId)))
    .limit(1);
  return row?.status;
}

/**
 * Queues a scanned range's deposits (a stake already queued is left alone) and moves the cursor to
 * the range's last block, in the caller's transaction: the cursor never passes a deposit not queued.
 */
export async function queueScannedDeposits(
  tx: DbOrTx,
  cursor: { name: string; blockNumber: bigint },
  deposits: NewEscrowDeposit[],
): Promise<void> {
  if (deposits.length) await tx.insert(escrowDeposits).values(deposits).onConflictDoNothing();
  await writeChainCursor(tx, cursor);
}

const ClaimedDepositSchema = z.object({
  id: z.number(),
  stake_id: z.coerce.bigint(),
  tx_hash: z.string(),
  log_index: z.number(),
  owner: z.string(),
  amount: z.coerce.bigint(),
  market_key: z.string(),
  kind: z.number(),
  side: z.number(),
  terms: z.string(),
  block_number: z.coerce.bigint(),
  block_time: z.coerce.date(),
  attempts: z.number(),
});
export type ClaimedEscrowDeposit = z.infer<typeof ClaimedDepositSchema>;

/**
 * Claims the next deposit of this chain due at `now` by pushing its next attempt out to `leaseUntil`,
 * in one statement with FOR UPDATE SKIP LOCKED: another instance leaves it alone.
 */
export async function claimNextEscrowDeposit(
  db: DbOrTx,
  input: { chainId: number; now: Date; leaseUntil: Date },
): Promise<ClaimedEscrowDeposit | undefined> {
  const [row] = await queryRows(
    db,
    sql`update escrow_deposits set next_attempt_at = ${input.leaseUntil}, attempts = attempts + 1
        where id = (select id from escrow_deposits
                    where resolved_at is null and chain_id = ${input.chainId} and next_attempt_at <= ${input.now}
                    order by next_attempt_at, id limit 1 for update skip locked)
        returning id, stake_id, tx_hash, log_index, owner, amount, market_key, kind, side, terms,
                  block_number, block_time, attempts`,
    ClaimedDepositSchema,
  );
  return row;
}

/** Puts a deposit back to wait until `until`, without counting the claim as an attempt. */
export async function deferEscrowDeposit(db: DbOrTx, id: number, until: Date): Promise<void> {
  await db
    .update(escrowDeposits)
    .set({ nextAttemptAt: until, attempts: sql`${escrowDeposits.attempts} - 1` })
    .where(eq(escrowDeposits.id, id));
}

export async function resolveEscrowDeposit(
  db: DbOrTx,
  id: number,
  outcome: string,
  resolvedAt: Date,
): Promise<void> {
  await db
    .update(escrowDeposits)
    .set({ outcome, resolvedAt, lastError: null })
    .where(eq(escrowDeposits.id, id));
}

export async function retryEscrowDepositAt(
  db: DbOrTx,
  id: number,
  nextAttemptAt: Date,
  lastError: string,
): Promise<void> {
  await db.update(escrowDeposits).set({ lastError, nextAttemptAt }).where(eq(escrowDeposits.id, id));
}

/** Every deposit not settled yet, oldest first (ops payments:status). */
export async function listUnresolvedEscrowDeposits(db: DbOrTx): Promise<EscrowDepositRow[]> {
  return db.select().from(escrowDeposits).where(isNull(escrowDeposits.resolvedAt)).orderBy(escrowDeposits.id);
}

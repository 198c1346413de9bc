import type { PayoutListDocument } from '@pm/escrow/payout-list';
import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import {
  marketFlags,
  oracleBets,
  oracleRounds,
  type PayoutListStatus,
  payoutListLeaves,
  payoutLists,
} from '../db/schema.ts';

// Every read and write of payout_lists and payout_list_leaves (docs/architecture.md "Rounds on the
// escrow"). Writes that move a settlement name the status (and attempt) they expect, so two instances
// never both apply a step.

export type PayoutListRow = typeof payoutLists.$inferSelect;
export type NewDueSettlement = Pick<
  typeof payoutLists.$inferInsert,
  | 'marketKey'
  | 'epoch'
  | 'chainId'
  | 'escrow'
  | 'marketId'
  | 'closesAt'
  | 'refund'
  | 'outcome'
  | 'verdictHash'
>;

/** Records a round's settlement as due (the engine's transaction); nothing when it has one already. */
export async function insertDueSettlement(db: DbOrTx, values: NewDueSettlement): Promise<boolean> {
  const rows = await db
    .insert(payoutLists)
    .values({ ...values, status: 'due' })
    .onConflictDoNothing()
    .returning({ id: payoutLists.id });
  return rows.length > 0;
}

/** Settlements the job moves now: due ones whose next try has come, and published ones, oldest first. */
export async function listSettlementsToAdvance(
  db: DbOrTx,
  now: Date,
  limit: number,
): Promise<PayoutListRow[]> {
  return db
    .select()
    .from(payoutLists)
    .where(
      sql`(${payoutLists.status} = 'due' and ${payoutLists.nextAttemptAt} <= ${now}) or ${payoutLists.status} = 'published'`,
    )
    .orderBy(asc(payoutLists.nextAttemptAt), asc(payoutLists.id))
    .limit(limit);
}

export async function findPayoutListByKey(db: DbOrTx, marketKey: string): Promise<PayoutListRow | undefined> {
  const [row] = await db.select().from(payoutLists).where(eq(payoutLists.marketKey, marketKey.toLowerCase()));
  return row;
}

export async function findPayoutListByEpoch(db: DbOrTx, epoch: number): Promise<PayoutListRow | undefined> {
  const [row] = await db.select().from(payoutLists).where(eq(payoutLists.epoch, epoch));
  return row;
}

/** A round's stakes on the escrow (its bets with a stake id), with what the round returns each. */
export async function listRoundStakes(db: DbOrTx, epoch: number) {
  return db
    .select({
      betId: oracleBets.id,
      stakeId: oracleBets.stakeId,
      owner: oracleBets.userAddress,
      position: oracleBets.position,
      amount: oracleBets.amount,
      payoutAmount: oracleBets.payoutAmount,
    })
    .from(oracleBets)
    .where(and(eq(oracleBets.epoch, epoch), isNotNull(oracleBets.stakeId)))
    .orderBy(asc(oracleBets.stakeId));
}

/**
 * A Predictions market's flag bonds on the escrow (dispute deposits, decision 026), in the shape of
 * listRoundStakes so a market's payout list takes them as leaves the same way: `payoutAmount` is the
 * bond's fate as settleMarket wrote it (bond_return_amount: bond + reward when returned, 0 when
 * forfeited: no leaf, its amount is in the winners' payouts; null while held). A void market refunds
 * them with every stake (settleAsRefund). Bonds paid to the vault (no stake id) are not the escrow's.
 */
export async function listMarketBondStakes(db: DbOrTx, marketId: number) {
  return db
    .select({
      flagId: marketFlags.id,
      stakeId: marketFlags.stakeId,
      owner: marketFlags.address,
      amount: marketFlags.bondAmount,
      payoutAmount: marketFlags.bondReturnAmount,
      fate: marketFlags.bondStatus,
    })
    .from(marketFlags)
    .where(and(eq(marketFlags.marketId, marketId), isNotNull(marketFlags.stakeId)))
    .orderBy(asc(marketFlags.stakeId));
}

export async function findRound(db: DbOrTx, epoch: number) {
  const [row] = await db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
  return row;
}

type Expected = { status: PayoutListStatus; attempts: number };

/**
 * The settlement's action is queued and its list published, with each paid leaf's proof (replacing
 * an earlier attempt's). Undefined when the row moved meanwhile (another instance): the caller rolls back.
 */
export async function publishSettlement(
  tx: DbOrTx,
  id: number,
  expected: Expected,
  input: {
    operatorTxId: number;
    publishedAt: Date;
    pool: bigint;
    list: {
      document: PayoutListDocument;
      root: string;
      payoutTotal: bigint;
      fee: bigint;
      leaves: { stakeId: bigint; payout: bigint; proof: string[] }[];
    } | null;
  },
): Promise<PayoutListRow | undefined> {
  const [row] = await tx
    .update(payoutLists)
    .set({
      status: 'published',
      operatorTxId: input.operatorTxId,
      publishedAt: input.publishedAt,
      pool: input.pool,
      document: input.list?.document ?? null,
      root: input.list?.root ?? null,
      payoutTotal: input.list?.payoutTotal ?? null,
      fee: input.list?.fee ?? null,
      lastError: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(payoutLists.id, id),
        eq(payoutLists.status, expected.status),
        eq(payoutLists.attempts, expected.attempts),
      ),
    )
    .returning();
  if (!row) return undefined;
  await tx.delete(payoutListLeaves).where(eq(payoutListLeaves.marketKey, row.marketKey));
  if (input.list && input.list.leaves.length > 0) {
    await tx
      .insert(payoutListLeaves)
      .values(input.list.leaves.map((leaf) => ({ ...leaf, marketKey: row.marketKey })));
  }
  return row;
}

/** The settlement is final on chain: payouts (or refunds) open at `claimableAt`. */
export async function markSettled(
  db: DbOrTx,
  id: number,
  input: { settledBlock: bigint | null; settledAt: Date; claimableAt: Date },
): Promise<PayoutListRow | undefined> {
  const [row] = await db
    .update(payoutLists)
    .set({ status: 'settled', ...input, lastError: null, updatedAt: sql`now()` })
    .where(and(eq(payoutLists.id, id), eq(payoutLists.status, 'published')))
    .returning();
  return row;
}

/** Its action failed: due again for a fresh build at `nextAttemptAt` (the list is withdrawn meanwhile). */
export async function settlementDueAgain(
  db: DbOrTx,
  id: number,
  expected: Expected,
  input: { error: string; nextAttemptAt: Date },
): Promise<void> {
  await db
    .update(payoutLists)
    .set({
      status: 'due',
      attempts: sql`${payoutLists.attempts} + 1`,
      lastError: input.error.slice(0, 500),
      nextAttemptAt: input.nextAttemptAt,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(payoutLists.id, id),
        eq(payoutLists.status, expected.status),
        eq(payoutLists.attempts, expected.attempts),
      ),
    );
}

/** Why a step of it could not go on (retried at `nextAttemptAt`); its status stays. */
export async function recordSettlementError(
  db: DbOrTx,
  id: number,
  input: { error: string; nextAttemptAt: Date },
): Promise<void> {
  await db
    .update(payoutLists)
    .set({ lastError: input.error.slice(0, 500), nextAttemptAt: input.nextAttemptAt, updatedAt: sql`now()` })
    .where(eq(payoutLists.id, id));
}

/** The settled lists of these rounds, by epoch. */
export async function listSettledByEpochs(db: DbOrTx, epochs: number[], now: Date) {
  if (epochs.length === 0) return [];
  return db
    .select()
    .from(payoutLists)
    .where(
      and(
        inArray(payoutLists.epoch, epochs),
        eq(payoutLists.status, 'settled'),
        lte(payoutLists.claimableAt, now),
      ),
    );
}

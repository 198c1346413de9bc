import { ORACLE_RECENT_ROUNDS, type Position } from '@pm/core/constants';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { oracleBets, oracleRounds } from '../db/schema.ts';
import type { OracleBetRow, RoundRow } from './oracle-rounds.ts';

// Reads and writes of oracle rounds and their bets. Functions take a Db or a Tx, so a bet is
// written inside acceptPayment's transaction and the engine's steps inside its own (as
// markets-repository does for markets).

export type NewOracleBetRow = typeof oracleBets.$inferInsert;

/** Rounds not ended yet: taking bets soon, taking bets, or waiting for their close price. */
const OPEN_ROUND_STATUSES = ['upcoming', 'live', 'locked'] as const;

/**
 * The open list as literal SQL, `('upcoming', 'live', 'locked')`, not bound parameters: the partial
 * index of migration 0006 is declared on that predicate, and the planner matches a partial index
 * only on a predicate it can prove, which a prepared statement's generic plan over `$1` is not.
 */
export const OPEN_ROUND_STATUS_LIST = sql.raw(
  `(${OPEN_ROUND_STATUSES.map((status) => `'${status}'`).join(', ')})`,
);

/**
 * docs/product.md §7: the open rounds by start time and the latest ended ones (5 each). Each is one range of a
 * partial index (migration 0006); the filters are literal SQL so the planner can match them.
 */
export async function listRoundsForDisplay(db: DbOrTx): Promise<{ open: RoundRow[]; ended: RoundRow[] }> {
  const [open, ended] = await Promise.all([
    db
      .select()
      .from(oracleRounds)
      .where(sql`${oracleRounds.status} in ${OPEN_ROUND_STATUS_LIST}`)
      .orderBy(asc(oracleRounds.startTime))
      .limit(ORACLE_RECENT_ROUNDS),
    db
      .select()
      .from(oracleRounds)
      .where(sql`${oracleRounds.status} = 'ended'`)
      .orderBy(desc(oracleRounds.epoch))
      .limit(ORACLE_RECENT_ROUNDS),
  ]);
  return { open, ended };
}

export async function roundExists(db: DbOrTx, epoch: number): Promise<boolean> {
  const [row] = await db
    .select({ epoch: oracleRounds.epoch })
    .from(oracleRounds)
    .where(eq(oracleRounds.epoch, epoch))
    .limit(1);
  return row !== undefined;
}

/** The round row locked until the transaction ends: a bet and the engine's lock serialise on it. */
export async function lockRound(tx: DbOrTx, epoch: number): Promise<RoundRow | undefined> {
  const [row] = await tx.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch)).for('update');
  return row;
}

/** Every open round, oldest first, locked for the engine's transaction. */
export async function lockOpenRounds(tx: DbOrTx): Promise<RoundRow[]> {
  return tx
    .select()
    .from(oracleRounds)
    .where(sql`${oracleRounds.status} in ${OPEN_ROUND_STATUS_LIST}`)
    .orderBy(asc(oracleRounds.epoch))
    .for('update');
}

export async function isRoundOpen(db: DbOrTx, epoch: number): Promise<boolean> {
  const [row] = await db
    .select({ epoch: oracleRounds.epoch })
    .from(oracleRounds)
    .where(sql`${oracleRounds.epoch} = ${epoch} and ${oracleRounds.status} in ${OPEN_ROUND_STATUS_LIST}`)
    .limit(1);
  return row !== undefined;
}

/** The bet a payment became, with its round: what placing it answered. */
export async function findOracleBetByPayment(
  db: DbOrTx,
  paymentId: number,
): Promise<{ bet: OracleBetRow; round: RoundRow } | undefined> {
  const [row] = await db
    .select({ bet: oracleBets, round: oracleRounds })
    .from(oracleBets)
    .innerJoin(oracleRounds, eq(oracleRounds.epoch, oracleBets.epoch))
    .where(eq(oracleBets.paymentId, paymentId))
    .limit(1);
  return row;
}

export async function insertOracleBet(tx: DbOrTx, values: NewOracleBetRow): Promise<OracleBetRow> {
  const [row] = await tx.insert(oracleBets).values(values).returning();
  if (!row) throw new Error('inserting the oracle bet returned nothing');
  return row;
}

/**
 * docs/architecture.md "Oracle rounds": the pools and counts move in SQL, in the bet's own transaction; never a
 * value read and written back.
 */
export async function addBetToRoundTotals(
  tx: DbOrTx,
  input: { epoch: number; position: Position; amountWei: bigint },
): Promise<RoundRow> {
  const side =
    input.position === 'bull'
      ? {
          totalUpAmount: sql`${oracleRounds.totalUpAmount} + ${input.amountWei}`,
          upCount: sql`${oracleRounds.upCount} + 1`,
        }
      : {
          totalDownAmount: sql`${oracleRounds.totalDownAmount} + ${input.amountWei}`,
          downCount: sql`${oracleRounds.downCount} + 1`,
        };
  const [row] = await tx
    .update(oracleRounds)
    .set({ ...side, updatedAt: sql`now()` })
    .where(eq(oracleRounds.epoch, input.epoch))
    .returning();
  if (!row) throw new Error('updating the round totals returned nothing');
  return row;
}

import { ORACLE_RECENT_ROUNDS, type Position } from '@pm/core/constants';
import { and, asc, desc, eq, gt, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx, Tx } from '../db/client.ts';
import { execute, queryRows } from '../db/query-rows.ts';
import { oracleBets, oracleRounds } from '../db/schema.ts';
import type { PriceSource } from '../prices/price-feed.ts';
import type { OracleBetRow, RoundRow, StoredRoundResult } from './oracle-rounds.ts';

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

/** A round's lock time, which with its epoch makes its escrow key; undefined for an unknown round. */
export async function findRoundLock(db: DbOrTx, epoch: number): Promise<{ lockTime: Date } | undefined> {
  const [row] = await db
    .select({ lockTime: oracleRounds.lockTime })
    .from(oracleRounds)
    .where(eq(oracleRounds.epoch, epoch))
    .limit(1);
  return row;
}

/**
 * The rounds whose bets close in (`after`, `until`]: the only ones a deposit made at `after` can be
 * for (the escrow takes none at or after its close, nor one closing more than 2 days ahead).
 */
export async function listRoundLocksBetween(
  db: DbOrTx,
  after: Date,
  until: Date,
): Promise<{ epoch: number; lockTime: Date }[]> {
  return db
    .select({ epoch: oracleRounds.epoch, lockTime: oracleRounds.lockTime })
    .from(oracleRounds)
    .where(and(gt(oracleRounds.lockTime, after), lte(oracleRounds.lockTime, until)))
    .orderBy(asc(oracleRounds.epoch));
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

/**
 * Serialises the round engine's steps and the operator's genesis and reset. Advisory lock (key,
 * schema): per schema, so deployments or test files sharing a database never wait on each other.
 */
const ROUND_ENGINE_LOCK_KEY = 8_173_101;

/** Waits for the round engine's lock, for this transaction (operator actions). */
export async function lockRoundEngine(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ROUND_ENGINE_LOCK_KEY}, hashtext(current_schema()))`);
}

/** Takes the round engine's lock for this transaction unless another instance holds it. */
export async function tryLockRoundEngine(tx: Tx): Promise<boolean> {
  const [row] = await queryRows(
    tx,
    sql`select pg_try_advisory_xact_lock(${ROUND_ENGINE_LOCK_KEY}, hashtext(current_schema())) as locked`,
    z.object({ locked: z.boolean() }),
  );
  return row?.locked === true;
}

export async function anyRoundExists(tx: DbOrTx): Promise<boolean> {
  const rows = await tx.select({ epoch: oracleRounds.epoch }).from(oracleRounds).limit(1);
  return rows.length > 0;
}

/** Creates a round unless its epoch exists; true when this call created it. */
export async function insertRound(
  tx: DbOrTx,
  values: Pick<typeof oracleRounds.$inferInsert, 'epoch' | 'status' | 'startTime' | 'lockTime' | 'closeTime'>,
): Promise<boolean> {
  const rows = await tx
    .insert(oracleRounds)
    .values(values)
    .onConflictDoNothing()
    .returning({ epoch: oracleRounds.epoch });
  return rows.length > 0;
}

export async function markRoundLive(tx: DbOrTx, epoch: number): Promise<void> {
  await execute(
    tx,
    sql`update oracle_rounds set status = 'live', updated_at = now()
        where epoch = ${epoch} and status = 'upcoming'`,
  );
}

type RoundPrice = { price: bigint; roundId: string | null; updatedAt: Date };

/** Locks an upcoming or live round at its lock price; answers how many rows changed (0: moved on meanwhile). */
export async function lockRoundAt(
  tx: DbOrTx,
  epoch: number,
  reading: RoundPrice,
  priceSource: PriceSource,
): Promise<number> {
  return execute(
    tx,
    sql`update oracle_rounds set status = 'locked', lock_price = ${reading.price},
          lock_price_round_id = ${reading.roundId}, lock_price_at = ${reading.updatedAt},
          price_source = ${priceSource}, updated_at = now()
        where epoch = ${epoch} and status in ('upcoming', 'live')`,
  );
}

/** Ends a locked round at its close price with its result; answers how many rows changed. */
export async function endRoundAt(
  tx: DbOrTx,
  epoch: number,
  reading: RoundPrice,
  result: StoredRoundResult,
): Promise<number> {
  return execute(
    tx,
    sql`update oracle_rounds set status = 'ended', close_price = ${reading.price},
          close_price_round_id = ${reading.roundId}, close_price_at = ${reading.updatedAt},
          result = ${result}, updated_at = now()
        where epoch = ${epoch} and status = 'locked'`,
  );
}

/** Ends an open round as cancelled, with why; answers how many rows changed. */
export async function cancelRound(tx: DbOrTx, epoch: number, reason: string): Promise<number> {
  return execute(
    tx,
    sql`update oracle_rounds set status = 'ended', result = 'cancelled', cancel_reason = ${reason},
          updated_at = now()
        where epoch = ${epoch} and status in ${OPEN_ROUND_STATUS_LIST}`,
  );
}

/** The newest feed round id any round of this source used, for lock or close (none: null). */
export async function lastUsedFeedRoundId(tx: DbOrTx, priceSource: PriceSource): Promise<bigint | null> {
  const [row] = await queryRows(
    tx,
    sql`select max(id)::text as id from (
          select lock_price_round_id::numeric as id from oracle_rounds
            where price_source = ${priceSource} and lock_price_round_id is not null
          union all
          select close_price_round_id::numeric from oracle_rounds
            where price_source = ${priceSource} and close_price_round_id is not null
        ) used`,
    z.object({ id: z.string().nullable() }),
  );
  return row?.id ? BigInt(row.id) : null;
}

/**
 * Writes every bet's payout_amount for an ended round in one statement (docs/architecture.md "Oracle rounds"),
 * the same maths as @pm/core/payouts computeRoundPayouts:
 * - bull/bear with bets on the winning side: fee = ⌊pool × feeBps / 10000⌋ is taken first, each
 *   winner gets ⌊stake × (pool − fee) / winningPool⌋ (stake included), each loser 0;
 * - draw, cancelled, or nobody on the winning side: every stake comes back as it was.
 * `div` is exact integer division on NUMERIC (a plain `/` would round at a limited scale).
 * Run in the transaction that ends the round; rows already paid out are left alone.
 */
export async function settleRoundPayouts(
  tx: DbOrTx,
  input: { epoch: number; result: StoredRoundResult; feeBps: number },
): Promise<number> {
  const refundAll = input.result === 'draw' || input.result === 'cancelled';
  const winningSide = refundAll ? null : input.result;
  return execute(
    tx,
    sql`with totals as (
          select coalesce(sum(amount), 0) as pool,
                 coalesce(sum(amount) filter (where position = ${winningSide}), 0) as winning
          from oracle_bets where epoch = ${input.epoch}
        )
        update oracle_bets b set payout_amount = case
            when ${refundAll} or t.winning = 0 then b.amount
            when b.position = ${winningSide}
              then div(b.amount * (t.pool - div(t.pool * ${input.feeBps}, 10000)), t.winning)
            else 0
          end
        from totals t
        where b.epoch = ${input.epoch} and b.claimed = false`,
  );
}

/**
 * The escrow refunded the round on its own (a veto, an escape: docs/architecture.md "Following the
 * chain"): it ends cancelled with that reason, whatever it ended as, and every bet returns its stake;
 * a bet whose stake has already left the escrow (escrow_stake_payouts: the escape's own refund) is
 * claimed. Answers how many bets changed.
 */
export async function refundRoundInFull(tx: DbOrTx, epoch: number, reason: string): Promise<number> {
  await execute(
    tx,
    sql`update oracle_rounds set status = 'ended', result = 'cancelled', cancel_reason = ${reason},
          updated_at = now()
        where epoch = ${epoch}`,
  );
  return execute(
    tx,
    sql`update oracle_bets b set payout_amount = b.amount,
          claimed = b.claimed or exists (select 1 from escrow_stake_payouts p where p.stake_id = b.stake_id)
        where b.epoch = ${epoch}`,
  );
}

import type { MarketCategory, Prediction } from '@pm/core/constants';
import { MAX_ROW_ID } from '@pm/core/constants';
import type { PageCursor } from '@pm/core/contract/page-cursor';
import { and, desc, eq, gt, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { preparedPerHandle } from '../db/prepared-rows.ts';
import { bets, marketCounts, markets } from '../db/schema.ts';
import { AppError } from '../errors/app-error.ts';
import { type UserBetMarket, userBetMarketFields } from '../escrow/claims/claimable-repository.ts';

// Reads and writes of markets and their bets. Functions take a Db or a Tx, so the service can
// compose them inside acceptPayment's transaction.

export type MarketRow = typeof markets.$inferSelect;
export type BetRow = typeof bets.$inferSelect;
export type NewMarketRow = typeof markets.$inferInsert;
export type NewBetRow = typeof bets.$inferInsert;

/** docs/product.md §4: the market list shows active and settling markets. */
const OPEN_STATUSES = ['active', 'settling'] as const;

/**
 * The open filter as literal SQL, not bound parameters: the partial indexes of migration 0006 are
 * declared `where status in ('active', 'settling')`, and the planner matches a partial index only on
 * a predicate it can prove, which a prepared statement's generic plan over `$1, $2` is not.
 */
const isOpen = sql`${markets.status} in ('active', 'settling')`;
const isSettled = sql`${markets.status} = 'settled'`;

/**
 * The bet-type filter as literal SQL too (the value is one of two constants, never input text), so
 * the planner can use the partial (bet_type, …) indexes of migration 0009 with a generic plan.
 */
function betTypeIs(betType: MarketsPage['betType']): SQL | undefined {
  if (betType === 'price_prediction') return sql`${markets.betType} = 'price_prediction'`;
  if (betType === 'custom_bet') return sql`${markets.betType} = 'custom_bet'`;
  return undefined;
}

/** Whether any market exists (the demo data is seeded on an empty database only). */
export async function hasAnyMarket(db: DbOrTx): Promise<boolean> {
  const [existing] = await db.select({ id: markets.id }).from(markets).limit(1);
  return existing !== undefined;
}

export async function findMarket(db: DbOrTx, id: number): Promise<MarketRow | undefined> {
  // Bounded before the query: an id past the int4 column is no market, not a database error.
  if (id > MAX_ROW_ID) return undefined;
  const [row] = await marketById(db).execute({ id });
  return row;
}

/** Every bet and the market page read a market by id: built once per handle (docs/decisions/024). */
const marketById = preparedPerHandle((db) =>
  db
    .select()
    .from(markets)
    .where(eq(markets.id, sql.placeholder('id')))
    .limit(1)
    .prepare('market_by_id'),
);

/** The bet a payment became, with its market: what a create or join answered. */
export async function findBetByPayment(
  db: DbOrTx,
  paymentId: number,
): Promise<{ bet: BetRow; market: MarketRow } | undefined> {
  const [row] = await db
    .select({ bet: bets, market: markets })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId))
    .where(eq(bets.paymentId, paymentId))
    .limit(1);
  return row;
}

/** The market row locked until the transaction ends: bets and settlement serialise on it. */
export async function lockMarket(tx: DbOrTx, id: number): Promise<MarketRow | undefined> {
  if (id > MAX_ROW_ID) return undefined;
  const [row] = await tx.select().from(markets).where(eq(markets.id, id)).limit(1).for('update');
  return row;
}

/** The market whose escrow key (lower-case 0x hex) this is, if any: what a deposit's event names. */
export async function findMarketByEscrowKey(db: DbOrTx, escrowKey: string): Promise<MarketRow | undefined> {
  const [row] = await db.select().from(markets).where(eq(markets.escrowKey, escrowKey)).limit(1);
  return row;
}

/**
 * A new market; ESCROW_ID_TAKEN when another market holds its escrow id or key (two creations racing
 * for one id: the unique indexes decide, and the loser's deposit is given back).
 */
export async function insertMarket(tx: DbOrTx, values: NewMarketRow): Promise<MarketRow> {
  const [row] = await tx.insert(markets).values(values).onConflictDoNothing().returning();
  if (!row) throw new AppError('ESCROW_ID_TAKEN');
  return row;
}

export async function insertBet(tx: DbOrTx, values: NewBetRow): Promise<BetRow> {
  const [row] = await tx.insert(bets).values(values).returning();
  if (!row) throw new Error('insert into bets returned no row');
  return row;
}

/**
 * docs/architecture.md "Markets": totals and counts move in SQL, in the bet's own transaction; never a value read
 * by a client and written back (the spec's read-modify-write loses concurrent bets).
 *
 * Only while the market takes bets: active, and its deadline after both the payment's block time and
 * the server's now. The check and the update are one statement, which locks the row (as
 * `lockMarket` does for settlement, which closes the market under that lock) until the bet's
 * transaction ends; undefined when the market is not open (or not there).
 */
export async function addBetToOpenMarket(
  tx: DbOrTx,
  input: { marketId: number; prediction: Prediction; amountWei: bigint; paidAt: Date; now: Date },
): Promise<MarketRow | undefined> {
  if (input.marketId > MAX_ROW_ID) return undefined;
  const amount = sql`${input.amountWei.toString()}::numeric`;
  const side =
    input.prediction === 'YES'
      ? { totalYesAmount: sql`${markets.totalYesAmount} + ${amount}`, yesCount: sql`${markets.yesCount} + 1` }
      : { totalNoAmount: sql`${markets.totalNoAmount} + ${amount}`, noCount: sql`${markets.noCount} + 1` };
  const [row] = await tx
    .update(markets)
    .set(side)
    .where(
      and(
        eq(markets.id, input.marketId),
        eq(markets.status, 'active'),
        gt(markets.deadline, input.paidAt),
        gt(markets.deadline, input.now),
      ),
    )
    .returning();
  return row;
}

/**
 * Rows after `cursor` in (time desc, id desc) order. The server writes these times from its clock
 * in whole milliseconds, the cursor's precision, so equal times fall to the id.
 */
function after(time: PgColumn, id: PgColumn, cursor: PageCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  return or(lt(time, cursor.at), and(eq(time, cursor.at), lt(id, cursor.id)));
}

type MarketsPage = {
  category: MarketCategory | undefined;
  /** Only price markets or only custom ones; undefined: both. */
  betType?: 'price_prediction' | 'custom_bet' | undefined;
  limit: number;
  cursor?: PageCursor;
};

/** docs/product.md §7: open markets newest first, optionally of one category, one page after `cursor`. */
export async function listOpenMarkets(db: DbOrTx, input: MarketsPage): Promise<MarketRow[]> {
  return db
    .select()
    .from(markets)
    .where(
      and(
        isOpen,
        input.category ? eq(markets.category, input.category) : undefined,
        betTypeIs(input.betType),
        after(markets.createdAt, markets.id, input.cursor),
      ),
    )
    .orderBy(desc(markets.createdAt), desc(markets.id))
    .limit(input.limit);
}

/** docs/product.md §7: settled markets, most recently updated first (Previous Rounds), one page after `cursor`. */
export async function listSettledMarkets(db: DbOrTx, input: MarketsPage): Promise<MarketRow[]> {
  return db
    .select()
    .from(markets)
    .where(
      and(
        isSettled,
        input.category ? eq(markets.category, input.category) : undefined,
        betTypeIs(input.betType),
        after(markets.updatedAt, markets.id, input.cursor),
      ),
    )
    .orderBy(desc(markets.updatedAt), desc(markets.id))
    .limit(input.limit);
}

/**
 * Open markets per category, for the chips (docs/product.md §2 /predictions): from the `market_counts`
 * aggregate that triggers keep in each market change's own transaction, not a count of the table.
 */
export async function countOpenMarketsByCategory(
  db: DbOrTx,
): Promise<Array<{ category: string; count: number }>> {
  return db
    .select({ category: marketCounts.category, count: sql`sum(${marketCounts.count})`.mapWith(Number) })
    .from(marketCounts)
    .where(and(inArray(marketCounts.status, [...OPEN_STATUSES]), sql`${marketCounts.count} > 0`))
    .groupBy(marketCounts.category);
}

/**
 * docs/product.md §7: a market's bets newest first, one page after `cursor` (docs/decisions/016);
 * with `address` (lower-case) only that wallet's. Each is one ordered index range: (market_id,
 * created_at, id), or (market_id, user_address, created_at, id) of migration 0013.
 */
export async function listMarketBets(
  db: DbOrTx,
  marketId: number,
  limit: number,
  page: { cursor?: PageCursor | undefined; address?: string | undefined } = {},
): Promise<BetRow[]> {
  return db
    .select()
    .from(bets)
    .where(
      and(
        eq(bets.marketId, marketId),
        page.address === undefined ? undefined : eq(bets.userAddress, page.address),
        after(bets.createdAt, bets.id, page.cursor),
      ),
    )
    .orderBy(desc(bets.createdAt), desc(bets.id))
    .limit(limit);
}

function userBetsQuery(db: DbOrTx, withCursor: boolean) {
  const at = sql.placeholder('at');
  return db
    .select({ bet: bets, market: userBetMarketFields })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId))
    .where(
      and(
        eq(bets.userAddress, sql.placeholder('address')),
        withCursor
          ? or(lt(bets.createdAt, at), and(eq(bets.createdAt, at), lt(bets.id, sql.placeholder('id'))))
          : undefined,
      ),
    )
    .orderBy(desc(bets.createdAt), desc(bets.id))
    .limit(sql.placeholder('limit'))
    .prepare(withCursor ? 'user_bets_after' : 'user_bets_first');
}

/**
 * Built once per database handle (docs/decisions/022): a named statement, so neither Drizzle's query
 * builder nor PostgreSQL's planner runs per request. Per handle, since a prepared query belongs to
 * its session.
 */
const userBetsFirst = preparedPerHandle((db) => userBetsQuery(db, false));
const userBetsAfter = preparedPerHandle((db) => userBetsQuery(db, true));

/**
 * Distinct wallets that bet on a market, exact: the distinct addresses of one market's range of
 * (market_id, user_address, …), read from the index alone (migration 0013; decision 016). A count
 * kept on the market row would add a write to every bet's transaction, the money path, for a
 * figure this read gets in well under a millisecond at 1,000 bets, behind the response cache.
 */
export async function countMarketParticipants(db: DbOrTx, marketId: number): Promise<number> {
  const distinct = db
    .selectDistinct({ userAddress: bets.userAddress })
    .from(bets)
    .where(eq(bets.marketId, marketId))
    .as('participants');
  const [row] = await db.select({ count: sql`count(*)`.mapWith(Number) }).from(distinct);
  return row?.count ?? 0;
}

/**
 * docs/product.md §7 My bets: a wallet's bets with their market, newest first, one page after `cursor`.
 * `address` is lower-case.
 */
export async function listUserBets(
  db: DbOrTx,
  input: { address: string; limit: number; cursor?: PageCursor },
): Promise<Array<{ bet: BetRow; market: UserBetMarket }>> {
  const statement = input.cursor === undefined ? userBetsFirst(db) : userBetsAfter(db);
  return statement.execute({
    address: input.address,
    limit: input.limit,
    at: input.cursor?.at.toISOString(),
    id: input.cursor?.id,
  });
}

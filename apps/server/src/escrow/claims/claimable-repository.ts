import { and, desc, eq, isNotNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { preparedPerHandle } from '../../db/prepared-rows.ts';
import {
  bets,
  escrowStakePayouts,
  marketFlags,
  markets,
  oracleBets,
  oracleRounds,
  payoutListLeaves,
  payoutLists,
} from '../../db/schema.ts';

// What can be claimed, written once: the GET claimable read and the escrow relay's choice of
// stakes (escrow-relays-repository.ts) go through these conditions. A market bet is claimable once its
// market is settled and it won or was refunded; a round bet once its round gave it a payout; a flag's
// bond once it came back. Each is a stake on the escrow contract (decision 026), paid by the contract
// from its settlement's published list; the escrow's record of a paid stake (escrow_stake_payouts) ends
// its claim. Either bet pays its payout_amount, the full return in both tables (decision 002).
// The round's amount condition is an SQL literal, not a parameter: it must match the partial index's
// predicate (oracle_bets_claimable_idx) for the planner to use it. A market bet has no such index
// (migration 0014: no index names a column settlement writes); its claimable read is the wallet's
// range of bets_user_created_id_idx.

/**
 * The market fields a wallet's bet is shown with (docs/product.md §7 My bets): the claimable read's
 * and the markets room's list of a wallet's bets. Here, the lower of the two rooms.
 */
export const userBetMarketFields = {
  title: markets.title,
  status: markets.status,
  result: markets.result,
  category: markets.category,
  deadline: markets.deadline,
};
export type UserBetMarket = Pick<typeof markets.$inferSelect, keyof typeof userBetMarketFields>;

/** A market bet that may go into a payout (the query joins its market). */
export const claimableMarketBet = and(
  eq(markets.status, 'settled'),
  sql`${bets.status} in ('won', 'refunded')`,
);

/** A round bet that may go into a payout. */
export const claimableRoundBet = and(eq(oracleBets.claimed, false), sql`${oracleBets.payoutAmount} > 0`);

function claimableMarketBetOf(address: string | Placeholder): SQL | undefined {
  return and(eq(bets.userAddress, address), claimableMarketBet);
}

function claimableRoundBetOf(address: string | Placeholder): SQL | undefined {
  return and(eq(oracleBets.userAddress, address), claimableRoundBet);
}

/**
 * A flag's bond on the escrow that its owner claims (decision 026): returned (with its reward) or
 * returned on a void, and its stake not yet paid by the contract (escrow_stake_payouts is the record).
 */
export const claimableEscrowBond = and(
  isNotNull(marketFlags.stakeId),
  sql`${marketFlags.bondStatus} in ('returned', 'returned_void')`,
  sql`${marketFlags.bondReturnAmount} > 0`,
  sql`not exists (select 1 from ${escrowStakePayouts} p where p.stake_id = ${marketFlags.stakeId})`,
);

/**
 * The GET claimable read (docs/decisions/022): each game's newest `limit` claimable bets with the
 * totals of all of them, in one statement per game. The totals are window aggregates, computed over
 * every row the condition matches before the limit applies. Named statements built once per handle.
 */
function claimableReads(db: DbOrTx) {
  const address = sql.placeholder('address');
  const limit = sql.placeholder('limit');
  return {
    markets: db
      .select({
        bet: bets,
        market: userBetMarketFields,
        ...escrowClaimFields,
        totalWei: sql`sum(${bets.payoutAmount}) over ()`.mapWith(BigInt),
        totalCount: sql`count(*) over ()`.mapWith(Number),
      })
      .from(bets)
      .innerJoin(markets, eq(markets.id, bets.marketId))
      // The bet's claim on the escrow, once its market's settlement is final (decision 026).
      .leftJoin(
        payoutLists,
        and(eq(payoutLists.predictionMarketId, bets.marketId), sql`${payoutLists.status} = 'settled'`),
      )
      .leftJoin(payoutListLeaves, eq(payoutListLeaves.stakeId, bets.stakeId))
      .where(claimableMarketBetOf(address))
      .orderBy(desc(bets.createdAt))
      .limit(limit)
      .prepare('claimable_market_bets'),
    oracle: db
      .select({
        bet: oracleBets,
        result: oracleRounds.result,
        // The bet's claim on the escrow, once its round's settlement is final (decision 026).
        ...escrowClaimFields,
        totalWei: sql`sum(${oracleBets.payoutAmount}) over ()`.mapWith(BigInt),
        totalCount: sql`count(*) over ()`.mapWith(Number),
      })
      .from(oracleBets)
      .innerJoin(oracleRounds, eq(oracleRounds.epoch, oracleBets.epoch))
      .leftJoin(
        payoutLists,
        and(eq(payoutLists.epoch, oracleBets.epoch), sql`${payoutLists.status} = 'settled'`),
      )
      .leftJoin(payoutListLeaves, eq(payoutListLeaves.stakeId, oracleBets.stakeId))
      .where(claimableRoundBetOf(address))
      .orderBy(desc(oracleBets.createdAt))
      .limit(limit)
      .prepare('claimable_round_bets'),
    bonds: db
      .select({
        flag: marketFlags,
        marketTitle: markets.title,
        ...escrowClaimFields,
        totalWei: sql`sum(${marketFlags.bondReturnAmount}) over ()`.mapWith(BigInt),
        totalCount: sql`count(*) over ()`.mapWith(Number),
      })
      .from(marketFlags)
      .innerJoin(markets, eq(markets.id, marketFlags.marketId))
      .leftJoin(
        payoutLists,
        and(eq(payoutLists.predictionMarketId, marketFlags.marketId), sql`${payoutLists.status} = 'settled'`),
      )
      .leftJoin(payoutListLeaves, eq(payoutListLeaves.stakeId, marketFlags.stakeId))
      .where(and(eq(marketFlags.address, address), claimableEscrowBond))
      .orderBy(desc(marketFlags.createdAt))
      .limit(limit)
      .prepare('claimable_escrow_bonds'),
  };
}

/** A stake's claim on the escrow as the claimable reads join it: its settled list and its leaf. */
const escrowClaimFields = {
  escrowMarketKey: payoutLists.marketKey,
  escrowRefund: payoutLists.refund,
  escrowClaimableAt: payoutLists.claimableAt,
  escrowPayout: payoutListLeaves.payout,
  escrowProof: payoutListLeaves.proof,
};

/** Built once per handle (docs/decisions/022): named statements, no query building per request. */
const claimableStatements = preparedPerHandle(claimableReads);

/** The claimable bets of one address (lower-case), at most `limit` of each game, and every one's totals. */
export async function readClaimableWithTotals(db: DbOrTx, address: string, limit: number) {
  const statements = claimableStatements(db);
  const marketRows = await statements.markets.execute({ address, limit });
  const roundRows = await statements.oracle.execute({ address, limit });
  const bondRows = await statements.bonds.execute({ address, limit });
  const totals = (rows: ReadonlyArray<{ totalWei: bigint; totalCount: number }>) => ({
    wei: rows[0]?.totalWei ?? 0n,
    count: rows[0]?.totalCount ?? 0,
  });
  return {
    markets: { rows: marketRows, ...totals(marketRows) },
    oracle: { rows: roundRows, ...totals(roundRows) },
    bonds: { rows: bondRows, ...totals(bondRows) },
  };
}

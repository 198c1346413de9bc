import { normalizeAddress } from '@pm/core/address';
import { CLAIMABLE_LIST_MAX, type ClaimableResponse } from '@pm/core/contract/users';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { bets, markets, oracleBets, oracleRounds } from '../db/schema.ts';
import { toUserBetDto } from '../markets/market-serializers.ts';
import { toWireOracleBet } from '../oracle/oracle-rounds.ts';

/**
 * What an address can claim now (spec §7 claimable reads, case-insensitive): settled market bets
 * that won (stake + profit) or were refunded (stake), and ended rounds' payouts, not yet in a payout.
 */
export async function readClaimable(db: DbOrTx, rawAddress: string): Promise<ClaimableResponse> {
  const address = normalizeAddress(rawAddress);
  const marketRows = await db
    .select({ bet: bets, market: markets })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId))
    .where(
      and(
        eq(bets.userAddress, address),
        isNull(bets.payoutId),
        eq(markets.status, 'settled'),
        sql`${bets.status} in ('won', 'refunded')`, // literal: bets_claimable_idx's predicate
      ),
    )
    .orderBy(desc(bets.createdAt))
    .limit(CLAIMABLE_LIST_MAX);
  const roundRows = await db
    .select({ bet: oracleBets, result: oracleRounds.result })
    .from(oracleBets)
    .innerJoin(oracleRounds, eq(oracleRounds.epoch, oracleBets.epoch))
    .where(
      and(
        eq(oracleBets.userAddress, address),
        isNull(oracleBets.payoutId),
        eq(oracleBets.claimed, false),
        sql`${oracleBets.payoutAmount} > 0`, // literal: oracle_bets_claimable_idx's predicate
      ),
    )
    .orderBy(desc(oracleBets.createdAt))
    .limit(CLAIMABLE_LIST_MAX);

  // The totals cover every claimable bet, not only the listed ones (review F18: lists are capped).
  const [totals] = await queryRows(
    db,
    sql`select
          (select coalesce(sum(b.amount + case when b.status = 'won' then coalesce(b.payout_amount, 0) else 0 end), 0)
             from bets b join markets m on m.id = b.market_id
            where b.user_address = ${address} and b.payout_id is null and m.status = 'settled'
              and b.status in ('won', 'refunded')) as markets_wei,
          (select count(*) from bets b join markets m on m.id = b.market_id
            where b.user_address = ${address} and b.payout_id is null and m.status = 'settled'
              and b.status in ('won', 'refunded')) as markets_count,
          (select coalesce(sum(payout_amount), 0) from oracle_bets
            where user_address = ${address} and payout_id is null and claimed = false and payout_amount > 0) as oracle_wei,
          (select count(*) from oracle_bets
            where user_address = ${address} and payout_id is null and claimed = false and payout_amount > 0) as oracle_count`,
    TotalsSchema,
  );
  const marketsWei = totals?.markets_wei ?? 0n;
  const oracleWei = totals?.oracle_wei ?? 0n;

  return {
    markets: {
      totalWei: marketsWei.toString(),
      count: totals?.markets_count ?? 0,
      bets: marketRows.map(({ bet, market }) => toUserBetDto(bet, market)),
    },
    oracle: {
      totalWei: oracleWei.toString(),
      count: totals?.oracle_count ?? 0,
      bets: roundRows.map(({ bet, result }) => toWireOracleBet(bet, result)),
    },
  };
}

const TotalsSchema = z.object({
  markets_wei: z.coerce.bigint(),
  markets_count: z.coerce.number(),
  oracle_wei: z.coerce.bigint(),
  oracle_count: z.coerce.number(),
});

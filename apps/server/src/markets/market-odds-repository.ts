import { MAX_ROW_ID } from '@pm/core/constants';
import type { MarketOddsPoint } from '@pm/core/contract/market-odds';
import { MARKET_ODDS_POINTS_MAX, yesShareBps } from '@pm/core/yes-share';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';

const OddsRowSchema = z.object({
  created_at: z.coerce.date(),
  yes_wei: z.string().regex(/^[0-9]+$/),
  no_wei: z.string().regex(/^[0-9]+$/),
  bets: z.coerce.number().int(),
});

/**
 * Market odds over time (docs/decisions/013): the pool after each bet, oldest first, from a running
 * sum (window function) over the market's bets (index bets_market_created_idx). Past `maxPoints` bets
 * the rows are bucketed by count: bet n is kept when it is the last of its bucket
 * (floor(n·max/N) steps up), so the newest bet, the current odds, is always the last point.
 * The share is computed here from the exact wei sums, with core's rounding.
 */
export async function listMarketOdds(
  db: DbOrTx,
  marketId: number,
  maxPoints: number = MARKET_ODDS_POINTS_MAX,
): Promise<MarketOddsPoint[]> {
  if (marketId > MAX_ROW_ID) return [];
  const rows = await queryRows(
    db,
    sql`with running as (
          select id, created_at,
            sum(case when prediction = 'YES' then amount else 0 end) over w as yes_wei,
            sum(case when prediction = 'NO' then amount else 0 end) over w as no_wei,
            row_number() over w as n,
            count(*) over () as total
          from bets
          where market_id = ${marketId}
          window w as (order by created_at, id rows between unbounded preceding and current row)
        )
        select created_at, yes_wei::text as yes_wei, no_wei::text as no_wei, n as bets
        from running
        where n = total or (n * ${maxPoints}) / total > ((n - 1) * ${maxPoints}) / total
        order by n`,
    OddsRowSchema,
  );
  return rows.map((row) => {
    const yesWei = BigInt(row.yes_wei);
    const noWei = BigInt(row.no_wei);
    return {
      at: row.created_at.toISOString(),
      // Every bet is > 0 wei (bets_amount_check), so the pool after one is never empty.
      yesShareBps: yesShareBps(yesWei, noWei) ?? 0,
      yesWei: yesWei.toString(),
      noWei: noWei.toString(),
      bets: row.bets,
    };
  });
}

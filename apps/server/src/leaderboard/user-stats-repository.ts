import { desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { userStats } from '../db/schema.ts';

// Leaderboard aggregates (docs/product.md §7): kept current as bets are placed and settled, in the same
// transaction, so GET /api/leaderboard is one indexed read. Winnings are profit: what a winning
// bet returned beyond its stake (payout_amount − amount in both bet tables). Refunds count as
// neither won nor settled. Each function takes the pool or the caller's transaction.

export async function recordBetPlaced(tx: DbOrTx, address: string): Promise<void> {
  await tx.execute(sql`
    insert into user_stats (address, total_bets) values (${address.toLowerCase()}, 1)
    on conflict (address) do update set total_bets = user_stats.total_bets + 1, updated_at = now()`);
}

/** Call once, in the settlement transaction, after the market's bets got their won/lost status. */
export async function recordMarketSettlement(tx: DbOrTx, marketId: number): Promise<void> {
  await tx.execute(sql`
    insert into user_stats (address, total_winnings, won_bets, settled_bets)
    select user_address,
           coalesce(sum(payout_amount - amount) filter (where status = 'won'), 0),
           count(*) filter (where status = 'won'),
           count(*) filter (where status in ('won', 'lost'))
    from bets where market_id = ${marketId}
    group by user_address
    on conflict (address) do update set
      total_winnings = user_stats.total_winnings + excluded.total_winnings,
      won_bets = user_stats.won_bets + excluded.won_bets,
      settled_bets = user_stats.settled_bets + excluded.settled_bets,
      updated_at = now()`);
}

/** Call once, in the transaction that ends the round, after its bets got their payout amounts. */
export async function recordRoundSettlement(tx: DbOrTx, epoch: number): Promise<void> {
  await tx.execute(sql`
    insert into user_stats (address, total_winnings, won_bets, settled_bets)
    select b.user_address,
           coalesce(sum(b.payout_amount - b.amount) filter (where b.position = r.result), 0),
           count(*) filter (where b.position = r.result),
           count(*)
    from oracle_bets b join oracle_rounds r on r.epoch = b.epoch
    where b.epoch = ${epoch}
      and r.result in ('bull', 'bear')
      -- a round with nobody on the winning side refunds everyone: not a loss for anyone
      and exists (select 1 from oracle_bets w where w.epoch = b.epoch and w.position = r.result)
    group by b.user_address
    on conflict (address) do update set
      total_winnings = user_stats.total_winnings + excluded.total_winnings,
      won_bets = user_stats.won_bets + excluded.won_bets,
      settled_bets = user_stats.settled_bets + excluded.settled_bets,
      updated_at = now()`);
}

/**
 * Takes back what recordMarketSettlement added for this market, before its bets turn to refunds (the
 * escrow refunded it on its own: docs/architecture.md "Following the chain"). Its won and lost bets
 * are read as settlement counted them: a won bet may be `claimed` since, and the market's result
 * names its side. A market settled as a refund added nothing and takes nothing back.
 */
export async function reverseMarketSettlement(tx: DbOrTx, marketId: number): Promise<void> {
  await tx.execute(sql`
    with counted as (
      select b.user_address,
             coalesce(sum(b.payout_amount - b.amount) filter (where x.won), 0) as winnings,
             count(*) filter (where x.won) as won,
             count(*) filter (where x.won or b.status = 'lost') as settled
      from bets b
      join markets m on m.id = b.market_id
      cross join lateral (select b.status in ('won', 'claimed') and b.prediction = m.result as won) x
      where b.market_id = ${marketId} and m.status = 'settled'
      group by b.user_address
    )
    update user_stats s set
      total_winnings = s.total_winnings - c.winnings,
      won_bets = s.won_bets - c.won,
      settled_bets = s.settled_bets - c.settled,
      updated_at = now()
    from counted c
    where s.address = c.user_address and (c.won > 0 or c.settled > 0)`);
}

/** Takes back what recordRoundSettlement added for this round, before it turns to refunds. */
export async function reverseRoundSettlement(tx: DbOrTx, epoch: number): Promise<void> {
  await tx.execute(sql`
    with counted as (
      select b.user_address,
             coalesce(sum(b.payout_amount - b.amount) filter (where b.position = r.result), 0) as winnings,
             count(*) filter (where b.position = r.result) as won,
             count(*) as settled
      from oracle_bets b join oracle_rounds r on r.epoch = b.epoch
      where b.epoch = ${epoch}
        and r.result in ('bull', 'bear')
        and exists (select 1 from oracle_bets w where w.epoch = b.epoch and w.position = r.result)
      group by b.user_address
    )
    update user_stats s set
      total_winnings = s.total_winnings - c.winnings,
      won_bets = s.won_bets - c.won,
      settled_bets = s.settled_bets - c.settled,
      updated_at = now()
    from counted c
    where s.address = c.user_address`);
}

/**
 * Top winners from the maintained `user_stats` aggregates: the first `limit` entries of
 * user_stats_leaderboard_idx (migration 0006), whose predicate the literal filter matches.
 */
export async function readLeaderboard(db: DbOrTx, limit: number) {
  return db
    .select()
    .from(userStats)
    .where(sql`${userStats.totalWinnings} > 0`)
    .orderBy(desc(userStats.totalWinnings), desc(userStats.wonBets))
    .limit(limit);
}

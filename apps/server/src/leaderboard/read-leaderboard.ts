import { desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { userStats } from '../db/schema.ts';

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

import { LEADERBOARD_LIMIT } from '@pm/core/constants';
import { ROUTES } from '@pm/core/contract/routes';
import { desc, gt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.ts';
import { userStats } from '../db/schema.ts';
import { defineRoute } from '../http/define-route.ts';

/**
 * Top winners from the maintained `user_stats` aggregates (spec §7 leaderboard): one indexed read,
 * not a scan of every bet per request. Settlement keeps the aggregates current.
 */
export function registerLeaderboardRoutes(app: FastifyInstance, { database }: AppDeps): void {
  defineRoute(app, ROUTES.leaderboard, async ({ query }) => {
    const rows = await database.db
      .select()
      .from(userStats)
      .where(gt(userStats.totalWinnings, 0n))
      .orderBy(desc(userStats.totalWinnings), desc(userStats.wonBets))
      .limit(query.limit ?? LEADERBOARD_LIMIT);
    return {
      status: 200,
      body: {
        entries: rows.map((row) => ({
          address: row.address,
          totalWinningsWei: row.totalWinnings.toString(),
          totalBets: row.totalBets,
          winRate: row.settledBets === 0 ? 0 : row.wonBets / row.settledBets,
        })),
      },
    };
  });
}

import { LEADERBOARD_LIMIT } from '@pm/core/constants';
import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import type { SerializedResponse } from '../http/http-caching.ts';
import { readLeaderboard } from './user-stats-repository.ts';

/**
 * Top winners from the maintained `user_stats` aggregates (docs/product.md §7 leaderboard): one indexed read,
 * not a scan of every bet per request. Settlement keeps the aggregates current.
 */
export function registerLeaderboardRoutes(app: FastifyInstance, { database }: AppDeps): void {
  // user_stats moves with every bet (markets: `markets`/`bets`, oracle: `rounds`) and settlement.
  const answers = app.responseCache.store<SerializedResponse>({
    topics: ['markets', 'bets', 'rounds'],
    maxEntries: 20,
  });
  defineRoute(
    app,
    ROUTES.leaderboard,
    async ({ query }) => {
      const rows = await readLeaderboard(database.db, query.limit ?? LEADERBOARD_LIMIT);
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
    },
    { cache: answers },
  );
}

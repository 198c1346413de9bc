import { normalizeAddress } from '@pm/core/address';
import {
  decodeHistoryCursor,
  encodeHistoryCursor,
  HISTORY_PAGE_DEFAULT,
} from '@pm/core/contract/history-query';
import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { listHistory, summarizeHistory } from './history-repository.ts';

/** A wallet's bets across both games and its P&L (docs/decisions/012). Public: anyone may look. */
export function registerHistoryRoutes(app: FastifyInstance, { database }: AppDeps): void {
  // Both kept per wallet until its events drop them (decision 032).
  defineRoute(
    app,
    ROUTES.userHistory,
    async ({ params, query }) => {
      const limit = query.limit ?? HISTORY_PAGE_DEFAULT;
      const rows = await listHistory(database.db, {
        address: normalizeAddress(params.address),
        game: query.game ?? 'all',
        status: query.status ?? 'all',
        // One more than shown tells whether a next page exists.
        limit: limit + 1,
        cursor: query.cursor === undefined ? undefined : decodeHistoryCursor(query.cursor),
      });
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      return {
        status: 200,
        body: {
          entries: shown.map((row) => row.entry),
          nextCursor: rows.length > limit && last ? encodeHistoryCursor(last.cursor) : null,
        },
      };
    },
    { walletRead: { read: 'history', address: ({ params }) => params.address } },
  );

  defineRoute(
    app,
    ROUTES.userSummary,
    async ({ params, query }) => ({
      status: 200,
      body: await summarizeHistory(database.db, {
        address: normalizeAddress(params.address),
        game: query.game ?? 'all',
      }),
    }),
    { walletRead: { read: 'summary', address: ({ params }) => params.address } },
  );
}

import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { defineRoute } from '../http/define-route.ts';
import type { SerializedResponse } from '../http/http-caching.ts';
import { toBetDto, toMarketDto } from './market-serializers.ts';
import type { MarketsService } from './markets-service.ts';

const MB = 1024 * 1024;

/** The markets endpoints of docs/api.md, each parsed in and out by its contract in @pm/core. */
export function registerMarketsRoutes(app: FastifyInstance, service: MarketsService): void {
  // A bet publishes `markets` and `bets`; settlement and status changes publish `markets`.
  const lists = app.responseCache.store<SerializedResponse>({
    topics: ['markets', 'bets'],
    maxEntries: 200,
    maxSize: 16 * MB,
    sizeOf: (response) => response.body.length,
  });
  // A market's bets show `claimed` once their payout is confirmed (`payouts`).
  const details = app.responseCache.store<SerializedResponse>({
    topics: ['markets', 'bets', 'payouts'],
    maxEntries: 500,
    maxSize: 32 * MB,
    sizeOf: (response) => response.body.length,
  });

  defineRoute(
    app,
    ROUTES.listMarkets,
    async ({ query }) => ({ status: 200, body: await service.listMarkets(query) }),
    { cache: lists },
  );

  defineRoute(
    app,
    ROUTES.getMarket,
    async ({ params }) => {
      const detail = await service.getMarket(params.id);
      if (!detail) throw new AppError('MARKET_NOT_FOUND');
      return { status: 200, body: detail };
    },
    { cache: details },
  );

  // A market's bets page by page (docs/decisions/016), dropped like the detail they continue.
  // Filtered by ?address= it is a wallet's own read: private, never from this cache.
  const betPages = app.responseCache.store<SerializedResponse>({
    topics: ['markets', 'bets', 'payouts'],
    maxEntries: 500,
    maxSize: 16 * MB,
    sizeOf: (response) => response.body.length,
  });
  defineRoute(
    app,
    ROUTES.marketBets,
    async ({ params, query }) => {
      const page = await service.listMarketBets(params.id, query);
      if (!page) throw new AppError('MARKET_NOT_FOUND');
      return { status: 200, body: page };
    },
    { cache: betPages, isPrivate: (request) => hasQueryField(request.query, 'address') },
  );

  defineRoute(app, ROUTES.marketOdds, async ({ params }) => {
    const odds = await service.getMarketOdds(params.id);
    if (!odds) throw new AppError('MARKET_NOT_FOUND');
    return { status: 200, body: odds };
  });

  defineRoute(
    app,
    ROUTES.createMarket,
    async ({ body }) => {
      const outcome = await service.createMarket(body);
      if (outcome.status === 'pending') {
        return { status: 202, body: { status: 'pending', txHash: outcome.txHash } };
      }
      const { market, bet } = outcome.value;
      return { status: 201, body: { market: toMarketDto(market), bet: toBetDto(bet) } };
    },
    { writesWallet: ({ body }) => body.creatorAddress },
  );

  defineRoute(
    app,
    ROUTES.joinMarket,
    async ({ params, body }) => {
      const outcome = await service.joinMarket(params.id, body);
      if (outcome.status === 'pending') {
        return { status: 202, body: { status: 'pending', txHash: outcome.txHash } };
      }
      const { bet, market } = outcome.value;
      return { status: 201, body: { bet: toBetDto(bet), market: toMarketDto(market) } };
    },
    { writesWallet: ({ body }) => body.userAddress },
  );

  // A wallet's own read, kept per wallet until its events drop it (decision 032).
  defineRoute(
    app,
    ROUTES.userBets,
    async ({ params, query }) => ({
      status: 200,
      body: await service.listUserBets(params.address, query),
    }),
    { walletRead: { read: 'bets', address: ({ params }) => params.address } },
  );
}

/** Any `field` in the query string at all, valid or not. */
function hasQueryField(query: unknown, field: string): boolean {
  return typeof query === 'object' && query !== null && field in query;
}

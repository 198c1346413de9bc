import { PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import { ErrorBodySchema } from '@pm/core/contract/errors';
import type { RouteSpec } from '@pm/core/contract/routes';
import { ROUTES } from '@pm/core/contract/routes';
import { DevSetPriceBodySchema, type PriceResponse, PriceResponseSchema } from '@pm/core/contract/vault';
import { formatUsdPrice, parseUsdPrice } from '@pm/core/price';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { AppError } from '../errors/app-error.ts';
import { defineRoute } from '../http/define-route.ts';
import type { CoinFeeds } from './create-coin-feeds.ts';
import type { DevFeedWriter } from './dev-feed-writer.ts';
import type { PriceSampler } from './price-sampler.ts';
import { SAMPLE_EVERY_MS } from './price-sampler.ts';
import { latestPriceSample, type PriceSample, priceHistory } from './price-samples-repository.ts';

const HISTORY_WINDOW_MS = 3600_000;
/** `?since=` reaches back at most this far: samples are kept 24 h (price-sampler.ts). */
const HISTORY_MAX_WINDOW_MS = 24 * 3600_000;
/** ~120 points for an hour; a longer window keeps about as many points with wider buckets. */
const HISTORY_POINTS = 120;
const HISTORY_MIN_BUCKET_S = 30;
/** No new sample for three intervals: the feed is failing and what we serve is its last good value. */
const STALE_AFTER_MS = 3 * SAMPLE_EVERY_MS;
/** 10^38: the first 1e8-scaled price that does not fit price_samples.price, NUMERIC(38,0). */
const MAX_STORED_PRICE = 10n ** 38n;

/** Dev only: registered when the chain is local (31337), never in production. */
const DEV_SET_PRICE_ROUTE = {
  method: 'POST',
  path: '/api/dev/price',
  summary:
    "Set a coin's USD price, BNB by default: its dev feed's next round or the simulated walk (local chain only)",
  body: DevSetPriceBodySchema,
  responses: { 200: PriceResponseSchema, 409: ErrorBodySchema, 503: ErrorBodySchema },
} as const satisfies RouteSpec;

/**
 * GET /api/prices, /api/prices/:symbol and its history, read from the stored samples: however many
 * clients ask, each upstream feed is read once per interval (by the sampler), not once per client.
 */
export function registerPriceRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  prices: { coins: CoinFeeds; sampler: PriceSampler; devFeedWriter?: DevFeedWriter | undefined },
): void {
  const { database, clock, config } = deps;
  const source = prices.coins.source;

  const toResponse = (symbol: PriceSymbol, sample: PriceSample, nowMs: number): PriceResponse => ({
    symbol,
    usd: formatUsdPrice(sample.price, 8),
    source,
    updatedAt: sample.updatedAt.toISOString(),
    stale: nowMs - sample.sampledAt.getTime() > STALE_AFTER_MS,
  });

  // The sample, not the answer, is cached: `stale` and the age check follow the clock. Each new
  // sample is announced on `prices`. No sample at all is an error, and errors are not kept.
  const latestSamples = app.responseCache.store<PriceSample>({
    topics: ['prices'],
    maxEntries: PRICE_SYMBOLS.length,
  });
  const readLatest = (symbol: PriceSymbol, request: Parameters<typeof latestSamples.read>[2]) =>
    latestSamples.read(
      symbol,
      async () => {
        const sample = await latestPriceSample(database.db, source, symbol);
        if (!sample) throw new AppError('PRICE_UNAVAILABLE');
        return sample;
      },
      request,
    );
  /** A price older than ORACLE_MAX_AGE_S is no price (docs/architecture.md "Oracle rounds"). */
  const isFresh = (sample: PriceSample, nowMs: number) =>
    sample.updatedAt.getTime() >= nowMs - config.prices.maxAgeS * 1000;

  defineRoute(app, ROUTES.prices, async (_input, request) => {
    const nowMs = clock.now().getTime();
    const list: PriceResponse[] = [];
    // Coins without a fresh price are left out (each coin's own endpoint answers 503 for them).
    for (const symbol of PRICE_SYMBOLS) {
      const sample = await readLatest(symbol, request).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'PRICE_UNAVAILABLE') return null;
        throw error;
      });
      if (sample && isFresh(sample, nowMs)) list.push(toResponse(symbol, sample, nowMs));
    }
    return { status: 200, body: { prices: list } };
  });

  defineRoute(app, ROUTES.price, async ({ params }, request) => {
    const nowMs = clock.now().getTime();
    const sample = await readLatest(params.symbol, request);
    if (!isFresh(sample, nowMs)) throw new AppError('PRICE_UNAVAILABLE');
    return { status: 200, body: toResponse(params.symbol, sample, nowMs) };
  });

  defineRoute(app, ROUTES.priceHistory, async ({ params, query }) => {
    const nowMs = clock.now().getTime();
    const requested = query.since ? new Date(query.since).getTime() : nowMs - HISTORY_WINDOW_MS;
    // At most 24 h back; a `since` in the future is an empty history, not an error.
    const sinceMs = Math.max(requested, nowMs - HISTORY_MAX_WINDOW_MS);
    const windowS = Math.max(0, (nowMs - sinceMs) / 1000);
    const bucketS = Math.max(HISTORY_MIN_BUCKET_S, Math.ceil(windowS / HISTORY_POINTS));
    const points = await priceHistory(database.db, {
      source,
      symbol: params.symbol,
      since: new Date(sinceMs),
      bucketS,
    });
    return {
      status: 200,
      body: {
        symbol: params.symbol,
        points: points.map((point) => ({ usd: formatUsdPrice(point.price, 8), at: point.at.toISOString() })),
      },
    };
  });

  // The e2e suite and local demos decide the outcome of a round or a price market by setting a
  // coin's price: the next round of its dev feed on the local chain, or the in-process walk.
  if (config.chain.isLocal) {
    defineRoute(app, DEV_SET_PRICE_ROUTE, async ({ body }) => {
      const symbol = body.symbol ?? 'BNB';
      const simulated = prices.coins.simulated.get(symbol);
      const writer = prices.devFeedWriter;
      if (!simulated && !writer) {
        throw new AppError(
          'BAD_REQUEST',
          "The price can only be set with the local chain's dev feeds or PRICE_FEED=simulated",
          { status: 409 },
        );
      }
      const price = parseUsdPrice(body.usd);
      // price_samples.price is NUMERIC(38,0) of 1e8-scaled USD, and the feed refuses 0: refuse here
      // what would otherwise fail as a 500 further down (found by test/fuzz).
      if (price <= 0n || price >= MAX_STORED_PRICE) {
        throw new AppError('VALIDATION_FAILED', 'usd: must be above 0 and below 10^30');
      }
      if (writer) await writer.setPrice(symbol, price, { hold: body.hold ?? true });
      else simulated?.setPrice(price, { hold: body.hold ?? true });
      const reading = await prices.sampler.sampleNow(symbol);
      const sample = await latestPriceSample(database.db, source, symbol);
      if (!reading || !sample) throw new AppError('PRICE_UNAVAILABLE');
      return { status: 200, body: toResponse(symbol, sample, clock.now().getTime()) };
    });
  }
}

import { ErrorBodySchema } from '@pm/core/contract/errors';
import type { RouteSpec } from '@pm/core/contract/routes';
import { ROUTES } from '@pm/core/contract/routes';
import { DevSetPriceBodySchema, type PriceResponse, PriceResponseSchema } from '@pm/core/contract/vault';
import { formatUsdPrice, parseUsdPrice } from '@pm/core/price';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { AppError } from '../http/app-error.ts';
import { defineRoute } from '../http/define-route.ts';
import type { PriceFeed } from './price-feed.ts';
import type { PriceSampler } from './price-sampler.ts';
import { SAMPLE_EVERY_MS } from './price-sampler.ts';
import { latestPriceSample, type PriceSample, priceHistory } from './price-samples.ts';
import type { SimulatedFeed } from './simulated-feed.ts';

const HISTORY_WINDOW_MS = 3600_000;
const HISTORY_BUCKET_S = 30;
/** No new sample for three intervals: the feed is failing and what we serve is its last good value. */
const STALE_AFTER_MS = 3 * SAMPLE_EVERY_MS;
/** 10^38: the first 1e8-scaled price that does not fit price_samples.price, NUMERIC(38,0). */
const MAX_STORED_PRICE = 10n ** 38n;

/** Dev only: registered when the chain is local (31337), never in production. */
const DEV_SET_PRICE_ROUTE = {
  method: 'POST',
  path: '/api/dev/price',
  summary: 'Set the simulated BNB/USD price (local chain only)',
  body: DevSetPriceBodySchema,
  responses: { 200: PriceResponseSchema, 409: ErrorBodySchema, 503: ErrorBodySchema },
} as const satisfies RouteSpec;

/**
 * GET /api/prices/BNB and its history, read from the stored samples: however many clients ask,
 * the upstream feed is read once per interval (by the sampler), not once per client.
 */
export function registerPriceRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  prices: { feed: PriceFeed; sampler: PriceSampler; simulated: SimulatedFeed | null },
): void {
  const { database, clock, config } = deps;
  const source = prices.feed.source;

  const toResponse = (sample: PriceSample, nowMs: number): PriceResponse => ({
    symbol: 'BNB',
    usd: formatUsdPrice(sample.price, 8),
    source,
    updatedAt: sample.updatedAt.toISOString(),
    stale: nowMs - sample.sampledAt.getTime() > STALE_AFTER_MS,
  });

  // The sample, not the answer, is cached: `stale` and the age check follow the clock. Each new
  // sample is announced on `prices`. No sample at all is an error, and errors are not kept.
  const latestSample = app.responseCache.store<PriceSample>({ topics: ['prices'], maxEntries: 1 });
  const readLatestSample = async () => {
    const sample = await latestPriceSample(database.db, source);
    if (!sample) throw new AppError('PRICE_UNAVAILABLE');
    return sample;
  };

  defineRoute(app, ROUTES.price, async (_input, request) => {
    const nowMs = clock.now().getTime();
    const sample = await latestSample.read('latest', readLatestSample, request);
    if (sample.updatedAt.getTime() < nowMs - config.prices.maxAgeS * 1000) {
      throw new AppError('PRICE_UNAVAILABLE');
    }
    return { status: 200, body: toResponse(sample, nowMs) };
  });

  defineRoute(app, ROUTES.priceHistory, async () => {
    const since = new Date(clock.now().getTime() - HISTORY_WINDOW_MS);
    const points = await priceHistory(database.db, { source, since, bucketS: HISTORY_BUCKET_S });
    return {
      status: 200,
      body: {
        symbol: 'BNB',
        points: points.map((point) => ({ usd: formatUsdPrice(point.price, 8), at: point.at.toISOString() })),
      },
    };
  });

  // The e2e suite and local demos decide the outcome of a round by setting the simulated price.
  if (config.chain.isLocal) {
    defineRoute(app, DEV_SET_PRICE_ROUTE, async ({ body }) => {
      if (!prices.simulated) {
        throw new AppError('BAD_REQUEST', 'The price can only be set when PRICE_FEED=simulated', {
          status: 409,
        });
      }
      const price = parseUsdPrice(body.usd);
      // price_samples.price is NUMERIC(38,0) of 1e8-scaled USD, and the feed refuses 0: refuse here
      // what would otherwise fail as a 500 further down (found by test/fuzz).
      if (price <= 0n || price >= MAX_STORED_PRICE) {
        throw new AppError('VALIDATION_FAILED', 'usd: must be above 0 and below 10^30');
      }
      prices.simulated.setPrice(price, { hold: body.hold ?? true });
      const reading = await prices.sampler.sampleNow();
      const sample = await latestPriceSample(database.db, source);
      if (!reading || !sample) throw new AppError('PRICE_UNAVAILABLE');
      return { status: 200, body: toResponse(sample, clock.now().getTime()) };
    });
  }
}

import type { PriceSymbol } from '@pm/core/constants';
import type { CreatePriceMarketBody } from '@pm/core/contract/markets';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { escrowTargetOf } from '../escrow/escrow-target.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createPaymentContext } from '../payments/create-payment-context.ts';
import type { PriceFeed, PriceSource } from '../prices/price-feed.ts';
import { createPriceMarket } from './create-price-market.ts';
import { createPriceSettlementJob } from './price-settlement-job.ts';

/**
 * Price Oracle markets (docs/decisions/020): created through POST /api/markets (the markets
 * module hands a price body here), settled from the prices module's samples by their own job, or
 * from the coin's feed's own round when no sample decided the deadline.
 */
export function createPriceMarketsModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
  prices: {
    source: PriceSource;
    feedLabel: (symbol: CreatePriceMarketBody['targetSymbol']) => string;
    feeds: ReadonlyMap<PriceSymbol, PriceFeed>;
  },
) {
  const { config, clock } = deps;
  const db = deps.database.db;
  const payments = createPaymentContext(deps);
  const priceDeps = {
    db,
    payments,
    clock,
    prices: { source: prices.source, feedLabel: prices.feedLabel, maxAgeS: config.prices.maxAgeS },
  };
  const jobs: Job[] = [
    createPriceSettlementJob({
      db,
      clock,
      logger,
      source: prices.source,
      maxAgeS: config.prices.maxAgeS,
      resolutionTimeoutS: config.ai.resolutionTimeoutS,
      feeBps: config.fees.marketBps,
      feeds: prices.feeds,
      feedWaitS: config.prices.feedWaitS,
      metrics: deps.metrics,
      escrow: escrowTargetOf(config),
    }),
  ];
  return {
    createPriceMarket: (body: CreatePriceMarketBody, options?: { stakeId?: bigint }) =>
      createPriceMarket(priceDeps, body, options),
    jobs,
  };
}

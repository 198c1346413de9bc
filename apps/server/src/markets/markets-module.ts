import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Config } from '../config/config.ts';
import type { MarketDeposits } from '../escrow/deposits/reconcile-escrow-job.ts';
import { disputeBondReaderOf } from '../escrow/settlements/dispute-bond.ts';
import { createPaymentContext } from '../payments/create-payment-context.ts';
import type { PendingPaymentHandler } from '../payments/pending-payments-job.ts';
import { OPERATOR_RESOLVER, PROMPT_VERSION } from '../resolution/resolver-prompt.ts';
import { ANALYZE_PER_ADDRESS_PER_MINUTE, createAnalyzeLimits } from './analyze-limits.ts';
import type { MarketsServiceDeps, ResolverIdentity } from './create-market.ts';
import { registerMarketAnalyzeRoutes } from './market-analyze-routes.ts';
import { createMarketDeposits, createMarketPaymentHandlers } from './market-payment-handlers.ts';
import { registerMarketsRoutes } from './markets-routes.ts';
import { createMarketsService, type MarketsService, type MarketsServiceOptions } from './markets-service.ts';
import { seedDemoMarkets } from './seed-demo-markets.ts';

export type MarketsModule = {
  routes: AppFeature;
  paymentHandlers: {
    market_create: PendingPaymentHandler;
    market_bet: PendingPaymentHandler;
  };
  /** Creations and bets escrow reconciliation finds unposted (decision 026). */
  deposits: MarketDeposits;
  seedDemoData: () => Promise<void>;
  service: MarketsService;
};

/**
 * AI-judged YES/NO markets (docs/product.md §2 /predictions, /market/{id}, /my-bets): created,
 * joined, listed and analyzed, wired from the app's deps. What happens after the deadline is the
 * settlement module's (apps/server/src/settlement/).
 */
export function createMarketsModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
  options: {
    createPriceMarket?: MarketsServiceDeps['createPriceMarket'];
    readResolutionRecord: MarketsServiceOptions['readResolutionRecord'];
  },
): MarketsModule {
  const { config, clock } = deps;
  const db = deps.database.db;
  const payments = createPaymentContext(deps);
  const service = createMarketsService({
    payments,
    clock,
    resolver: resolverIdentity(config),
    createPriceMarket: options.createPriceMarket,
    disputeBond: disputeBondReaderOf(deps.chain, config.escrow.address),
    readResolutionRecord: options.readResolutionRecord,
  });
  const analyzeLimits = createAnalyzeLimits({
    clock,
    perMinute: ANALYZE_PER_ADDRESS_PER_MINUTE,
    perDay: config.ai.analyzeDailyLimit,
  });
  const analyzer = {
    clock,
    logger,
    limits: analyzeLimits,
    ai: config.ai.baseUrl
      ? {
          baseUrl: config.ai.baseUrl,
          apiKey: config.ai.apiKey,
          timeoutMs: config.ai.timeoutMs,
          model: config.ai.models[0] ?? config.ai.model,
        }
      : null,
  };
  return {
    routes: (app) => {
      registerMarketsRoutes(app, service);
      registerMarketAnalyzeRoutes(app, analyzer);
    },
    paymentHandlers: createMarketPaymentHandlers(service),
    deposits: createMarketDeposits(service, { db, chainId: config.chain.id }),
    seedDemoData: () => seedDemoMarkets({ config, db, service, logger }),
    service,
  };
}

/**
 * The judge a market gets at creation: the configured model, or an operator when no AI is set.
 * With a second opinion (AI_MODELS), every model, comma-separated: bettors see what will judge
 * (decision 019), and the settlement job asks exactly these.
 */
function resolverIdentity(config: Config): ResolverIdentity {
  return {
    model: config.ai.baseUrl ? config.ai.models.join(',') : OPERATOR_RESOLVER,
    promptVersion: PROMPT_VERSION,
  };
}

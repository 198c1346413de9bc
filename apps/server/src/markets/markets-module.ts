import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Config } from '../config/config.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createPaymentContext } from '../payments/create-payment-context.ts';
import type { PendingPaymentHandler } from '../payments/pending-payments-job.ts';
import { createAiResolver } from '../resolution/ai-resolver.ts';
import { OPERATOR_RESOLVER, PROMPT_VERSION } from '../resolution/resolver-prompt.ts';
import type { MarketsServiceDeps, ResolverIdentity } from './create-market.ts';
import { registerMarketOperatorRoutes } from './market-operator-routes.ts';
import { createMarketPaymentHandlers } from './market-payment-handlers.ts';
import { registerMarketReviewRoutes } from './market-review-routes.ts';
import { registerMarketsRoutes } from './markets-routes.ts';
import { createMarketsService, type MarketsService } from './markets-service.ts';
import { seedDemoMarkets } from './seed-demo-markets.ts';
import { createSettlementJob } from './settlement-job.ts';

export type MarketsModule = {
  routes: AppFeature;
  jobs: Job[];
  paymentHandlers: { market_create: PendingPaymentHandler; market_bet: PendingPaymentHandler };
  seedDemoData: () => Promise<void>;
  service: MarketsService;
};

/** AI-judged YES/NO markets (docs/product.md §2 /predictions, /market/{id}, /my-bets), wired from the app's deps. */
export function createMarketsModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
  options: { createPriceMarket?: MarketsServiceDeps['createPriceMarket'] } = {},
): MarketsModule {
  const { config, clock } = deps;
  const db = deps.database.db;
  const payments = createPaymentContext(deps);
  const service = createMarketsService({
    payments,
    clock,
    resolver: resolverIdentity(config),
    createPriceMarket: options.createPriceMarket,
  });
  const resolver = config.ai.baseUrl
    ? createAiResolver({
        baseUrl: config.ai.baseUrl,
        apiKey: config.ai.apiKey,
        timeoutMs: config.ai.timeoutMs,
      })
    : null;
  const settlement = createSettlementJob({
    db,
    clock,
    logger,
    resolver,
    minConfidence: config.ai.minConfidence,
    maxAttempts: config.ai.maxAttempts,
    feeBps: config.fees.marketBps,
    leaseMs: config.ai.timeoutMs + 60_000,
    resolutionTimeoutS: config.ai.resolutionTimeoutS,
    reviewWindowS: config.ai.reviewWindowS,
  });
  return {
    routes: (app) => {
      registerMarketsRoutes(app, service);
      registerMarketOperatorRoutes(app, deps);
      registerMarketReviewRoutes(app, deps);
    },
    jobs: [settlement],
    paymentHandlers: createMarketPaymentHandlers(service),
    seedDemoData: () => seedDemoMarkets({ config, db, service, logger }),
    service,
  };
}

/** The judge a market gets at creation: the configured model, or an operator when no AI is set. */
function resolverIdentity(config: Config): ResolverIdentity {
  return { model: config.ai.baseUrl ? config.ai.model : OPERATOR_RESOLVER, promptVersion: PROMPT_VERSION };
}

import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Config } from '../config/config.ts';
import { createEvidenceGatherer } from '../evidence/evidence-gatherer.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createPaymentContext } from '../payments/create-payment-context.ts';
import type { PendingPaymentHandler } from '../payments/pending-payments-job.ts';
import { createAiResolver } from '../resolution/ai-resolver.ts';
import { OPERATOR_RESOLVER, PROMPT_VERSION } from '../resolution/resolver-prompt.ts';
import { ANALYZE_PER_ADDRESS_PER_MINUTE, createAnalyzeLimits } from './analyze-limits.ts';
import type { MarketsServiceDeps, ResolverIdentity } from './create-market.ts';
import { registerMarketAnalyzeRoutes } from './market-analyze-routes.ts';
import { registerMarketOperatorRoutes } from './market-operator-routes.ts';
import { createMarketPaymentHandlers } from './market-payment-handlers.ts';
import { registerMarketReviewRoutes } from './market-review-routes.ts';
import { registerMarketsRoutes } from './markets-routes.ts';
import { createMarketsService, type MarketsService } from './markets-service.ts';
import { seedDemoMarkets } from './seed-demo-markets.ts';
import { createSettlementJobs, judgingLeaseMs } from './settlement-job.ts';

export type MarketsModule = {
  routes: AppFeature;
  jobs: Job[];
  paymentHandlers: {
    market_create: PendingPaymentHandler;
    market_bet: PendingPaymentHandler;
    market_flag: PendingPaymentHandler;
  };
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
    flagBond: config.flagBond,
  });
  const resolver = config.ai.baseUrl
    ? createAiResolver({
        baseUrl: config.ai.baseUrl,
        apiKey: config.ai.apiKey,
        timeoutMs: config.ai.timeoutMs,
      })
    : null;
  const settlement = createSettlementJobs({
    db,
    clock,
    logger,
    resolver,
    gatherer: resolver ? evidenceGatherer(config, clock) : null,
    minConfidence: config.ai.minConfidence,
    minSources: config.evidence.minSources,
    maxAttempts: config.ai.maxAttempts,
    feeBps: config.fees.marketBps,
    leaseMs: judgingLeaseMs({ aiTimeoutMs: config.ai.timeoutMs, models: config.ai.models.length }),
    resolutionTimeoutS: config.ai.resolutionTimeoutS,
    reviewWindowS: config.ai.reviewWindowS,
    metrics: deps.metrics,
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
      registerMarketOperatorRoutes(app, deps);
      registerMarketReviewRoutes(app, service);
    },
    jobs: settlement,
    paymentHandlers: createMarketPaymentHandlers(service),
    seedDemoData: () => seedDemoMarkets({ config, db, service, logger }),
    service,
  };
}

/** What v3 markets are judged on (issue 18): the creator's URLs, then the search engine's results. */
function evidenceGatherer(config: Config, clock: AppDeps['clock']) {
  const { evidence } = config;
  return createEvidenceGatherer(
    {
      search: evidence.searchProvider
        ? { provider: evidence.searchProvider, url: evidence.searchUrl, apiKey: evidence.searchApiKey }
        : null,
      maxPages: evidence.maxPages,
      allowHosts: [...evidence.allowHosts],
    },
    // Server time decides (docs/architecture.md): a page's fetchedAt follows the chain clock in dev.
    { now: () => clock.now() },
  );
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

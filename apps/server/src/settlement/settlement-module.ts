import { FlagMarketBodySchema } from '@pm/core/contract/review';
import type { FastifyBaseLogger } from 'fastify';
import type { Address, Hex } from 'viem';
import { z } from 'zod';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Config } from '../config/config.ts';
import { MARKET_STATE, readEscrowMarket } from '../escrow/escrow-chain.ts';
import { escrowTargetOf } from '../escrow/escrow-target.ts';
import { createEvidenceGatherer } from '../evidence/evidence-gatherer.ts';
import type { Job } from '../jobs/job-runner.ts';
import type { ResolutionRecord } from '../markets/markets-service.ts';
import { createPaymentContext } from '../payments/create-payment-context.ts';
import type { PendingPaymentHandler } from '../payments/pending-payments-job.ts';
import { createAiResolver } from '../resolution/ai-resolver.ts';
import { type FlagMarketDeps, flagMarket } from './flag-market.ts';
import { registerMarketOperatorRoutes } from './market-operator-routes.ts';
import { registerMarketReviewRoutes } from './market-review-routes.ts';
import { readResolutionRecord } from './read-resolution-record.ts';
import { createSettlementJobs, judgingLeaseMs } from './settlement-job.ts';

export type SettlementModule = {
  routes: AppFeature;
  jobs: Job[];
  paymentHandlers: { market_flag: PendingPaymentHandler };
  /** A market's timeline and evidence, for its page (the markets module's getMarket). */
  readResolutionRecord: (marketId: number) => Promise<ResolutionRecord>;
};

const StoredFlagSchema = z.object({ marketId: z.number().int().positive(), body: FlagMarketBodySchema });

/**
 * A market's resolution lifecycle after its deadline (docs/architecture.md "Markets"):
 * judging, the review window with its flags, settling, and the operator's verdicts. Markets are
 * created, joined and listed by the markets module; price markets settle through settleMarket too.
 */
export function createSettlementModule(deps: AppDeps, logger: FastifyBaseLogger): SettlementModule {
  const { config, clock } = deps;
  const db = deps.database.db;
  const flagDeps: FlagMarketDeps = { payments: createPaymentContext(deps), clock };
  const escrow = escrowTargetOf(config);
  const resolver = config.ai.baseUrl
    ? createAiResolver({
        baseUrl: config.ai.baseUrl,
        apiKey: config.ai.apiKey,
        timeoutMs: config.ai.timeoutMs,
      })
    : null;
  const jobs = createSettlementJobs({
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
    escrow,
    ...(escrow
      ? {
          readChainTime: () => readChainTime(deps.chain),
          stillPendingOnChain: (key: string, root: string) =>
            stillPendingOnChain(deps.chain, escrow.address as Address, key as Hex, root),
        }
      : {}),
  });
  return {
    routes: (app) => {
      registerMarketOperatorRoutes(app, deps);
      registerMarketReviewRoutes(app, flagDeps);
    },
    jobs,
    paymentHandlers: {
      // A flag answered 202 (bond valid, not final yet), replayed through the same function once
      // the pending-payments job finds the bond final.
      async market_flag(request) {
        const { marketId, body } = StoredFlagSchema.parse(request);
        return (await flagMarket(flagDeps, marketId, body)).status;
      },
    },
    readResolutionRecord: (marketId) => readResolutionRecord(db, marketId),
  };
}

/** The latest block's time: the clock the escrow's dispute windows run on (docs/decisions/034). */
async function readChainTime(chain: AppDeps['chain']): Promise<Date> {
  const block = await chain.getBlock({ blockTag: 'latest' });
  return new Date(Number(block.timestamp) * 1000);
}

/** Whether the escrow holds `key`'s settlement with `root` still pending (not sent back by a dispute). */
async function stillPendingOnChain(
  chain: AppDeps['chain'],
  escrow: Address,
  key: Hex,
  root: string,
): Promise<boolean> {
  const market = await readEscrowMarket(chain, escrow, key);
  return market.state === MARKET_STATE.settled && market.payoutRoot.toLowerCase() === root.toLowerCase();
}

/**
 * What v3 markets are judged on (docs/decisions/018): the creator's URLs, then the search engine's
 * results.
 */
function evidenceGatherer(config: Config, clock: AppDeps['clock']) {
  const { evidence } = config;
  return createEvidenceGatherer(
    {
      search: evidence.searchProvider
        ? { provider: evidence.searchProvider, url: evidence.searchUrl, apiKey: evidence.searchApiKey }
        : null,
      maxPages: evidence.maxPages,
      maxCreatorPages: evidence.maxCreatorPages,
      allowHosts: [...evidence.allowHosts],
      pageParseMs: evidence.pageParseMs,
    },
    // Server time decides (docs/architecture.md): a page's fetchedAt follows the chain clock in dev.
    { now: () => clock.now() },
  );
}

import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import type { EscrowTarget } from '../escrow/escrow-target.ts';
import type { EvidenceGatherer } from '../evidence/evidence-types.ts';
import type { Job } from '../jobs/job-runner.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { publish } from '../realtime/outbox-repository.ts';
import type { MarketResolver } from '../resolution/ai-resolver.ts';
import { JUDGED_PROMPT_VERSIONS, OPERATOR_RESOLVER } from '../resolution/resolver-prompt.ts';
import { type JudgeDeps, judgeMarket } from './judge-market.ts';
import { settleReviewedMarkets } from './review-window.ts';
import { settleMarket } from './settle-market.ts';
import {
  type ClaimedMarket,
  claimMarketToJudge,
  closeExpiredMarkets,
  listOverdueMarketIds,
} from './settlement-repository.ts';

// docs/architecture.md "Markets": at the deadline active → settling; the resolver decides; retries with backoff;
// void + refund after the budget. docs/architecture.md "Scale": safe on every instance at once — closing is one
// conditional UPDATE, and a market is claimed for judging with FOR UPDATE SKIP LOCKED plus a lease.

export type SettlementJobDeps = {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Null when no AI is configured: settling markets then wait for an operator (ops CLI). */
  resolver: MarketResolver | null;
  /** What v3 markets are judged on; null: no pages, so they never settle by AI. */
  gatherer?: EvidenceGatherer | null;
  minConfidence: number;
  /** EVIDENCE_MIN_SOURCES (decision 019); default 2. */
  minSources?: number;
  maxAttempts: number;
  feeBps: number;
  /** How long a claimed market stays invisible to other instances while it is being judged. */
  leaseMs: number;
  /** Seconds after its deadline a market may wait for a verdict before it is voided and refunded. */
  resolutionTimeoutS: number;
  /**
   * Seconds a proposed verdict stays open to flags before it settles; 0 settles at once
   * (docs/decisions/011).
   */
  reviewWindowS: number;
  /** Counts each market settled (bnbpredict_resolutions_total), once committed. */
  metrics?: Pick<Metrics, 'countResolution'>;
  /** The server's escrow: markets whose stakes are on it settle there too (none: no escrow). */
  escrow?: EscrowTarget | null;
  /**
   * The chain's time (the latest block's): with an escrow, review windows end by it
   * (docs/decisions/034 "Settlement"). Read once per run; required with an escrow.
   */
  readChainTime?: () => Promise<Date>;
  /** Whether the escrow still holds a market's pending settlement (its key and payout root). */
  stillPendingOnChain?: (marketKey: string, root: string) => Promise<boolean>;
};

/** At most this many markets are judged per run; the rest wait for the next tick. */
const MARKETS_PER_RUN = 10;
/** Markets judged at once per instance: gathering is mostly waiting on the network. */
const JUDGING_CONCURRENCY = 3;
/** The whole gathering of one attempt (search and every page) must end within this. */
const GATHER_TIMEOUT_MS = 120_000;

/**
 * How long a claimed market is hidden from other instances: the gathering, then every model in
 * turn at worst, plus a margin. If this instance dies, another takes it up after the lease.
 */
export function judgingLeaseMs(input: { aiTimeoutMs: number; models: number }): number {
  return GATHER_TIMEOUT_MS + input.aiTimeoutMs * Math.max(1, input.models) + 60_000;
}

/**
 * The two jobs of market settlement, run apart (docs/architecture.md "Jobs": each job has its own
 * timer, one run at a time): closing, settling reviewed verdicts and voiding overdue markets never
 * wait behind a judgement that gathers pages and asks models for minutes.
 */
export function createSettlementJobs(deps: SettlementJobDeps): [Job, Job] {
  if (deps.escrow && !deps.readChainTime) {
    throw new Error(
      "the settlement job has an escrow but no chain time to read: its review windows are the chain's",
    );
  }
  return [
    {
      name: 'market-settlement',
      intervalMs: 5_000,
      async run() {
        await closeMarketsAtDeadline(deps.db, deps.clock.now());
        await settleReviewed(deps);
        await voidOverdueMarkets(deps);
      },
    },
    { name: 'market-judging', intervalMs: 5_000, run: () => judgeDueMarkets(deps) },
  ];
}

/**
 * The reviews that have ended. With an escrow, by the chain's time, read once: a failed read settles
 * nothing this run (the next one reads again), since a window not known to have ended on chain may
 * still take a dispute.
 */
async function settleReviewed(deps: SettlementJobDeps): Promise<void> {
  const escrow = deps.escrow ?? null;
  let chainNow: Date | null = null;
  if (escrow && deps.readChainTime) {
    try {
      chainNow = await deps.readChainTime();
    } catch (error) {
      deps.logger.warn(
        { err: error },
        "could not read the chain's time: review windows are ended at the next run",
      );
      return;
    }
  }
  const reviewed = await settleReviewedMarkets(deps.db, {
    now: deps.clock.now(),
    chainNow,
    feeBps: deps.feeBps,
    escrow,
    ...(deps.stillPendingOnChain ? { stillPendingOnChain: deps.stillPendingOnChain } : {}),
  });
  for (const summary of reviewed) deps.metrics?.countResolution(summary.outcome);
}

/** Both, one after the other, as one job: one full pass (tests, a second instance in a test). */
export function createSettlementJob(deps: SettlementJobDeps): Job {
  const [settlement, judging] = createSettlementJobs(deps);
  return {
    name: 'market-settlement',
    intervalMs: 5_000,
    async run() {
      await settlement.run();
      await judging.run();
    },
  };
}

/** Up to MARKETS_PER_RUN due markets, JUDGING_CONCURRENCY at a time, each claimed as it starts. */
async function judgeDueMarkets(deps: SettlementJobDeps): Promise<void> {
  const resolver = deps.resolver;
  if (!resolver) return;
  const judge: JudgeDeps = {
    ...deps,
    resolver,
    gatherer: deps.gatherer ?? null,
    minSources: deps.minSources ?? 2,
    gatherTimeoutMs: GATHER_TIMEOUT_MS,
  };
  let budget = MARKETS_PER_RUN;
  const worker = async () => {
    while (budget > 0) {
      budget -= 1;
      const market = await leaseNextMarket(deps);
      if (!market) return;
      await judgeMarket(judge, market);
    }
  };
  await Promise.all(Array.from({ length: JUDGING_CONCURRENCY }, worker));
}

/** Active markets past their deadline stop taking bets and wait for judgement. */
async function closeMarketsAtDeadline(db: Db, now: Date): Promise<number[]> {
  return db.transaction(async (tx) => {
    const ids = await closeExpiredMarkets(tx, now);
    for (const id of ids) await publish(tx, { topic: 'markets', id });
    return ids;
  });
}

/** Shown on a market voided because no verdict came within MARKET_RESOLUTION_TIMEOUT_S of its deadline. */
export function voidAfterTimeoutText(timeoutS: number): string {
  const hours = Math.round(timeoutS / 360) / 10;
  return `No verdict was reached within ${hours} hours after the deadline, so the market is void and every stake is refunded.`;
}

/**
 * Markets still settling MARKET_RESOLUTION_TIMEOUT_S after their deadline are voided and refunded:
 * whatever kept them waiting (an operator who never resolved, a prompt version or model this server
 * no longer runs, no AI configured any more), stakes are not locked for ever. A few per run;
 * settleMarket re-checks the status under a row lock, so instances racing here void a market once. A
 * proposed verdict in review is not voided while unflagged (it settles when its window ends); a
 * flagged one waits for an operator MARKET_RESOLUTION_TIMEOUT_S after its window, then is voided too
 * (decision 011).
 */
async function voidOverdueMarkets(deps: SettlementJobDeps): Promise<number[]> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - deps.resolutionTimeoutS * 1000);
  const overdue = await listOverdueMarketIds(deps.db, cutoff, MARKETS_PER_RUN);
  const voided: number[] = [];
  for (const id of overdue) {
    const summary = await deps.db.transaction((tx) =>
      settleMarket(tx, {
        marketId: id,
        outcome: 'VOID',
        verdict: { analysis: voidAfterTimeoutText(deps.resolutionTimeoutS), confidence: null, sources: [] },
        feeBps: deps.feeBps,
        now,
        from: ['settling'],
        actor: 'system',
        escrow: deps.escrow ?? null,
      }),
    );
    if (!summary) continue;
    deps.metrics?.countResolution('VOID');
    voided.push(id);
    deps.logger.info(
      { marketId: id, refundedBets: summary.refundedBets },
      'market voided: no verdict in time',
    );
  }
  return voided;
}

/**
 * One settling market due for judgement, leased in the same statement that claims it: pushing
 * next_resolution_at past the request's timeout hides it from every other instance; if this one
 * dies, the lease runs out and another picks it up without burning an attempt. Only markets whose
 * prompt version fixed at creation this server still has; the rest time out (voidOverdueMarkets).
 */
async function leaseNextMarket(deps: SettlementJobDeps): Promise<ClaimedMarket | undefined> {
  const now = deps.clock.now();
  return claimMarketToJudge(deps.db, {
    now,
    leaseUntil: new Date(now.getTime() + deps.leaseMs),
    operatorResolver: OPERATOR_RESOLVER,
    promptVersions: JUDGED_PROMPT_VERSIONS,
  });
}

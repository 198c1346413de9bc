import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import type { Job } from '../jobs/job-runner.ts';
import { publish } from '../realtime/publish.ts';
import type { MarketResolver } from '../resolution/ai-resolver.ts';
import { decideResolution } from '../resolution/resolution-decision.ts';
import type { ResolverAnswer } from '../resolution/resolver-answer.ts';
import { JUDGED_PROMPT_VERSIONS, OPERATOR_RESOLVER } from '../resolution/resolver-prompt.ts';
import { recordFailedAttempt } from './record-failed-attempt.ts';
import { proposeVerdict, settleReviewedMarkets } from './review-window.ts';
import { settleMarket } from './settle-market.ts';

// docs/architecture.md "Markets": at the deadline active → settling; the resolver decides; retries with backoff;
// void + refund after the budget. docs/architecture.md "Scale": safe on every instance at once — closing is one
// conditional UPDATE, and a market is claimed for judging with FOR UPDATE SKIP LOCKED plus a lease.

export type SettlementJobDeps = {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Null when no AI is configured: settling markets then wait for an operator (ops CLI). */
  resolver: MarketResolver | null;
  minConfidence: number;
  maxAttempts: number;
  feeBps: number;
  /** How long a claimed market stays invisible to other instances while it is being judged. */
  leaseMs: number;
  /** Seconds after its deadline a market may wait for a verdict before it is voided and refunded. */
  resolutionTimeoutS: number;
  /** Seconds a proposed verdict stays open to flags before it settles; 0 settles at once (issue 11). */
  reviewWindowS: number;
};

/** At most this many markets are judged per run; the rest wait for the next tick. */
const MARKETS_PER_RUN = 10;

const ClaimedMarketSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  resolution_instructions: z.string().nullable(),
  deadline: z.coerce.date(),
  resolver_model: z.string(),
  resolver_prompt_version: z.string(),
  resolution_attempts: z.number(),
});
type ClaimedMarket = z.infer<typeof ClaimedMarketSchema>;

export function createSettlementJob(deps: SettlementJobDeps): Job {
  return {
    name: 'market-settlement',
    intervalMs: 5_000,
    async run() {
      await closeExpiredMarkets(deps.db, deps.clock.now());
      await settleReviewedMarkets(deps.db, { now: deps.clock.now(), feeBps: deps.feeBps });
      await voidOverdueMarkets(deps);
      const resolver = deps.resolver;
      if (!resolver) return;
      for (let i = 0; i < MARKETS_PER_RUN; i++) {
        const market = await claimMarketToJudge(deps);
        if (!market) break;
        await judgeMarket(deps, resolver, market);
      }
    },
  };
}

/** Active markets past their deadline stop taking bets and wait for judgement. */
async function closeExpiredMarkets(db: Db, now: Date): Promise<number[]> {
  return db.transaction(async (tx) => {
    const rows = await queryRows(
      tx,
      sql`update markets set status = 'settling', next_resolution_at = ${now}, updated_at = ${now}
          where status = 'active' and deadline <= ${now}
          returning id`,
      z.object({ id: z.number() }),
    );
    for (const { id } of rows) await publish(tx, { topic: 'markets', id });
    return rows.map((row) => row.id);
  });
}

/** Shown on a market voided because no verdict came within MARKET_RESOLUTION_TIMEOUT_S of its deadline. */
export function voidAfterTimeoutText(timeoutS: number): string {
  const hours = Math.round(timeoutS / 360) / 10;
  return `No verdict was reached within ${hours} hours after the deadline, so the market is void and every stake is refunded.`;
}

/**
 * Markets still settling MARKET_RESOLUTION_TIMEOUT_S after their deadline are voided and refunded
 * (security review F20): whatever kept them waiting (an operator who never resolved, a prompt
 * version or model this server no longer runs, no AI configured any more), stakes are not locked
 * for ever. A few per run; settleMarket re-checks the status under a row lock, so instances racing
 * here void a market once. A proposed verdict in review is not voided while unflagged (it settles
 * when its window ends); a flagged one waits for an operator MARKET_RESOLUTION_TIMEOUT_S after its
 * window, then is voided too (decision 011).
 */
async function voidOverdueMarkets(deps: SettlementJobDeps): Promise<number[]> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - deps.resolutionTimeoutS * 1000);
  const overdue = await queryRows(
    deps.db,
    sql`select id from markets
        where status = 'settling' and bet_type <> 'price_prediction'
          and ((proposed_at is null and deadline <= ${cutoff})
               or (proposed_at is not null and flag_count > 0 and review_ends_at <= ${cutoff}))
        order by deadline, id limit ${MARKETS_PER_RUN}`,
    z.object({ id: z.number() }),
  );
  const voided: number[] = [];
  for (const { id } of overdue) {
    const summary = await deps.db.transaction((tx) =>
      settleMarket(tx, {
        marketId: id,
        outcome: 'VOID',
        verdict: { analysis: voidAfterTimeoutText(deps.resolutionTimeoutS), confidence: null, sources: [] },
        feeBps: deps.feeBps,
        now,
        from: ['settling'],
        actor: 'system',
      }),
    );
    if (!summary) continue;
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
async function claimMarketToJudge(deps: SettlementJobDeps): Promise<ClaimedMarket | undefined> {
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + deps.leaseMs);
  const [row] = await queryRows(
    deps.db,
    sql`update markets set next_resolution_at = ${leaseUntil}
        where id = (select id from markets
                    where status = 'settling' and next_resolution_at <= ${now}
                      and proposed_at is null and bet_type <> 'price_prediction'
                      and resolver_model <> ${OPERATOR_RESOLVER}
                      and resolver_prompt_version in (${sql.join(
                        JUDGED_PROMPT_VERSIONS.map((version) => sql`${version}`),
                        sql`, `,
                      )})
                    order by next_resolution_at, id limit 1
                    for update skip locked)
        returning id, title, description, resolution_instructions, deadline, resolver_model,
                  resolver_prompt_version, resolution_attempts`,
    ClaimedMarketSchema,
  );
  return row;
}

async function judgeMarket(deps: SettlementJobDeps, resolver: MarketResolver, market: ClaimedMarket) {
  let answer: ResolverAnswer | null = null;
  let failure = '';
  try {
    answer = await resolver.resolve({
      model: market.resolver_model,
      promptVersion: market.resolver_prompt_version,
      title: market.title,
      description: market.description,
      resolutionInstructions: market.resolution_instructions,
      deadline: market.deadline,
      now: deps.clock.now(),
    });
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    deps.logger.warn({ err: error, marketId: market.id }, 'market resolver failed');
  }
  const decision = answer
    ? decideResolution(answer, deps.minConfidence)
    : { kind: 'retry' as const, reason: failure };
  const now = deps.clock.now();
  if (decision.kind === 'settle' && deps.reviewWindowS > 0) {
    const proposed = await deps.db.transaction((tx) =>
      proposeVerdict(tx, {
        marketId: market.id,
        verdict: {
          result: decision.result,
          model: market.resolver_model,
          promptVersion: market.resolver_prompt_version,
          confidence: decision.answer.confidence,
          analysis: decision.answer.analysis,
          sources: decision.answer.sources,
        },
        windowS: deps.reviewWindowS,
        now,
      }),
    );
    if (proposed) deps.logger.info({ marketId: market.id, result: decision.result }, 'verdict proposed');
    return;
  }
  if (decision.kind === 'settle') {
    const summary = await deps.db.transaction((tx) =>
      settleMarket(tx, {
        marketId: market.id,
        outcome: decision.result,
        verdict: {
          analysis: decision.answer.analysis,
          confidence: decision.answer.confidence,
          sources: decision.answer.sources,
        },
        feeBps: deps.feeBps,
        now,
        from: ['settling'],
        actor: market.resolver_model,
        detail: `Settled at once (no review window). Confidence ${decision.answer.confidence}. ${decision.answer.analysis}`,
      }),
    );
    if (summary)
      deps.logger.info(
        { ...summary, poolWei: String(summary.poolWei), feeWei: String(summary.feeWei) },
        'market settled',
      );
    return;
  }
  await recordFailedAttempt(deps, market, decision.reason, now);
}

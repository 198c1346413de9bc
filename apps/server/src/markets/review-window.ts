import type { MarketReview } from '@pm/core/contract/review';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { publish } from '../realtime/outbox-repository.ts';
import type { MarketRow } from './markets-repository.ts';
import { lockMarket } from './markets-repository.ts';
import { recordResolutionEvent } from './resolution-events.ts';
import { type SettlementSummary, settleMarket } from './settle-market.ts';

// The resolution review window (issue 11, docs/decisions/011-resolution-review-window.md). An AI
// verdict is first proposed: stored on the market, which stays `settling` with every bet pending,
// so nothing is claimable. Unflagged, it settles when the window ends (settleReviewedMarkets, run by
// the settlement job on every instance: each market is re-checked under its row lock). Flagged, it
// waits for an operator (operator-actions.ts) or, failing one, is voided by the resolution timeout.

export type ProposedVerdict = {
  result: 'YES' | 'NO';
  model: string;
  promptVersion: string;
  confidence: number;
  analysis: string;
  sources: string[];
};

/** At most this many reviewed markets are settled per run; the rest wait for the next tick. */
const REVIEWED_PER_RUN = 10;

/**
 * Stores `verdict` as the market's proposal, open to flags for `windowS` seconds. Only a settling
 * market with no proposal yet (a second instance judging the same market proposes nothing).
 * Returns whether it was proposed.
 */
export async function proposeVerdict(
  tx: DbOrTx,
  input: { marketId: number; verdict: ProposedVerdict; windowS: number; now: Date },
): Promise<boolean> {
  const { verdict, now } = input;
  const endsAt = new Date(now.getTime() + input.windowS * 1000);
  const rows = await queryRows(
    tx,
    sql`update markets set proposed_result = ${verdict.result}, proposed_by = ${verdict.model},
               proposed_prompt_version = ${verdict.promptVersion},
               proposed_confidence = ${verdict.confidence}, proposed_analysis = ${verdict.analysis},
               proposed_sources = ${JSON.stringify(verdict.sources)}::jsonb,
               proposed_at = ${now}, review_ends_at = ${endsAt}, flag_count = 0,
               next_resolution_at = null, resolution_error = null, updated_at = ${now}
        where id = ${input.marketId} and status = 'settling' and proposed_at is null
        returning id`,
    z.object({ id: z.number() }),
  );
  if (rows.length === 0) return false;
  await recordResolutionEvent(tx, {
    marketId: input.marketId,
    kind: 'proposed',
    actor: verdict.model,
    result: verdict.result,
    detail: `Confidence ${verdict.confidence}. ${verdict.analysis}`,
    at: now,
  });
  await publish(tx, { topic: 'markets', id: input.marketId });
  return true;
}

/** True while the market has a proposed verdict that has not settled. */
export function isInReview(market: MarketRow): boolean {
  return market.status === 'settling' && market.proposedAt !== null && market.proposedResult !== null;
}

/**
 * Settles the markets whose window has ended with no flag, on their proposed verdict. Safe on many
 * instances: each is re-read under its row lock (a flag committed first wins) and settleMarket
 * settles a market once.
 */
export async function settleReviewedMarkets(
  db: Db,
  input: { now: Date; feeBps: number },
): Promise<SettlementSummary[]> {
  const due = await queryRows(
    db,
    sql`select id from markets
        where status = 'settling' and proposed_at is not null and flag_count = 0
          and review_ends_at <= ${input.now}
        order by review_ends_at, id limit ${REVIEWED_PER_RUN}`,
    z.object({ id: z.number() }),
  );
  const settled: SettlementSummary[] = [];
  for (const { id } of due) {
    const summary = await db.transaction(async (tx) => {
      const market = await lockMarket(tx, id);
      if (!market || !isInReview(market) || market.flagCount > 0) return null;
      if (!market.reviewEndsAt || market.reviewEndsAt.getTime() > input.now.getTime()) return null;
      const verdict = proposedVerdictOf(market);
      return settleMarket(tx, {
        marketId: id,
        outcome: verdict.result,
        verdict: { analysis: verdict.analysis, confidence: verdict.confidence, sources: verdict.sources },
        feeBps: input.feeBps,
        now: input.now,
        from: ['settling'],
        actor: 'system',
        detail: 'The review window ended with no flag.',
      });
    });
    if (summary) settled.push(summary);
  }
  return settled;
}

const ProposedResultSchema = z.enum(['YES', 'NO', 'VOID']);

/** The proposal stored on a market in review. */
export function proposedVerdictOf(market: MarketRow) {
  return {
    result: ProposedResultSchema.parse(market.proposedResult),
    model: market.proposedBy ?? market.resolverModel,
    promptVersion: market.proposedPromptVersion ?? market.resolverPromptVersion,
    confidence: market.proposedConfidence,
    analysis: market.proposedAnalysis ?? '',
    sources: market.proposedSources ?? [],
  };
}

/** The review part of the market DTO: present from the proposal on, also once settled. */
export function toMarketReviewDto(market: MarketRow): MarketReview | null {
  if (!market.proposedAt || !market.reviewEndsAt || !market.proposedResult) return null;
  const verdict = proposedVerdictOf(market);
  return {
    result: verdict.result,
    model: verdict.model,
    promptVersion: verdict.promptVersion,
    confidence: verdict.confidence,
    analysis: verdict.analysis,
    sources: verdict.sources,
    proposedAt: market.proposedAt.toISOString(),
    endsAt: market.reviewEndsAt.toISOString(),
    flagCount: market.flagCount,
    // Issue 22: set by the market's own page while flags are open (markets-service getMarket).
    bondWei: null,
  };
}

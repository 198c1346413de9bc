import type { MarketReview } from '@pm/core/contract/review';
import { z } from 'zod';
import type { MarketRow } from './markets-repository.ts';

// The review state a market row holds (docs/decisions/011-resolution-review-window.md): the proposed
// verdict, its window and the bond a flag costs. Read by the market's page here and acted on by the
// settlement room (apps/server/src/settlement/review-window.ts), whose repository writes these
// columns.

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
    // The chain's claimableAt once the pending settlement is final on chain (markSettled), before it
    // the server's estimate: docs/decisions/034 "Settlement".
    endsAt: market.reviewEndsAt.toISOString(),
    flagCount: market.flagCount,
    // Set by the market's own page while flags are open (markets-service getMarket).
    bondWei: null,
  };
}

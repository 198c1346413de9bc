import type { ResolverAnswer } from './resolver-answer.ts';

// docs/architecture.md "Markets": YES/NO at or above the confidence threshold, citing at least one source,
// settles the market; anything else (UNDECIDABLE, low confidence, no sources, an answer off-schema
// or too large, an endpoint that failed) is a failed attempt, retried with exponential backoff
// until the budget is spent, then the market is voided. A v1/v2 model has no retrieval: a verdict
// that cannot even name where its evidence comes from is a guess (docs/decisions/009). A v3
// verdict's quotes are verified on top of this (settlement/judge-market.ts, docs/decisions/019).

export type ResolutionDecision =
  | { kind: 'settle'; result: 'YES' | 'NO'; answer: ResolverAnswer }
  | { kind: 'retry'; reason: string };

export function decideResolution(answer: ResolverAnswer, minConfidence: number): ResolutionDecision {
  if (answer.verdict === 'UNDECIDABLE') {
    return { kind: 'retry', reason: `UNDECIDABLE (confidence ${answer.confidence}): ${answer.analysis}` };
  }
  if (answer.confidence < minConfidence) {
    return {
      kind: 'retry',
      reason: `${answer.verdict} with confidence ${answer.confidence}, below ${minConfidence}: ${answer.analysis}`,
    };
  }
  if (!answer.sources.some((source) => source.trim() !== '')) {
    return {
      kind: 'retry',
      reason: `${answer.verdict} with confidence ${answer.confidence} but no sources cited: ${answer.analysis}`,
    };
  }
  return { kind: 'settle', result: answer.verdict, answer };
}

/** First retry after 5 minutes, doubling, at most 6 hours apart. */
const RETRY_BASE_S = 300;
const RETRY_MAX_S = 6 * 3600;

/** Seconds to wait after the `attempts`-th failed attempt (1-based). */
export function retryDelayS(attempts: number): number {
  return Math.min(RETRY_MAX_S, RETRY_BASE_S * 2 ** Math.max(0, Math.min(attempts - 1, 16)));
}

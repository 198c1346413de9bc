import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { EscrowTarget } from '../escrow/escrow-target.ts';
import { lockMarket } from '../markets/markets-repository.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { retryDelayS } from '../resolution/resolution-decision.ts';
import { settleMarket } from './settle-market.ts';
import { recordJudgingAttempt } from './settlement-repository.ts';

/** Shown on a market voided because the resolver never reached a confident verdict. */
export function voidAfterRetriesText(attempts: number): string {
  return `The AI resolver could not reach a confident verdict after ${attempts} attempts, so the market is void and every stake is refunded.`;
}

/**
 * A judgement that decided nothing: count the attempt and retry later with exponential backoff;
 * once the budget (AI_MAX_ATTEMPTS) is spent, void the market and refund every stake.
 */
export async function recordFailedAttempt(
  deps: {
    db: Db;
    maxAttempts: number;
    feeBps: number;
    logger: FastifyBaseLogger;
    metrics?: Pick<Metrics, 'countResolution'>;
    escrow?: EscrowTarget | null;
  },
  market: { id: number },
  reason: string,
  now: Date,
): Promise<'retry' | 'voided' | 'skipped'> {
  const outcome = await deps.db.transaction(async (tx) => {
    const locked = await lockMarket(tx, market.id);
    // Settled meanwhile (an operator, say): nothing left to retry.
    if (locked?.status !== 'settling') return 'skipped' as const;
    const attempts = locked.resolutionAttempts + 1;
    const error = reason.slice(0, 2000);
    if (attempts < deps.maxAttempts) {
      const retryAt = new Date(now.getTime() + retryDelayS(attempts) * 1000);
      await recordJudgingAttempt(tx, { marketId: market.id, attempts, error, retryAt });
      return 'retry' as const;
    }
    await recordJudgingAttempt(tx, { marketId: market.id, attempts, error });
    await settleMarket(tx, {
      marketId: market.id,
      outcome: 'VOID',
      verdict: { analysis: voidAfterRetriesText(attempts), confidence: null, sources: [] },
      feeBps: deps.feeBps,
      now,
      from: ['settling'],
      escrow: deps.escrow ?? null,
    });
    return 'voided' as const;
  });
  if (outcome === 'voided') deps.metrics?.countResolution('VOID');
  deps.logger.info({ marketId: market.id, outcome, reason }, 'market judgement decided nothing');
  return outcome;
}

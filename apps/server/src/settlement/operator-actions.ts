import { isInReview } from '@pm/core/market-rules';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import type { EscrowTarget } from '../escrow/escrow-target.ts';
import { proposedVerdictOf } from '../markets/market-review.ts';
import { findMarket, lockMarket, type MarketRow } from '../markets/markets-repository.ts';
import { recordResolutionEvent } from './resolution-events-repository.ts';
import { type SettlementSummary, settleMarket } from './settle-market.ts';
import type { MarketOutcome } from './settlement-repository.ts';

// docs/architecture.md "Operators": resolve or void a market by hand, from the ops CLI or the EIP-712-signed API
// (market-operator-routes.ts). Used when no AI is configured, or when the AI could not decide.
// On a market whose AI verdict is in review (docs/decisions/011) the same actions confirm it
// (the proposed result) or overturn it (another result, or void); either way the operator's word
// settles at once: the review window guards the machine's verdict, not the operator's.

/** Who acted, for the timeline: the operator's address from the API, "ops CLI" from the CLI. */
export const OPS_CLI_ACTOR = 'ops CLI';

/**
 * Settles a market YES or NO with the operator's analysis. Allowed once betting has closed: the
 * market is settling, or still active with its deadline passed (the job has not moved it yet).
 * Confirming the proposed verdict keeps the AI's analysis, confidence and sources.
 */
export async function resolveMarketByOperator(
  db: Db,
  input: {
    marketId: number;
    result: 'YES' | 'NO';
    analysis: string;
    feeBps: number;
    now: Date;
    actor: string;
    /** The server's escrow: a market whose stakes are on it has its list posted there. */
    escrow?: EscrowTarget | null;
  },
): Promise<SettlementSummary> {
  return db.transaction(async (tx) => {
    const market = await lockMarket(tx, input.marketId);
    if (!market) throw new AppError('MARKET_NOT_FOUND');
    if (market.status === 'settled') throw alreadySettled(market);
    if (market.status === 'active' && input.now.getTime() < market.deadline.getTime()) {
      throw new AppError(
        'BAD_REQUEST',
        `Market ${market.id} takes bets until ${market.deadline.toISOString()}; resolve it after its deadline (or void it).`,
      );
    }
    const confirmed = await recordReviewOutcome(tx, market, input.result, input);
    const proposal = confirmed ? proposedVerdictOf(market) : null;
    const summary = await settleMarket(tx, {
      marketId: market.id,
      outcome: input.result,
      verdict: proposal
        ? { analysis: proposal.analysis, confidence: proposal.confidence, sources: proposal.sources }
        : { analysis: input.analysis, confidence: null, sources: [] },
      feeBps: input.feeBps,
      now: input.now,
      from: ['active', 'settling'],
      actor: input.actor,
      detail: input.analysis,
      escrow: input.escrow ?? null,
    });
    if (!summary) throw alreadySettled(market);
    return summary;
  });
}

/** Voids a market that is not settled yet, open or not: every stake is refunded. */
export async function voidMarketByOperator(
  db: Db,
  input: {
    marketId: number;
    reason: string;
    feeBps: number;
    now: Date;
    actor: string;
    escrow?: EscrowTarget | null;
  },
): Promise<SettlementSummary> {
  return db.transaction(async (tx) => {
    const market = await lockMarket(tx, input.marketId);
    if (!market) throw new AppError('MARKET_NOT_FOUND');
    if (market.status === 'settled') throw alreadySettled(market);
    await recordReviewOutcome(tx, market, 'VOID', { ...input, analysis: input.reason });
    const summary = await settleMarket(tx, {
      marketId: market.id,
      outcome: 'VOID',
      verdict: { analysis: input.reason, confidence: null, sources: [] },
      feeBps: input.feeBps,
      now: input.now,
      from: ['active', 'settling'],
      actor: input.actor,
      escrow: input.escrow ?? null,
    });
    if (!summary) throw alreadySettled(market);
    return summary;
  });
}

/**
 * Confirms the market's proposed verdict, by its proposed result: the operator's way of saying a
 * flag was wrong (or of settling before the window ends).
 */
export async function confirmProposedVerdict(
  db: Db,
  input: {
    marketId: number;
    note: string;
    feeBps: number;
    now: Date;
    actor: string;
    escrow?: EscrowTarget | null;
  },
): Promise<SettlementSummary> {
  const row = await findMarket(db, input.marketId);
  if (!row) throw new AppError('MARKET_NOT_FOUND');
  if (!isInReview(row)) throw new AppError('NOT_IN_REVIEW');
  const { result } = proposedVerdictOf(row);
  const common = {
    marketId: input.marketId,
    feeBps: input.feeBps,
    now: input.now,
    actor: input.actor,
    escrow: input.escrow ?? null,
  };
  return result === 'VOID'
    ? voidMarketByOperator(db, { ...common, reason: input.note })
    : resolveMarketByOperator(db, { ...common, result, analysis: input.note });
}

/**
 * On a market in review, records the operator's confirmation or overturn on the timeline; answers
 * whether the operator confirmed the proposal. Nothing on a market with no proposal.
 */
async function recordReviewOutcome(
  tx: DbOrTx,
  market: MarketRow,
  result: MarketOutcome,
  input: { analysis: string; now: Date; actor: string },
): Promise<boolean> {
  if (!isInReview(market)) return false;
  const confirmed = market.proposedResult === result;
  await recordResolutionEvent(tx, {
    marketId: market.id,
    kind: confirmed ? 'confirmed' : 'overturned',
    actor: input.actor,
    result,
    detail: input.analysis,
    at: input.now,
  });
  return confirmed;
}

function alreadySettled(market: MarketRow): AppError {
  return new AppError(
    'BAD_REQUEST',
    `Market ${market.id} is already settled (${market.result ?? 'no result'}).`,
  );
}

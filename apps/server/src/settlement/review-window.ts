import { isInReview } from '@pm/core/market-rules';
import type { Db, DbOrTx } from '../db/client.ts';
import type { EscrowTarget } from '../escrow/escrow-target.ts';
import { findPayoutListByMarket } from '../escrow/settlements/payout-lists-repository.ts';
import { queueMarketSettlement } from '../escrow/settlements/queue-market-settlement.ts';
import { proposedVerdictOf } from '../markets/market-review.ts';
import { lockMarket } from '../markets/markets-repository.ts';
import { publish } from '../realtime/outbox-repository.ts';
import { findLatestEvidence } from './evidence-repository.ts';
import { recordResolutionEvent } from './resolution-events-repository.ts';
import { type SettlementSummary, settleMarket } from './settle-market.ts';
import {
  listReviewedMarketsDue,
  type ProposedVerdict,
  storeProposedVerdict,
} from './settlement-repository.ts';

// The resolution review window (docs/decisions/011-resolution-review-window.md). An AI
// verdict is first proposed: stored on the market, which stays `settling` with every bet pending,
// so nothing is claimable. Unflagged, it settles when the window ends (settleReviewedMarkets, run by
// the settlement job on every instance: each market is re-checked under its row lock). Flagged, it
// waits for an operator (operator-actions.ts) or, failing one, is voided by the resolution timeout.

/** At most this many reviewed markets are settled per run; the rest wait for the next tick. */
const REVIEWED_PER_RUN = 10;

/**
 * Stores `verdict` as the market's proposal, open to flags for `windowS` seconds. Only a settling
 * market with no proposal yet (a second instance judging the same market proposes nothing).
 * Returns whether it was proposed. A market whose stakes are on the escrow has its `settle` queued
 * in the same transaction (docs/architecture.md "Markets on the escrow") with the window as its
 * delay, so payouts open when the window ends and a flag can dispute it meanwhile; `settleOnEscrow`
 * null posts nothing (a verdict that waits for an operator at once, models that disagree).
 */
export async function proposeVerdict(
  tx: DbOrTx,
  input: {
    marketId: number;
    verdict: ProposedVerdict;
    windowS: number;
    now: Date;
    settleOnEscrow: EscrowTarget | null;
  },
): Promise<boolean> {
  const { verdict, now } = input;
  const endsAt = new Date(now.getTime() + input.windowS * 1000);
  const proposed = await storeProposedVerdict(tx, { marketId: input.marketId, verdict, endsAt, now });
  if (!proposed) return false;
  await recordResolutionEvent(tx, {
    marketId: input.marketId,
    kind: 'proposed',
    actor: verdict.model,
    result: verdict.result,
    detail: `Confidence ${verdict.confidence}. ${verdict.analysis}`,
    at: now,
  });
  if (input.settleOnEscrow) {
    await queueMarketSettlement(tx, {
      marketId: input.marketId,
      escrow: input.settleOnEscrow,
      now,
      cause: 'proposed',
      windowS: input.windowS,
      readEvidence: () => findLatestEvidence(tx, input.marketId),
    });
  }
  await publish(tx, { topic: 'markets', id: input.marketId });
  return true;
}

/**
 * Settles the markets whose window has ended with no flag, on their proposed verdict. Safe on many
 * instances: each is re-read under its row lock (a flag committed first wins) and settleMarket
 * settles a market once. On the escrow, the proposal's pending settlement stands: it becomes claimable.
 *
 * One clock (docs/decisions/034 "Settlement"): with an escrow, the window is the chain's dispute
 * window, so it ends by the chain's time (`chainNow`, the latest block's), and only for a market
 * whose pending settlement is final on chain (review_ends_at is then its claimableAt, markSettled):
 * a flag the contract still takes as a dispute is never late for the server. `chainNow` null (no
 * escrow, nothing on chain) ends it by the server's clock.
 */
export async function settleReviewedMarkets(
  db: Db,
  input: {
    now: Date;
    chainNow: Date | null;
    feeBps: number;
    escrow: EscrowTarget | null;
    /**
     * Whether the chain still holds this pending settlement (market key, payout root): a dispute
     * mined before claimableAt sends it back at once, while its flag may still be confirming here.
     */
    stillPendingOnChain?: (marketKey: string, root: string) => Promise<boolean>;
  },
): Promise<SettlementSummary[]> {
  const endsBy = input.chainNow ?? input.now;
  const onChain = input.chainNow !== null;
  const due = await listReviewedMarketsDue(db, { now: endsBy, onChain }, REVIEWED_PER_RUN);
  const settled: SettlementSummary[] = [];
  for (const id of due) {
    // Read before the row lock, so no transaction waits on the chain: a settlement the chain no
    // longer holds (disputed in its window, the flag not recorded yet) ends no review, and a read
    // that fails ends none either (the next run reads again); the flag's own path then holds it.
    if (onChain && input.stillPendingOnChain) {
      const list = await findPayoutListByMarket(db, id);
      if (list?.status === 'settled' && list.root) {
        const pending = await input.stillPendingOnChain(list.marketKey, list.root).catch(() => false);
        if (!pending) continue;
      }
    }
    const summary = await db.transaction(async (tx) => {
      const market = await lockMarket(tx, id);
      if (!market || !isInReview(market) || market.flagCount > 0) return null;
      if (!market.reviewEndsAt || market.reviewEndsAt.getTime() > endsBy.getTime()) return null;
      // Under the lock: a refused dispute may have queued the settlement again since it was listed.
      if (onChain) {
        const list = await findPayoutListByMarket(tx, id);
        if (list && list.status !== 'settled') return null;
      }
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
        escrow: input.escrow,
        escrowCause: 'reviewed',
      });
    });
    if (summary) settled.push(summary);
  }
  return settled;
}

import { computeMarketPayouts } from '@pm/core/payouts';
import { marketClosesAt } from '@pm/escrow/deposit-terms';
import { MARKET_OUTCOME, type MarketOutcomeName, marketVerdictHash } from '@pm/escrow/market-settlement';
import type { Hex } from 'viem';
import type { DbOrTx } from '../../db/client.ts';
import type { EscrowTarget } from '../escrow-target.ts';
import {
  findMarketToSettle,
  findPayoutListByMarket,
  insertDueSettlement,
  listMarketStakes,
  type MarketToSettle,
  settlementChanged,
  settlementDueAtMinimumDelay,
} from './payout-lists-repository.ts';

// docs/architecture.md "Markets on the escrow": in the transaction that proposes or settles a
// Predictions market whose stakes are on the escrow (markets.escrow_key), its settlement there becomes
// due, with the outcome and verdict hash it will post; nothing is read from the chain here. The
// escrow-settlements job builds the list (from core's rules over the proposed verdict, or from the
// settled bets) and queues `settle` or `settleAsRefund`. A market with no escrow key (a row written
// without one: test fixtures) has nothing on chain: nothing is queued.

/**
 * Why the settlement is queued:
 * - `proposed`: a judged market's verdict was proposed: `settle` with the proposal's list and the
 *   review window as its delay, so payouts open when the window ends and a flag may dispute meanwhile;
 * - `reviewed`: the window ended with no flag and the market settled on its proposal: the pending
 *   settlement stands (it becomes claimable), nothing new is posted;
 * - `settled`: any other settlement (a price market, an operator's verdict, a void, a settlement after
 *   a dispute): the list of the settled bets, with the contract's minimum delay.
 */
export type MarketSettlementCause =
  | { cause: 'proposed'; windowS: number }
  | { cause: 'reviewed' | 'settled' };

export type QueuedMarketSettlement = 'queued' | 'kept' | 'none';

/**
 * The pages a judging read, as the settlement room stores them (its evidence repository): the verdict
 * hash names the ones that were read. Null before any judging.
 */
export type MarketEvidence = {
  pages: ReadonlyArray<{ error: string | null; contentSha256: string | null }>;
} | null;

export async function queueMarketSettlement(
  tx: DbOrTx,
  input: {
    marketId: number;
    escrow: EscrowTarget | null;
    now: Date;
    /** The market's latest evidence, read only when a settlement is posted (the settlement room's). */
    readEvidence: () => Promise<MarketEvidence>;
  } & MarketSettlementCause,
): Promise<QueuedMarketSettlement> {
  const market = await findMarketToSettle(tx, input.marketId);
  if (!market) throw new Error(`market ${input.marketId} not found`);
  if (market.escrowKey === null || market.escrowId === null) return 'none';
  if (!input.escrow) {
    throw new Error(
      `market ${market.id}'s stakes are on the escrow (key ${market.escrowKey}), but this server has no ESCROW_ADDRESS: it cannot settle them`,
    );
  }
  const verdict = verdictOf(market, input.cause);
  const stakes = await listMarketStakes(tx, market.id);
  // Core's rule, as settleMarket pays: void, or no stake on the winning side, refunds every stake.
  const refund = computeMarketPayouts({
    bets: stakes.map((stake) => ({
      id: stake.betId,
      side: stake.prediction === 'YES' ? 'YES' : 'NO',
      amountWei: stake.amount,
    })),
    result: verdict.result,
    feeBps: 0,
  }).refund;
  // A proposal that refunds every stake (nobody on its side) is not posted: a refund opens at once, and
  // whatever the review decides the stakes come back; it is posted when the market settles.
  if (input.cause === 'proposed' && refund) return 'none';

  const evidence = await input.readEvidence();
  const pages = (evidence?.pages ?? []).flatMap((page) =>
    page.error === null && page.contentSha256 !== null ? [page.contentSha256] : [],
  );
  const verdictHash = marketVerdictHash({
    marketKey: market.escrowKey as Hex,
    result: verdict.result,
    evidenceSha256: pages,
    analysis: verdict.analysis,
  });
  const values = {
    chainId: input.escrow.chainId,
    escrow: input.escrow.address.toLowerCase(),
    marketId: market.escrowId.toLowerCase(),
    closesAt: marketClosesAt(market.deadline),
    refund,
    outcome: MARKET_OUTCOME[verdict.result],
    verdictHash,
    payoutDelayS: input.cause === 'proposed' ? input.windowS : null,
  };
  const existing = await findPayoutListByMarket(tx, market.id);
  if (!existing) {
    await insertDueSettlement(tx, {
      ...values,
      marketKey: market.escrowKey.toLowerCase(),
      predictionMarketId: market.id,
    });
    return 'queued';
  }
  if (
    input.cause === 'reviewed' &&
    existing.outcome === values.outcome &&
    existing.verdictHash === verdictHash &&
    existing.refund === refund
  ) {
    // The proposal's settlement stands; one not built yet no longer waits for the window.
    if (existing.status === 'due') await settlementDueAtMinimumDelay(tx, existing.id, input.now);
    return 'kept';
  }
  await settlementChanged(tx, existing.id, { ...values, nextAttemptAt: input.now });
  return 'queued';
}

/** The verdict to post: the proposal's while in review, the market's result once it is settled. */
function verdictOf(
  market: MarketToSettle,
  cause: MarketSettlementCause['cause'],
): { result: MarketOutcomeName; analysis: string } {
  if (cause === 'proposed') {
    const result = outcomeName(market.proposedResult);
    if (market.status !== 'settling' || result === null) {
      throw new Error(`market ${market.id} has no verdict in review (status ${market.status})`);
    }
    return { result, analysis: market.proposedAnalysis ?? '' };
  }
  const result = outcomeName(market.result);
  if (market.status !== 'settled' || result === null) {
    throw new Error(`market ${market.id} is not settled (status ${market.status})`);
  }
  return { result, analysis: market.aiVerdict ?? '' };
}

function outcomeName(value: string | null): MarketOutcomeName | null {
  return value === 'YES' || value === 'NO' || value === 'VOID' ? value : null;
}

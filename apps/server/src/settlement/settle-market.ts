import { type BondSettlement, marketDistributableWei, settleFlagBonds } from '@pm/core/flag-bonds';
import { bpsOf } from '@pm/core/money';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import type { EscrowTarget } from '../escrow/escrow-target.ts';
import { queueMarketSettlement } from '../escrow/settlements/queue-market-settlement.ts';
import { recordMarketSettlement } from '../leaderboard/user-stats-repository.ts';
import { lockMarket } from '../markets/markets-repository.ts';
import { publish } from '../realtime/outbox-repository.ts';
import { findLatestEvidence } from './evidence-repository.ts';
import { recordResolutionEvent } from './resolution-events-repository.ts';
import {
  listHeldFlagBonds,
  type MarketOutcome,
  markLosingBets,
  markMarketSettled,
  payWinningBets,
  readStakedPools,
  recordFlagBondFate,
  refundPendingBets,
} from './settlement-repository.ts';

// docs/architecture.md "Markets", payout: parimutuel, fee on the losing pool, integer wei rounding down, dust to
// the fee (the settlement's fee is the pool less its payouts). payout_amount holds what the bet returns, stake included (decision 002): a
// win stake + profit, a refund the stake, a loss 0. Done in bulk SQL, one UPDATE per side
// (settlement-repository.ts), so a market with 100k bets settles in seconds. The maths is core's computeMarketPayouts, term for term:
//   fee          = floor(losing × feeBps / 10000)      (bpsOf, in TypeScript, on two totals)
//   profit(bet)  = floor(stake × (losing − fee) / winning)   (div(), exact NUMERIC, in SQL)
// div() truncates, which is floor for these non-negative numbers; `/` on NUMERIC would round.
// The flags' bonds settle here too, as core's settleFlagBonds says: a confirmed verdict
// adds them to what the winners share (distributable = losing − fee + forfeited bonds, core's
// marketDistributableWei); an overturned one, or a refunded market, hands each back (bond + reward) as
// a leaf of the market's settlement on the escrow.

export type SettlementVerdict = {
  /** Stored as ai_verdict: the resolver's analysis, or the operator's words. */
  analysis: string;
  /** Null when an operator decided or nothing did (void after retries). */
  confidence: number | null;
  sources: string[];
};

export type SettlementSummary = {
  marketId: number;
  outcome: MarketOutcome;
  /** True when every stake goes back (void, or no bet on the winning side). */
  refunded: boolean;
  winningBets: number;
  losingBets: number;
  refundedBets: number;
  poolWei: bigint;
  feeWei: bigint;
};

/**
 * Settles one market inside the caller's transaction, if its status is one of `from` (else null:
 * someone settled it first, so running twice is harmless). Locks the market row, writes every
 * bet's status and payout, the market's result, the leaderboard aggregates and realtime events.
 */
export async function settleMarket(
  tx: DbOrTx,
  input: {
    marketId: number;
    outcome: MarketOutcome;
    verdict: SettlementVerdict;
    feeBps: number;
    now: Date;
    from: ReadonlyArray<'active' | 'settling'>;
    /** Who settled it, for the timeline (docs/decisions/011): a model, an operator, or "system". */
    actor?: string;
    /** How it came to settle, for the timeline; default: the verdict's analysis. */
    detail?: string;
    /**
     * The server's escrow (null: none configured). A market whose stakes are on it (an escrow key)
     * has its settlement there queued in this transaction (docs/architecture.md "Markets on the escrow").
     */
    escrow: EscrowTarget | null;
    /**
     * `reviewed`: the review window ended with no flag, the market settles on its proposal, whose
     * settlement on the escrow is already posted and stands. Default `settled`: the list of the
     * settled bets is (re)posted with the contract's minimum delay.
     */
    escrowCause?: 'reviewed' | 'settled';
  },
): Promise<SettlementSummary | null> {
  const { marketId, outcome } = input;
  const market = await lockMarket(tx, marketId);
  if (!market || !input.from.some((status) => status === market.status)) return null;

  const { yesWei, noWei } = await readStakedPools(tx, marketId);
  const poolWei = yesWei + noWei;
  const winningWei = outcome === 'YES' ? yesWei : outcome === 'NO' ? noWei : 0n;
  const feeWei = winningWei === 0n ? 0n : bpsOf(poolWei - winningWei, input.feeBps);
  const held = await listHeldFlagBonds(tx, marketId);
  const bonds = settleFlagBonds({
    bonds: held.flatMap((flag) => (flag.amountWei ? [{ id: flag, amountWei: flag.amountWei }] : [])),
    proposedResult: ProposedSchema.parse(market.proposedResult ?? outcome),
    outcome,
    winningPoolWei: winningWei,
    feeWei,
  });

  let summary: SettlementSummary;
  // (VOID has no winning side, so its winningWei is 0 already; the test narrows the type.)
  if (winningWei === 0n || outcome === 'VOID') {
    // Void, or nobody on the winning side: every stake goes back, no fee (the claims module pays).
    const refundedBets = await refundPendingBets(tx, marketId);
    summary = {
      marketId,
      outcome,
      refunded: true,
      winningBets: 0,
      losingBets: 0,
      refundedBets,
      poolWei,
      feeWei: 0n,
    };
  } else {
    const losingWei = poolWei - winningWei;
    const distributableWei = marketDistributableWei({
      losingPoolWei: losingWei,
      feeWei,
      forfeitedBondsWei: bonds.forfeitedWei,
    });
    const winningBets = await payWinningBets(tx, { marketId, outcome, distributableWei, winningWei });
    const losingBets = await markLosingBets(tx, { marketId, outcome });
    summary = {
      marketId,
      outcome,
      refunded: false,
      winningBets,
      losingBets,
      refundedBets: 0,
      poolWei,
      // What the market keeps: its fee less the flaggers' rewards (docs/decisions/011).
      feeWei: feeWei - bonds.rewardWei,
    };
  }

  await markMarketSettled(tx, { marketId, outcome, verdict: input.verdict, now: input.now });
  await recordResolutionEvent(tx, {
    marketId,
    kind: 'settled',
    actor: input.actor ?? 'system',
    result: outcome,
    detail: input.detail ?? input.verdict.analysis,
    at: input.now,
  });
  await settleBonds(tx, { marketId, bonds, now: input.now });
  await queueMarketSettlement(tx, {
    marketId,
    escrow: input.escrow,
    now: input.now,
    cause: input.escrowCause ?? 'settled',
    readEvidence: () => findLatestEvidence(tx, marketId),
  });
  await recordMarketSettlement(tx, marketId);
  await publish(tx, { topic: 'markets', id: marketId });
  await publish(tx, { topic: 'bets', marketId });
  return summary;
}

const ProposedSchema = z.enum(['YES', 'NO', 'VOID']);

type HeldBond = { id: number; address: string; paymentId: number | null; stakeId: bigint | null };

const BOND_EVENT = {
  returned: 'bond_returned',
  forfeited: 'bond_forfeited',
  returned_void: 'bond_returned_void',
} as const;

const BOND_DETAIL = {
  returned: 'The verdict was overturned: the bond goes back with a reward out of the fee.',
  forfeited: 'The verdict was confirmed: the bond goes to the winners.',
  returned_void: 'The market refunded every stake: the bond goes back.',
} as const;

/**
 * Writes each bond's fate: the flag's status and amounts (bond_return_amount: what the
 * escrow settlement's leaf for its stake pays), and a timeline event.
 */
async function settleBonds(
  tx: DbOrTx,
  input: { marketId: number; bonds: BondSettlement<HeldBond>; now: Date },
): Promise<void> {
  const { fate } = input.bonds;
  if (!fate) return;
  for (const bond of input.bonds.bonds) {
    await recordFlagBondFate(tx, {
      flagId: bond.id.id,
      fate,
      returnWei: bond.returnWei,
      rewardWei: bond.rewardWei,
    });
    // A bond is a dispute deposit the escrow holds (decision 026): the market's settlement on chain
    // lists it by its stake at bond_return_amount (returned), leaves it out (forfeited: its amount is
    // in the winners' payouts) or refunds it with every stake (settleAsRefund).
    await recordResolutionEvent(tx, {
      marketId: input.marketId,
      kind: BOND_EVENT[fate],
      actor: bond.id.address,
      result: null,
      detail: BOND_DETAIL[fate],
      amountWei: fate === 'forfeited' ? bond.bondWei : bond.returnWei,
      rewardWei: bond.rewardWei,
      at: input.now,
    });
  }
  await publish(tx, { topic: 'vault' });
}

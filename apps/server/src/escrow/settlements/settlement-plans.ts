import { isInReview } from '@pm/core/market-rules';
import { bpsOf } from '@pm/core/money';
import { computeMarketPayouts } from '@pm/core/payouts';
import type { DbOrTx } from '../../db/client.ts';
import type { SettlementWaitReason } from '../../metrics/metrics.ts';
import {
  findMarketToSettle,
  listMarketBondStakes,
  listMarketStakes,
  listRoundStakes,
  type PayoutListRow,
} from './payout-lists-repository.ts';

// What a settlement on the escrow pays each stake the server recorded in the market's pool, before
// the refused deposits join (post-settlements-job.ts): an oracle round's bets, or a Predictions market's bets
// and flag bonds. The rules are core's: the round's and the settled market's returns are the ones the
// database holds (settleRoundPayouts, settleMarket), a market in review is paid as its proposal would
// (computeMarketPayouts, the rule settleMarket's SQL follows term for term).

export type PlannedStake = {
  stakeId: bigint;
  owner: string;
  /** The stake as deposited. */
  amount: bigint;
  /** What the settlement pays it (0: a losing bet, a forfeited bond). */
  payout: bigint;
};

export type SettlementPlan = {
  /** What this settlement is, for logs and errors. */
  label: string;
  stakes: PlannedStake[];
  /** The fee the product rule keeps (within `settle`'s fee, with the rounding dust). */
  ruleFee: bigint;
  /** The delay `settle` asks, at least the contract's minimum; null: the minimum. */
  delayS: number | null;
};

export type PlanFees = { oracleBps: number; marketBps: number };

/** Not built yet, for a reason that passes (the job waits and tries again, logged as a warning). */
export class SettlementNotReady extends Error {
  override name = 'SettlementNotReady';
  constructor(
    message: string,
    /** pool_mismatch: the escrow holds another amount than the server recorded (a metric and an alert watch it). */
    readonly reason: SettlementWaitReason = 'not_ready',
  ) {
    super(message);
  }
}

export async function planSettlement(
  db: DbOrTx,
  row: PayoutListRow,
  fees: PlanFees,
  now: Date,
): Promise<SettlementPlan> {
  if (row.epoch !== null) return planRound(db, row.epoch, fees.oracleBps);
  if (row.predictionMarketId !== null) return planMarket(db, row, fees.marketBps, now);
  throw new Error(`payout list ${row.id} names neither a round nor a market`);
}

async function planRound(db: DbOrTx, epoch: number, feeBps: number): Promise<SettlementPlan> {
  const stakes = (await listRoundStakes(db, epoch)).flatMap((stake) =>
    stake.stakeId === null
      ? []
      : [
          {
            stakeId: stake.stakeId,
            owner: stake.owner,
            amount: stake.amount,
            payout: stake.payoutAmount ?? 0n,
          },
        ],
  );
  // The round's fee as core's payouts took it (the fee on the whole pool, rounded down).
  const pool = stakes.reduce((sum, stake) => sum + stake.amount, 0n);
  return { label: `round ${epoch}`, stakes, ruleFee: bpsOf(pool, feeBps), delayS: null };
}

async function planMarket(
  db: DbOrTx,
  row: PayoutListRow,
  feeBps: number,
  now: Date,
): Promise<SettlementPlan> {
  const marketId = row.predictionMarketId ?? 0;
  const label = `market ${marketId}`;
  const market = await findMarketToSettle(db, marketId);
  if (!market) throw new Error(`${label} not found`);
  const bets = await listMarketStakes(db, marketId);
  const unstaked = bets.find((bet) => bet.stakeId === null);
  if (unstaked) {
    throw new Error(`bet ${unstaked.betId} of ${label} (on the escrow) names no stake: it cannot be listed`);
  }
  const bonds = await listMarketBondStakes(db, marketId);
  const entries = bets.map((bet) => ({
    id: bet.betId,
    side: bet.prediction === 'YES' ? ('YES' as const) : ('NO' as const),
    amountWei: bet.amount,
  }));

  if (market.status === 'settled') {
    // The settled bets' returns and the bonds' fates, as settleMarket wrote them.
    const result = market.result === 'YES' || market.result === 'NO' ? market.result : 'VOID';
    const stakes: PlannedStake[] = [];
    for (const bet of bets) {
      if (bet.payoutAmount === null) throw new Error(`bet ${bet.betId} of settled ${label} has no return`);
      stakes.push({
        stakeId: bet.stakeId ?? 0n,
        owner: bet.owner,
        amount: bet.amount,
        payout: bet.payoutAmount,
      });
    }
    let rewards = 0n;
    for (const bond of bonds) {
      if (bond.amount === null || bond.bondStatus === 'held' || bond.returnAmount === null) {
        throw new Error(`flag ${bond.flagId}'s bond in settled ${label} has no fate`);
      }
      rewards += bond.rewardAmount ?? 0n;
      stakes.push({
        stakeId: bond.stakeId ?? 0n,
        owner: bond.owner,
        amount: bond.amount,
        payout: bond.returnAmount,
      });
    }
    // The market's fee (core's rule on its losing pool) less the flaggers' rewards
    // (docs/decisions/011, "Dispute economics").
    const fee = computeMarketPayouts({ bets: entries, result, feeBps }).feeWei - rewards;
    return { label, stakes, ruleFee: fee, delayS: null };
  }

  if (!isInReview(market) || market.proposedResult === null) {
    throw new Error(`${label} is ${market.status} with no verdict: nothing to settle`);
  }
  if (market.flagCount > 0 || bonds.some((bond) => bond.bondStatus === 'held')) {
    throw new SettlementNotReady(
      `${label}'s proposed verdict is flagged: its settlement waits for an operator`,
    );
  }
  const result =
    market.proposedResult === 'YES' || market.proposedResult === 'NO' ? market.proposedResult : 'VOID';
  const computed = computeMarketPayouts({ bets: entries, result, feeBps });
  const returns = new Map(computed.payouts.map((payout) => [payout.id, payout.returnWei]));
  const stakes = bets.map((bet) => ({
    stakeId: bet.stakeId ?? 0n,
    owner: bet.owner,
    amount: bet.amount,
    payout: returns.get(bet.betId) ?? 0n,
  }));
  // Payouts open when the review window ends: the delay is what is left of it.
  const left = Math.ceil(((market.reviewEndsAt?.getTime() ?? now.getTime()) - now.getTime()) / 1000);
  return { label, stakes, ruleFee: computed.feeWei, delayS: Math.max(0, left) };
}

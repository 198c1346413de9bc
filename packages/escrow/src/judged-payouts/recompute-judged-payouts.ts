import { type BondFate, computeBondedMarketPayouts } from '@pm/core/flag-bonds';
import type { Address } from 'viem';
import { SIDE_NO, SIDE_YES } from '../market-escrow-constants.ts';
import type { MarketOutcomeName } from '../market-settlement.ts';
import type { Payout } from '../payout-tree.ts';
import { marketOutcomeName } from './market-outcome-name.ts';

// A judged market's payout list as the product rules give it, from what MarketEscrow recorded alone
// (docs/decisions/034 "Settlement"): the contract accepts a deposit of a judged market only before its
// close, at least the minimum, on a side, and a dispute bond only from a bettor, once, of exactly
// `disputeBond`, so every stake still in the pool is a bet or a bond the rules pay. The rules are
// core's (computeBondedMarketPayouts: the fee on the losing pool, the bonds' fate as decision 011
// "Dispute economics" says), called here, never restated. What a guardian's watcher and `vault:verify`
// compare with the operator's `settle`.

/** A stake as its `Deposited` event records it: side 1 YES, 2 NO, 0 a dispute bond. */
export type JudgedStake = { stakeId: bigint; owner: Address; amount: bigint; side: number };

/** A stake with what the settlement owes it: 0 for a losing bet or a forfeited bond. */
export type ExpectedPayout = JudgedStake & { payout: bigint };

export type RecomputedJudgedPayouts = {
  /** Every stake left in the pool, in the order given, each with its payout. */
  stakes: ExpectedPayout[];
  /** The payout list's leaves: the stakes owed more than 0, in the order given. */
  payouts: Payout[];
  /** Stakes and bonds in, less the stakes refunded. */
  pool: bigint;
  /** `settle`'s payoutTotal: the sum of the payouts. */
  payoutTotal: bigint;
  /** `settle`'s fee, pool − payoutTotal: the fee the rules keep plus the rounding dust. */
  fee: bigint;
  /** The fee the rules keep: the fee on the losing pool less the flaggers' rewards. */
  ruleFee: bigint;
  /** Wei the winners' rounding leaves, which goes with the fee. */
  dust: bigint;
  /** What became of the bonds (null: the market has none). */
  bondFate: BondFate | null;
};

export type JudgedPayoutsInput = {
  /** The market's `Deposited` stakes up to the settlement. */
  stakes: readonly JudgedStake[];
  /** The stake ids `Refunded` before the settlement (the operator's `refundStake`). */
  refunded: readonly bigint[];
  /** The outcome the settlement posts (MARKET_OUTCOME: YES 1, NO 2, VOID 4). */
  outcome: number;
  /**
   * The outcome of the settlement the disputes sent back, the one their bonds contest; null when
   * nothing was disputed.
   */
  disputedOutcome: number | null;
  /** The market's fee in basis points of its losing pool (MARKET_FEE_BPS). */
  feeBps: number;
};

/**
 * The payout each stake of a judged market is owed when it settles on `outcome`, the fee and the
 * total, by core's rules. Throws for inputs the chain cannot produce: an outcome code that is not a
 * market's, a stake listed twice or on no known side, a refund of a stake not listed, a bond with no
 * disputed outcome.
 */
export function recomputeJudgedPayouts(input: JudgedPayoutsInput): RecomputedJudgedPayouts {
  const result = outcomeOf(input.outcome, 'the settlement');
  const refunded = new Set(input.refunded);
  const seen = new Set<bigint>();
  for (const stake of input.stakes) {
    if (seen.has(stake.stakeId)) throw new RangeError(`stake ${stake.stakeId} is listed twice`);
    if (stake.side !== 0 && stake.side !== SIDE_YES && stake.side !== SIDE_NO)
      throw new RangeError(
        `stake ${stake.stakeId} has side ${stake.side}, which is no side of a judged market`,
      );
    seen.add(stake.stakeId);
  }
  for (const stakeId of refunded) {
    if (!seen.has(stakeId)) throw new RangeError(`stake ${stakeId} is refunded but is not a stake listed`);
  }
  const kept = input.stakes.filter((stake) => !refunded.has(stake.stakeId));
  const bets = kept.flatMap((stake) =>
    stake.side === 0
      ? []
      : [
          {
            id: stake.stakeId,
            side: stake.side === SIDE_YES ? ('YES' as const) : ('NO' as const),
            amountWei: stake.amount,
          },
        ],
  );
  const bonds = kept.flatMap((stake) =>
    stake.side === 0 ? [{ id: stake.stakeId, amountWei: stake.amount }] : [],
  );
  if (bonds.length > 0 && input.disputedOutcome === null)
    throw new RangeError('the market holds dispute bonds but no disputed outcome is given');
  // Without bonds the proposal is moot: the settled outcome stands for it (no bond, no fate).
  const proposedResult =
    input.disputedOutcome === null ? result : outcomeOf(input.disputedOutcome, 'the disputed settlement');

  const settled = computeBondedMarketPayouts({
    bets,
    bonds,
    proposedResult,
    result,
    feeBps: input.feeBps,
  });
  const owed = new Map<bigint, bigint>([
    ...settled.bets.payouts.map((payout): [bigint, bigint] => [payout.id, payout.returnWei]),
    ...settled.bonds.bonds.map((bond): [bigint, bigint] => [bond.id, bond.returnWei]),
  ]);
  const stakes = kept.map((stake) => ({ ...stake, payout: owed.get(stake.stakeId) ?? 0n }));
  const pool = kept.reduce((sum, stake) => sum + stake.amount, 0n);
  const payoutTotal = stakes.reduce((sum, stake) => sum + stake.payout, 0n);
  return {
    stakes,
    payouts: stakes.flatMap((stake) =>
      stake.payout > 0n ? [{ stakeId: stake.stakeId, amount: stake.payout }] : [],
    ),
    pool,
    payoutTotal,
    fee: pool - payoutTotal,
    ruleFee: settled.feeKeptWei,
    dust: settled.dustWei,
    bondFate: settled.bonds.fate,
  };
}

function outcomeOf(code: number, what: string): MarketOutcomeName {
  const name = marketOutcomeName(code);
  if (name === null)
    throw new RangeError(`${what} posts outcome ${code}, which is no market outcome (YES 1, NO 2, VOID 4)`);
  return name;
}

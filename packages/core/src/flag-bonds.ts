import { BPS_DENOMINATOR, bpsOf } from './money.ts';
import { computeMarketPayouts, type PayoutComputation, type StakeEntry } from './payouts.ts';

// Bonded flags (docs/decisions/011-resolution-review-window.md "Dispute economics"). A
// free flag would be an option for every loser: flag, and a verdict nobody reviews is voided and
// every stake refunded. So flagging costs a bond deposited into the escrow, and what becomes of it is
// decided here, in integer wei, with the market's payouts:
//   - the verdict is OVERTURNED (settled on another side): every bond comes back in full, plus a
//     reward out of the market's fee: the whole fee, up to the sum of the bonds, shared pro rata
//     to bond (each share rounded down; the rest of the fee stays the fee);
//   - the verdict is CONFIRMED: the bonds join the pool the winners share, pro rata to stake, so
//     whoever delayed the winners pays for the delay;
//   - the market refunds every stake (voided by the timeout or an operator, or no bet on the
//     winning side): every bond comes back, no reward (a refunded market charges no fee).
// Conservation: Σ bet returns + Σ bond returns + fee kept + dust = pool + Σ bonds, to the wei.

/** FLAG_BOND_MIN_WEI's default: 0.01 BNB. */
export const DEFAULT_FLAG_BOND_MIN_WEI = 10n ** 16n;
/** FLAG_BOND_BPS's default: 5% of the market's pool. */
export const DEFAULT_FLAG_BOND_BPS = 500;

/**
 * The bond a flag of this market costs: max(minWei, bps × pool / 10000), rounded down. The pool is
 * every stake of the market, fixed once its deadline passed (a market in review takes no bets).
 */
export function flagBondWei(input: { poolWei: bigint; minWei: bigint; bps: number }): bigint {
  if (input.poolWei < 0n || input.minWei <= 0n)
    throw new RangeError('need a non-negative pool and a positive minimum');
  const share = bpsOf(input.poolWei, input.bps);
  return share > input.minWei ? share : input.minWei;
}

/** What became of a market's bonds, the same for every bond of the market. */
export type BondFate = 'returned' | 'forfeited' | 'returned_void';

export type BondEntry<Id> = { id: Id; amountWei: bigint };

export type BondReturn<Id> = {
  id: Id;
  bondWei: bigint;
  /** What goes back to the flagger: bond + reward, or 0 when forfeited. */
  returnWei: bigint;
  rewardWei: bigint;
};

export type BondSettlement<Id> = {
  /** Null when the market had no bond. */
  fate: BondFate | null;
  bonds: Array<BondReturn<Id>>;
  /** Added to what the winners share (confirmed verdict); 0 otherwise. */
  forfeitedWei: bigint;
  /** Σ rewards, taken out of the market's fee. */
  rewardWei: bigint;
};

function sum(values: ReadonlyArray<bigint>): bigint {
  return values.reduce((total, value) => total + value, 0n);
}

/**
 * Where each bond goes when the market settles on `outcome` after `proposedResult` was flagged.
 * `winningPoolWei` (0: the market refunds every stake) and `feeWei` (the fee the market charges on
 * its losing pool, 0 on a refund) are the bets' own figures under `outcome`.
 */
export function settleFlagBonds<Id>(input: {
  bonds: ReadonlyArray<BondEntry<Id>>;
  proposedResult: 'YES' | 'NO' | 'VOID';
  outcome: 'YES' | 'NO' | 'VOID';
  winningPoolWei: bigint;
  feeWei: bigint;
}): BondSettlement<Id> {
  const { bonds } = input;
  for (const bond of bonds) {
    if (bond.amountWei <= 0n) throw new RangeError(`bonds must be positive, got ${bond.amountWei}`);
  }
  if (input.feeWei < 0n || input.winningPoolWei < 0n)
    throw new RangeError('fee and pool must be non-negative');
  if (bonds.length === 0) return { fate: null, bonds: [], forfeitedWei: 0n, rewardWei: 0n };
  const totalWei = sum(bonds.map((bond) => bond.amountWei));
  const refundMarket = input.outcome === 'VOID' || input.winningPoolWei === 0n;

  if (refundMarket) {
    // Nobody wins, so nobody to forfeit to, and no fee to reward from: each bond comes back.
    return {
      fate: 'returned_void',
      bonds: bonds.map((bond) => ({
        id: bond.id,
        bondWei: bond.amountWei,
        returnWei: bond.amountWei,
        rewardWei: 0n,
      })),
      forfeitedWei: 0n,
      rewardWei: 0n,
    };
  }
  if (input.outcome === input.proposedResult) {
    return {
      fate: 'forfeited',
      bonds: bonds.map((bond) => ({ id: bond.id, bondWei: bond.amountWei, returnWei: 0n, rewardWei: 0n })),
      forfeitedWei: totalWei,
      rewardWei: 0n,
    };
  }
  // Overturned: the reward pool is the whole fee up to the bonds' sum, shared pro rata to bond.
  const rewardPoolWei = input.feeWei < totalWei ? input.feeWei : totalWei;
  const returns = bonds.map((bond) => {
    const rewardWei = (rewardPoolWei * bond.amountWei) / totalWei;
    return { id: bond.id, bondWei: bond.amountWei, returnWei: bond.amountWei + rewardWei, rewardWei };
  });
  return {
    fate: 'returned',
    bonds: returns,
    forfeitedWei: 0n,
    rewardWei: sum(returns.map((r) => r.rewardWei)),
  };
}

export type BondedMarketSettlement<BetId, BondId> = {
  bets: PayoutComputation<BetId>;
  bonds: BondSettlement<BondId>;
  /** The fee the market keeps: its fee on the losing pool minus the flaggers' rewards. */
  feeKeptWei: bigint;
  /** pool + bonds − fee kept − everything returned: rounding left in the escrow. */
  dustWei: bigint;
};

/**
 * A market's whole settlement with its bonds, the reference settleMarket's SQL follows term for
 * term: winners get stake + floor(stake × (losing − fee + forfeited bonds) / winning), the fee is
 * floor(losing × feeBps / 10000) as in computeMarketPayouts, and the bonds go as settleFlagBonds says.
 */
export function computeBondedMarketPayouts<BetId, BondId>(input: {
  bets: ReadonlyArray<StakeEntry<'YES' | 'NO', BetId>>;
  bonds: ReadonlyArray<BondEntry<BondId>>;
  proposedResult: 'YES' | 'NO' | 'VOID';
  result: 'YES' | 'NO' | 'VOID';
  feeBps: number;
}): BondedMarketSettlement<BetId, BondId> {
  const plain = computeMarketPayouts({ bets: input.bets, result: input.result, feeBps: input.feeBps });
  const winningPoolWei =
    plain.refund || input.result === 'VOID'
      ? 0n
      : sum(input.bets.filter((bet) => bet.side === input.result).map((bet) => bet.amountWei));
  const bonds = settleFlagBonds({
    bonds: input.bonds,
    proposedResult: input.proposedResult,
    outcome: input.result,
    winningPoolWei,
    feeWei: plain.feeWei,
  });
  let bets = plain;
  if (bonds.forfeitedWei > 0n) {
    const losingPoolWei = plain.poolWei - winningPoolWei;
    const distributableWei = marketDistributableWei({
      losingPoolWei,
      feeWei: plain.feeWei,
      forfeitedBondsWei: bonds.forfeitedWei,
    });
    const payouts = input.bets
      .filter((bet) => bet.side === input.result)
      .map((bet) => {
        const returnWei = bet.amountWei + (bet.amountWei * distributableWei) / winningPoolWei;
        return { id: bet.id, returnWei, profitWei: returnWei - bet.amountWei };
      });
    const returned = sum(payouts.map((payout) => payout.returnWei));
    bets = {
      ...plain,
      payouts,
      dustWei: plain.poolWei + bonds.forfeitedWei - plain.feeWei - returned,
    };
  }
  const feeKeptWei = plain.feeWei - bonds.rewardWei;
  const returnedWei =
    sum(bets.payouts.map((payout) => payout.returnWei)) + sum(bonds.bonds.map((bond) => bond.returnWei));
  const bondsWei = sum(input.bonds.map((bond) => bond.amountWei));
  return { bets, bonds, feeKeptWei, dustWei: plain.poolWei + bondsWei - feeKeptWei - returnedWei };
}

/** What the winners share beyond their stakes: the losing pool after the fee, plus forfeited bonds. */
export function marketDistributableWei(input: {
  losingPoolWei: bigint;
  feeWei: bigint;
  forfeitedBondsWei: bigint;
}): bigint {
  return input.losingPoolWei - input.feeWei + input.forfeitedBondsWei;
}

/** FLAG_BOND_BPS must be a whole number of basis points from 0 to 10000. */
export function isFlagBondBps(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= BPS_DENOMINATOR;
}

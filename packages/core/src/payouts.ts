import { assertBps, bpsOf } from './money.ts';

// Parimutuel payout maths for both products, in integer wei (docs/architecture.md "Markets", "Oracle rounds").
// Shared shape: the fee is taken first, rounded down (bpsOf); the winners share what is left pro
// rata to stake, each share rounded down; the wei lost to rounding ("dust") stays in the escrow.
// Taking the fee first makes dust < number of winning bets exactly, and gives each winner at
// least as much as applying (1 − fee) inside each share would (at most 1 wei more).

export type StakeEntry<S extends string, Id = string | number> = { id: Id; side: S; amountWei: bigint };

export type Payout<Id> = {
  id: Id;
  /** What the bet gets back in total: stake plus its share (or the stake alone on a refund). */
  returnWei: bigint;
  /** returnWei − stake. Negative only for a round whose fee is larger than the losing pool. */
  profitWei: bigint;
};

export type PayoutComputation<Id> = {
  /** True when every stake goes back as it came (void, draw, cancelled, no winning bets). */
  refund: boolean;
  /** Only the bets that get something back, in input order; losing bets are absent. */
  payouts: Array<Payout<Id>>;
  feeWei: bigint;
  /** poolWei − feeWei − Σ returnWei: rounding left in the escrow, 0 ≤ dust < winning bets. */
  dustWei: bigint;
  /** Every stake, both sides. */
  poolWei: bigint;
};

function assertStakes(bets: ReadonlyArray<{ amountWei: bigint }>): void {
  for (const bet of bets) {
    if (bet.amountWei <= 0n) throw new RangeError(`stakes must be positive, got ${bet.amountWei}`);
  }
}

function sumStakes(bets: ReadonlyArray<{ amountWei: bigint }>): bigint {
  return bets.reduce((sum, bet) => sum + bet.amountWei, 0n);
}

/**
 * The checked inputs of either game split by outcome: the whole pool, the bets on the winning side
 * and their stakes. No winning side (void, draw, cancelled) gives no winners, so a winning pool of 0.
 */
function splitPool<S extends string, Id>(
  bets: ReadonlyArray<StakeEntry<S, Id>>,
  winningSide: S | null,
  feeBps: number,
): { poolWei: bigint; winners: Array<StakeEntry<S, Id>>; winningPoolWei: bigint } {
  assertBps(feeBps);
  assertStakes(bets);
  const winners = winningSide === null ? [] : bets.filter((bet) => bet.side === winningSide);
  return { poolWei: sumStakes(bets), winners, winningPoolWei: sumStakes(winners) };
}

/** The winners' payouts with the fee, and the dust their rounding left in the escrow. */
function paidOut<Id>(payouts: Array<Payout<Id>>, feeWei: bigint, poolWei: bigint): PayoutComputation<Id> {
  return { refund: false, payouts, feeWei, dustWei: poolWei - feeWei - sumReturns(payouts), poolWei };
}

function refundAll<Id>(bets: ReadonlyArray<StakeEntry<string, Id>>, poolWei: bigint): PayoutComputation<Id> {
  return {
    refund: true,
    payouts: bets.map((bet) => ({ id: bet.id, returnWei: bet.amountWei, profitWei: 0n })),
    feeWei: 0n,
    dustWei: 0n,
    poolWei,
  };
}

/**
 * A winning market stake's total return: stake + floor(stake × (losing − fee) / winning), with
 * fee = floor(losing × feeBps / 10000). docs/architecture.md "Markets": the fee is charged on the losing pool.
 */
export function marketWinReturnWei(
  stakeWei: bigint,
  winningPoolWei: bigint,
  losingPoolWei: bigint,
  feeBps: number,
): bigint {
  if (stakeWei <= 0n || winningPoolWei < stakeWei || losingPoolWei < 0n) {
    throw new RangeError('need 0 < stake ≤ winning pool and a non-negative losing pool');
  }
  const distributableWei = losingPoolWei - bpsOf(losingPoolWei, feeBps);
  return stakeWei + (stakeWei * distributableWei) / winningPoolWei;
}

/**
 * docs/architecture.md "Markets": winners get their stake back plus a pro-rata share of the losing pool after the
 * fee (`bets.payout_amount` stores that full return). A void market, or one with no bet on the winning side,
 * refunds every stake and charges no fee.
 */
export function computeMarketPayouts<Id = string | number>(input: {
  bets: ReadonlyArray<StakeEntry<'YES' | 'NO', Id>>;
  result: 'YES' | 'NO' | 'VOID';
  feeBps: number;
}): PayoutComputation<Id> {
  const { bets, result, feeBps } = input;
  const { poolWei, winners, winningPoolWei } = splitPool(bets, result === 'VOID' ? null : result, feeBps);
  if (winningPoolWei === 0n) return refundAll(bets, poolWei);

  const losingPoolWei = poolWei - winningPoolWei;
  const feeWei = bpsOf(losingPoolWei, feeBps);
  const payouts = winners.map((bet) => {
    const returnWei = marketWinReturnWei(bet.amountWei, winningPoolWei, losingPoolWei, feeBps);
    return { id: bet.id, returnWei, profitWei: returnWei - bet.amountWei };
  });
  return paidOut(payouts, feeWei, poolWei);
}

/**
 * A winning round stake's total return: floor(stake × (pool − fee) / winning pool), with
 * fee = floor(pool × feeBps / 10000). docs/architecture.md "Oracle rounds": the fee is charged on the whole pool.
 */
export function roundWinReturnWei(
  stakeWei: bigint,
  winningPoolWei: bigint,
  poolWei: bigint,
  feeBps: number,
): bigint {
  if (stakeWei <= 0n || winningPoolWei < stakeWei || poolWei < winningPoolWei) {
    throw new RangeError('need 0 < stake ≤ winning pool ≤ pool');
  }
  return (stakeWei * (poolWei - bpsOf(poolWei, feeBps))) / winningPoolWei;
}

export type RoundOutcome = 'bull' | 'bear' | 'draw' | 'cancelled';

/** Why a round gives every stake back (docs/architecture.md "Oracle rounds"). */
export type RoundRefundReason = 'cancelled' | 'draw' | 'no_winning_bet';

/**
 * docs/architecture.md "Oracle rounds", deviation from PancakeSwap (which gives these to the house): a cancelled
 * round, a draw, or a round with no bet on the winning side refunds every stake. Null when the winners are paid,
 * or when the round has no result yet.
 */
export function roundRefundReason(
  result: RoundOutcome | null,
  pools: { bullWei: bigint; bearWei: bigint },
): RoundRefundReason | null {
  if (result === null) return null;
  if (result === 'cancelled' || result === 'draw') return result;
  const winningPoolWei = result === 'bull' ? pools.bullWei : pools.bearWei;
  return winningPoolWei === 0n ? 'no_winning_bet' : null;
}

/**
 * docs/architecture.md "Oracle rounds": what a stake about to be placed on `side` would return if that side won
 * with the pools as they are now plus this stake, by the same rule as settlement (`computeRoundPayouts`).
 * An estimate: pools move until the round locks. A zero stake returns nothing.
 */
export function estimateRoundWinWei(input: {
  stakeWei: bigint;
  side: 'bull' | 'bear';
  totalBullWei: bigint;
  totalBearWei: bigint;
  feeBps: number;
}): bigint {
  const { stakeWei, side, totalBullWei, totalBearWei, feeBps } = input;
  if (stakeWei < 0n || totalBullWei < 0n || totalBearWei < 0n)
    throw new RangeError('amounts cannot be negative');
  if (stakeWei === 0n) return 0n;
  const winningPoolWei = (side === 'bull' ? totalBullWei : totalBearWei) + stakeWei;
  return roundWinReturnWei(stakeWei, winningPoolWei, totalBullWei + totalBearWei + stakeWei, feeBps);
}

/**
 * docs/architecture.md "Oracle rounds": winners share totalPool × (1 − fee) pro rata to stake. A round that
 * refunds (`roundRefundReason`) gives every stake back and charges no fee.
 */
export function computeRoundPayouts<Id = string | number>(input: {
  bets: ReadonlyArray<StakeEntry<'bull' | 'bear', Id>>;
  result: RoundOutcome;
  feeBps: number;
}): PayoutComputation<Id> {
  const { bets, result, feeBps } = input;
  const winningSide = result === 'draw' || result === 'cancelled' ? null : result;
  const { poolWei, winners, winningPoolWei } = splitPool(bets, winningSide, feeBps);
  const pools = {
    bullWei: sumStakes(bets.filter((bet) => bet.side === 'bull')),
    bearWei: sumStakes(bets.filter((bet) => bet.side === 'bear')),
  };
  if (roundRefundReason(result, pools) !== null) return refundAll(bets, poolWei);

  const payouts = winners.map((bet) => {
    const returnWei = roundWinReturnWei(bet.amountWei, winningPoolWei, poolWei, feeBps);
    return { id: bet.id, returnWei, profitWei: returnWei - bet.amountWei };
  });
  return paidOut(payouts, bpsOf(poolWei, feeBps), poolWei);
}

function sumReturns(payouts: ReadonlyArray<{ returnWei: bigint }>): bigint {
  return payouts.reduce((sum, payout) => sum + payout.returnWei, 0n);
}

import type { Bet } from './contract/markets.ts';

// The two money words of a settled bet, one meaning everywhere (docs/api.md "Money words"): what it returns and what
// it made. Every bet table stores the return in payout_amount (decision 002); the API's bets, round
// bets, history entries and claimable lists take both fields from here, and serializers copy them.
//   return = everything the bet pays back, stake included: stake + share on a win, the stake on a
//            refund, 0 on a loss; null until the bet is settled
//   profit = return − stake: −stake on a loss, 0 on a refund, the share on a win. A market's win is
//            never below 0; a round's win is when the fee is larger than the losing pool (payouts.ts).

export type BetReturn = { returnWei: bigint; profitWei: bigint };

/** A settled bet's return and profit from its stake and its stored return; null while not settled. */
export function betReturn(stakeWei: bigint, storedReturnWei: bigint | null): BetReturn | null {
  if (storedReturnWei === null) return null;
  return { returnWei: storedReturnWei, profitWei: storedReturnWei - stakeWei };
}

/** The wire fields `returnWei` and `profitWei` (decimal strings, profit signed), both null while not settled. */
export type BetReturnFields = { returnWei: string | null; profitWei: string | null };

export function betReturnFields(stakeWei: bigint, storedReturnWei: bigint | null): BetReturnFields {
  const settled = betReturn(stakeWei, storedReturnWei);
  return {
    returnWei: settled?.returnWei.toString() ?? null,
    profitWei: settled?.profitWei.toString() ?? null,
  };
}

/**
 * What a claimable market bet pays out: its return while won or refunded (docs/product.md §7
 * claimable reads), nothing in any other state (lost, claimed, pending).
 */
export function claimableBetReturnWei(bet: Pick<Bet, 'status' | 'returnWei'>): bigint {
  if (bet.status !== 'won' && bet.status !== 'refunded') return 0n;
  return BigInt(bet.returnWei ?? '0');
}

/** "Your winnings" on one market: what the wallet's claimable bets on it return. */
export function marketWinningsWei(
  claimable: ReadonlyArray<Pick<Bet, 'marketId' | 'status' | 'returnWei'>>,
  marketId: number,
): bigint {
  return claimable
    .filter((bet) => bet.marketId === marketId)
    .reduce((sum, bet) => sum + claimableBetReturnWei(bet), 0n);
}

import type { Bet } from './contract/markets.ts';

// What a market bet made and what it returns, the last money lines that lived outside core
// (issue 20): the API's profit of a bet, computed by the server's serializer, and the market
// page's "your winnings", summed by the web. A market bet's payout_amount holds its full return
// (decision 002); the API's payoutWei keeps meaning the profit of a win.

type MarketResult = 'YES' | 'NO' | 'VOID';

/**
 * The API's payoutWei of a market bet: return − stake for a bet on the market's result, null
 * otherwise (pending, lost, refunded). A bet on the result won: a market with a bet on the winning
 * side refunds nobody, and that holds after the bet is claimed too.
 */
export function marketBetProfitWei(
  bet: { prediction: 'YES' | 'NO'; amountWei: bigint; payoutAmountWei: bigint | null },
  result: MarketResult | null,
): bigint | null {
  if (bet.payoutAmountWei === null || bet.prediction !== result) return null;
  return bet.payoutAmountWei - bet.amountWei;
}

/**
 * What a claimable market bet returns, from the API's fields: stake + profit on a win, the stake
 * on a refund (docs/product.md §7 claimable reads), nothing in any other state.
 */
export function claimableBetReturnWei(bet: Pick<Bet, 'amountWei' | 'status' | 'payoutWei'>): bigint {
  if (bet.status === 'won') return BigInt(bet.amountWei) + BigInt(bet.payoutWei ?? '0');
  if (bet.status === 'refunded') return BigInt(bet.amountWei);
  return 0n;
}

/** "Your winnings" on one market: what the wallet's claimable bets on it return. */
export function marketWinningsWei(
  claimable: ReadonlyArray<Pick<Bet, 'marketId' | 'amountWei' | 'status' | 'payoutWei'>>,
  marketId: number,
): bigint {
  return claimable
    .filter((bet) => bet.marketId === marketId)
    .reduce((sum, bet) => sum + claimableBetReturnWei(bet), 0n);
}

import { BPS_DENOMINATOR } from './money.ts';

// The YES share of a market's pool, in whole basis points, from
// bigint wei (decision 013, market odds over time). Both the server (odds history) and the web cards (current YES %) use this one rule.

/** The most points one odds history answers; more bets are bucketed (last bet of each bucket). */
export const MARKET_ODDS_POINTS_MAX = 200;

/**
 * YES wei / (YES + NO wei) in basis points (0..10000), rounded to the nearest, halves up.
 * `null` when the pool is empty: there is no share to show ("—").
 */
export function yesShareBps(yesWei: bigint, noWei: bigint): number | null {
  if (yesWei < 0n || noWei < 0n) throw new RangeError('pool amounts cannot be negative');
  const total = yesWei + noWei;
  if (total === 0n) return null;
  const denominator = BigInt(BPS_DENOMINATOR);
  // round(yes * 10000 / total) = floor((2 * yes * 10000 + total) / (2 * total))
  return Number((2n * yesWei * denominator + total) / (2n * total));
}

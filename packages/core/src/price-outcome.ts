import { type FeedRound, judgeCoveringRound } from './feed-rounds.ts';
import { priceMarketOutcome } from './price-market.ts';
import { roundResult } from './rounds.ts';

// A price kind's outcome from its feed's rounds (docs/decisions/029, 031): the rule MarketEscrow's
// `settleRound` and `settlePriceMarket` apply on chain, in the same order, so anyone can recompute an
// outcome the contract recorded. A round: a non-positive price at the lock or the close refunds first,
// then a stale one, then close above lock is UP, below DOWN, equal a draw. A price market: a
// non-positive, then a stale price refunds, else YES when strictly beyond the target on its side, else
// NO. Either kind: a winning side nobody took refunds every stake.

/** MarketEscrow's price outcomes: a winning side, or why every stake is refunded. */
export const PRICE_OUTCOME = { yes: 1, no: 2, draw: 3, noWinner: 4, stale: 5, notPositive: 6 } as const;

export type PriceOutcome = (typeof PRICE_OUTCOME)[keyof typeof PRICE_OUTCOME];

/** The feed's round in force at an instant (unix seconds, as the contract keeps it). */
export type PriceAtInstant = { round: FeedRound; instant: number };

/** What each side holds in wei: YES (a round's UP) and NO (DOWN). */
export type SideTotals = { yes: bigint; no: bigint };

export type PriceOutcomeInput = { maxAgeMs: number; sides: SideTotals; close: PriceAtInstant } & (
  | { kind: 'round'; lock: PriceAtInstant }
  | { kind: 'priceMarket'; target: bigint; above: boolean }
);

export function decidePriceOutcome(input: PriceOutcomeInput): PriceOutcome {
  if (input.sides.yes < 0n || input.sides.no < 0n) throw new RangeError('side totals cannot be negative');
  const prices = input.kind === 'round' ? [input.lock, input.close] : [input.close];
  const misses = prices.map(({ round, instant }) =>
    judgeCoveringRound(round, instant * 1000, input.maxAgeMs),
  );
  // Over the lock and the close together: a non-positive price at either wins over a stale one.
  if (misses.some((judged) => !judged.found && judged.reason === 'not_positive'))
    return PRICE_OUTCOME.notPositive;
  if (misses.some((judged) => !judged.found && judged.reason === 'stale')) return PRICE_OUTCOME.stale;

  const side = winningSide(input);
  if (side === PRICE_OUTCOME.draw) return side;
  const winners = side === PRICE_OUTCOME.yes ? input.sides.yes : input.sides.no;
  return winners === 0n ? PRICE_OUTCOME.noWinner : side;
}

/** The side the price decides, before asking whether anyone took it; a round's equal prices draw. */
function winningSide(
  input: PriceOutcomeInput,
): typeof PRICE_OUTCOME.yes | typeof PRICE_OUTCOME.no | typeof PRICE_OUTCOME.draw {
  const settlement = input.close.round.answer;
  if (input.kind === 'round') {
    const result = roundResult(input.lock.round.answer, settlement);
    return result === 'bull' ? PRICE_OUTCOME.yes : result === 'bear' ? PRICE_OUTCOME.no : PRICE_OUTCOME.draw;
  }
  const outcome = priceMarketOutcome({
    comparisonType: input.above ? 'above' : 'below',
    targetScaled: input.target,
    settlementScaled: settlement,
  });
  return outcome === 'YES' ? PRICE_OUTCOME.yes : PRICE_OUTCOME.no;
}

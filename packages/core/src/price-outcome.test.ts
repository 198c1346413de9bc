import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { FeedRound } from './feed-rounds.ts';
import {
  decidePriceOutcome,
  PRICE_OUTCOME,
  type PriceOutcomeInput,
  type SideTotals,
} from './price-outcome.ts';

// The price kinds' outcome rule, branch by branch in MarketEscrow's order, and against a plain
// restatement of `settleRound` / `settlePriceMarket` / `_settlePrice` for any prices, ages and sides.

const MAX_AGE_MS = 120_000;
const LOCK = 1_800_000_000;
const CLOSE = LOCK + 300;
const BOTH: SideTotals = { yes: 10n, no: 30n };

/** A round updated `ageS` seconds before `instant`, answering `answer`. */
const priced = (answer: bigint, instant: number, ageS = 10) => ({
  instant,
  round: { roundId: 7n, answer, updatedAtMs: (instant - ageS) * 1000 } satisfies FeedRound,
});

const round = (
  lock: bigint,
  close: bigint,
  options: { lockAgeS?: number; closeAgeS?: number; sides?: SideTotals } = {},
): PriceOutcomeInput => ({
  kind: 'round',
  maxAgeMs: MAX_AGE_MS,
  sides: options.sides ?? BOTH,
  lock: priced(lock, LOCK, options.lockAgeS),
  close: priced(close, CLOSE, options.closeAgeS),
});

const priceMarket = (
  close: bigint,
  terms: { target: bigint; above: boolean; ageS?: number; sides?: SideTotals },
): PriceOutcomeInput => ({
  kind: 'priceMarket',
  maxAgeMs: MAX_AGE_MS,
  sides: terms.sides ?? BOTH,
  target: terms.target,
  above: terms.above,
  close: priced(close, CLOSE, terms.ageS),
});

describe('a round', () => {
  test('close above lock is UP, below DOWN, equal a draw', () => {
    expect(decidePriceOutcome(round(600n, 601n))).toBe(PRICE_OUTCOME.yes);
    expect(decidePriceOutcome(round(600n, 599n))).toBe(PRICE_OUTCOME.no);
    expect(decidePriceOutcome(round(600n, 600n))).toBe(PRICE_OUTCOME.draw);
  });

  test('a price zero or below at the lock or the close refunds as not positive', () => {
    for (const [lock, close] of [
      [0n, 600n],
      [-1n, 600n],
      [600n, 0n],
      [600n, -5n],
      [0n, 0n],
    ] as const) {
      expect(decidePriceOutcome(round(lock, close))).toBe(PRICE_OUTCOME.notPositive);
    }
  });

  test('a price updated more than maxAge before the lock or the close refunds as stale; exactly maxAge is fresh', () => {
    expect(decidePriceOutcome(round(600n, 601n, { lockAgeS: 121 }))).toBe(PRICE_OUTCOME.stale);
    expect(decidePriceOutcome(round(600n, 601n, { closeAgeS: 121 }))).toBe(PRICE_OUTCOME.stale);
    expect(decidePriceOutcome(round(600n, 601n, { lockAgeS: 120, closeAgeS: 120 }))).toBe(PRICE_OUTCOME.yes);
    expect(decidePriceOutcome(round(600n, 601n, { lockAgeS: 0, closeAgeS: 0 }))).toBe(PRICE_OUTCOME.yes);
  });

  test('not positive wins over stale, at the same instant or across the lock and the close', () => {
    expect(decidePriceOutcome(round(0n, 601n, { lockAgeS: 500 }))).toBe(PRICE_OUTCOME.notPositive);
    expect(decidePriceOutcome(round(600n, 0n, { lockAgeS: 500 }))).toBe(PRICE_OUTCOME.notPositive);
    expect(decidePriceOutcome(round(0n, 601n, { closeAgeS: 500 }))).toBe(PRICE_OUTCOME.notPositive);
  });

  test('a refusal wins over the prices: a stale draw is stale, a stale UP with nobody UP is stale', () => {
    expect(decidePriceOutcome(round(600n, 600n, { closeAgeS: 500 }))).toBe(PRICE_OUTCOME.stale);
    expect(decidePriceOutcome(round(600n, 601n, { closeAgeS: 500, sides: { yes: 0n, no: 5n } }))).toBe(
      PRICE_OUTCOME.stale,
    );
  });

  test('a winning side nobody took refunds as no winner; a draw stays a draw with one side empty', () => {
    expect(decidePriceOutcome(round(600n, 601n, { sides: { yes: 0n, no: 5n } }))).toBe(
      PRICE_OUTCOME.noWinner,
    );
    expect(decidePriceOutcome(round(600n, 599n, { sides: { yes: 5n, no: 0n } }))).toBe(
      PRICE_OUTCOME.noWinner,
    );
    expect(decidePriceOutcome(round(600n, 601n, { sides: { yes: 5n, no: 0n } }))).toBe(PRICE_OUTCOME.yes);
    expect(decidePriceOutcome(round(600n, 600n, { sides: { yes: 0n, no: 5n } }))).toBe(PRICE_OUTCOME.draw);
  });
});

describe('a price market', () => {
  test('above: YES only strictly above the target; below: YES only strictly below; equal is NO either way', () => {
    const target = 100_000_00000000n;
    expect(decidePriceOutcome(priceMarket(target + 1n, { target, above: true }))).toBe(PRICE_OUTCOME.yes);
    expect(decidePriceOutcome(priceMarket(target, { target, above: true }))).toBe(PRICE_OUTCOME.no);
    expect(decidePriceOutcome(priceMarket(target - 1n, { target, above: true }))).toBe(PRICE_OUTCOME.no);
    expect(decidePriceOutcome(priceMarket(target - 1n, { target, above: false }))).toBe(PRICE_OUTCOME.yes);
    expect(decidePriceOutcome(priceMarket(target, { target, above: false }))).toBe(PRICE_OUTCOME.no);
    expect(decidePriceOutcome(priceMarket(target + 1n, { target, above: false }))).toBe(PRICE_OUTCOME.no);
  });

  test('not positive before stale before the target, and a side nobody took refunds', () => {
    const target = 10n;
    expect(decidePriceOutcome(priceMarket(0n, { target, above: false, ageS: 500 }))).toBe(
      PRICE_OUTCOME.notPositive,
    );
    expect(decidePriceOutcome(priceMarket(-3n, { target, above: false }))).toBe(PRICE_OUTCOME.notPositive);
    expect(decidePriceOutcome(priceMarket(11n, { target, above: true, ageS: 121 }))).toBe(
      PRICE_OUTCOME.stale,
    );
    expect(decidePriceOutcome(priceMarket(11n, { target, above: true, ageS: 120 }))).toBe(PRICE_OUTCOME.yes);
    expect(decidePriceOutcome(priceMarket(11n, { target, above: true, sides: { yes: 0n, no: 1n } }))).toBe(
      PRICE_OUTCOME.noWinner,
    );
    expect(decidePriceOutcome(priceMarket(10n, { target, above: true, sides: { yes: 1n, no: 0n } }))).toBe(
      PRICE_OUTCOME.noWinner,
    );
  });
});

test('negative side totals are refused', () => {
  expect(() => decidePriceOutcome(round(600n, 601n, { sides: { yes: -1n, no: 0n } }))).toThrow(RangeError);
});

/** MarketEscrow's rule read straight off the contract, with nothing of core's. */
function restated(input: PriceOutcomeInput): number {
  const verdict = ({ round: { answer, updatedAtMs }, instant }: { round: FeedRound; instant: number }) =>
    answer <= 0n ? 'notPositive' : instant - updatedAtMs / 1000 > input.maxAgeMs / 1000 ? 'stale' : 'inForce';
  let outcome: number;
  if (input.kind === 'round') {
    const lock = verdict(input.lock);
    const close = verdict(input.close);
    const [lockAnswer, closeAnswer] = [input.lock.round.answer, input.close.round.answer];
    if (lock === 'notPositive' || close === 'notPositive') outcome = 6;
    else if (lock === 'stale' || close === 'stale') outcome = 5;
    else if (closeAnswer > lockAnswer) outcome = 1;
    else if (closeAnswer < lockAnswer) outcome = 2;
    else outcome = 3;
  } else {
    const close = verdict(input.close);
    const answer = input.close.round.answer;
    if (close === 'notPositive') outcome = 6;
    else if (close === 'stale') outcome = 5;
    else if (input.above ? answer > input.target : answer < input.target) outcome = 1;
    else outcome = 2;
  }
  if ((outcome === 1 && input.sides.yes === 0n) || (outcome === 2 && input.sides.no === 0n)) outcome = 4;
  return outcome;
}

const answer = fc.oneof(fc.bigInt({ min: -3n, max: 3n }), fc.bigInt({ min: 1n, max: 10n ** 15n }));
const ageS = fc.oneof(fc.constantFrom(0, 119, 120, 121), fc.integer({ min: 0, max: 1_000 }));
const side = fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 24n }));
const sides = fc.record({ yes: side, no: side });
/** Prices apart, or a close within 2 of the lock (equal a fifth of the time). */
const lockAndClose = fc.oneof(
  fc.tuple(answer, answer),
  fc.tuple(answer, fc.bigInt({ min: -2n, max: 2n })).map(([lock, offset]) => [lock, lock + offset] as const),
);
const maxAgeMs = fc.integer({ min: 1, max: 600 }).map((seconds) => seconds * 1000);

describe('the rule is the contract restated', () => {
  test('for any lock and close prices, ages and sides, a round decides as the contract', () => {
    fc.assert(
      fc.property(
        lockAndClose,
        ageS,
        ageS,
        sides,
        maxAgeMs,
        ([lock, close], lockAge, closeAge, totals, maxAge) => {
          const input: PriceOutcomeInput = {
            kind: 'round',
            maxAgeMs: maxAge,
            sides: totals,
            lock: priced(lock, LOCK, lockAge),
            close: priced(close, CLOSE, closeAge),
          };
          expect(decidePriceOutcome(input)).toBe(restated(input));
        },
      ),
    );
  });

  test('for any close price, target, side of it, age and sides, a price market decides as the contract', () => {
    const nearTarget = fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.bigInt({ min: -2n, max: 2n }))
      .map(([target, offset]) => ({ target, close: target + offset }));
    fc.assert(
      fc.property(
        fc.oneof(nearTarget, fc.record({ target: fc.bigInt({ min: 1n, max: 10n }), close: answer })),
        fc.boolean(),
        ageS,
        sides,
        maxAgeMs,
        ({ target, close }, above, age, totals, maxAge) => {
          const input: PriceOutcomeInput = {
            kind: 'priceMarket',
            maxAgeMs: maxAge,
            sides: totals,
            target,
            above,
            close: priced(close, CLOSE, age),
          };
          expect(decidePriceOutcome(input)).toBe(restated(input));
        },
      ),
    );
  });
});

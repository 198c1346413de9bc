import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PRICE_OUTCOME, type PriceOutcome } from './price-outcome.ts';
import { type PriceSide, priceStakeReturnWei } from './price-payouts.ts';

// A price kind's stake return, branch by branch, and over whole pools: every stake paid or refunded,
// the winners' sum never above what they share and short of it by less than one wei each.

const YES = PRICE_OUTCOME.yes;
const NO = PRICE_OUTCOME.no;
const REFUNDS = [
  PRICE_OUTCOME.draw,
  PRICE_OUTCOME.noWinner,
  PRICE_OUTCOME.stale,
  PRICE_OUTCOME.notPositive,
] as const;

describe('priceStakeReturnWei', () => {
  test('a winner gets its share of the payout total, rounded down', () => {
    // A pool of 3 wei on YES and 1 on NO at a 10 % fee (0 of 4 wei): 4 shared by 3 wei of winners.
    expect(
      priceStakeReturnWei({ amount: 1n, side: YES, outcome: YES, payoutTotal: 4n, winningSideTotal: 3n }),
    ).toBe(1n);
    expect(
      priceStakeReturnWei({ amount: 2n, side: YES, outcome: YES, payoutTotal: 4n, winningSideTotal: 3n }),
    ).toBe(2n);
    expect(
      priceStakeReturnWei({
        amount: 10n ** 18n,
        side: NO,
        outcome: NO,
        payoutTotal: 2_910_000_000_000_000_000n,
        winningSideTotal: 2n * 10n ** 18n,
      }),
    ).toBe(1_455_000_000_000_000_000n);
  });

  test('a loser gets nothing', () => {
    expect(
      priceStakeReturnWei({ amount: 5n, side: NO, outcome: YES, payoutTotal: 9n, winningSideTotal: 4n }),
    ).toBe(0n);
    expect(
      priceStakeReturnWei({ amount: 5n, side: YES, outcome: NO, payoutTotal: 9n, winningSideTotal: 4n }),
    ).toBe(0n);
  });

  test('every refunding outcome gives the stake back, whatever the totals say', () => {
    for (const outcome of REFUNDS) {
      for (const side of [YES, NO] as const) {
        expect(
          priceStakeReturnWei({ amount: 7n, side, outcome, payoutTotal: 0n, winningSideTotal: 0n }),
        ).toBe(7n);
      }
    }
  });

  test('a stake of 0, an unknown side or outcome, and a winning side smaller than the stake are refused', () => {
    const base = { amount: 5n, side: YES as PriceSide, outcome: YES as PriceOutcome, payoutTotal: 9n };
    expect(() => priceStakeReturnWei({ ...base, amount: 0n, winningSideTotal: 9n })).toThrow(RangeError);
    expect(() => priceStakeReturnWei({ ...base, side: 0 as PriceSide, winningSideTotal: 9n })).toThrow(
      RangeError,
    );
    expect(() => priceStakeReturnWei({ ...base, outcome: 7 as PriceOutcome, winningSideTotal: 9n })).toThrow(
      RangeError,
    );
    expect(() => priceStakeReturnWei({ ...base, winningSideTotal: 4n })).toThrow(RangeError);
    expect(() => priceStakeReturnWei({ ...base, payoutTotal: -1n, winningSideTotal: 9n })).toThrow(
      RangeError,
    );
  });

  test('over any pool and fee, the winners are paid at most the payout total and short of it by less than a wei each', () => {
    const stake = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 10n ** 24n }));
    fc.assert(
      fc.property(
        fc.array(fc.record({ side: fc.constantFrom(YES, NO), amount: stake }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom(YES, NO),
        (stakes, feeBps, outcome) => {
          const pool = stakes.reduce((sum, each) => sum + each.amount, 0n);
          const winners = stakes.filter((each) => each.side === outcome);
          const winningSideTotal = winners.reduce((sum, each) => sum + each.amount, 0n);
          // The contract's settlement: nobody on the winning side refunds every stake.
          if (winningSideTotal === 0n) return;
          const payoutTotal = pool - (pool * BigInt(feeBps)) / 10_000n;
          const paid = stakes.map((each) =>
            priceStakeReturnWei({ ...each, outcome, payoutTotal, winningSideTotal }),
          );
          const sum = paid.reduce((total, each) => total + each, 0n);
          expect(sum).toBeLessThanOrEqual(payoutTotal);
          expect(payoutTotal - sum).toBeLessThan(BigInt(winners.length));
          stakes.forEach((each, index) => {
            if (each.side !== outcome) expect(paid[index]).toBe(0n);
          });
        },
      ),
    );
  });
});

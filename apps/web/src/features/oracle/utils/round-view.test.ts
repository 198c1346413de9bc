import { describe, expect, test } from 'vitest';
import { nextConcludedState, readLastSeenEpoch } from './concluded-round.ts';
import { roundMultipliers, usdChange } from './round-view.ts';

const BNB = 10n ** 18n;

describe('round view helpers', () => {
  test('multipliers follow docs/product.md §9', () => {
    expect(roundMultipliers({ totalUpWei: (3n * BNB).toString(), totalDownWei: BNB.toString() })).toEqual({
      up: '1.33',
      down: '4.00',
    });
    expect(roundMultipliers({ totalUpWei: '0', totalDownWei: '0' })).toEqual({ up: '0.00', down: '0.00' });
  });

  test('the change since lock is exact, in 1e8 units', () => {
    expect(usdChange('600', '600.25')).toBe(25_000_000n);
    expect(usdChange('600', '599')).toBe(-100_000_000n);
    expect(usdChange('600', '600')).toBe(0n);
  });
});

describe('concluded-round modal state (docs/product.md §4)', () => {
  test('the first visit only stores the latest ended epoch', () => {
    expect(nextConcludedState(null, 10)).toEqual({ store: 10, announce: null });
    expect(nextConcludedState(null, undefined)).toEqual({ store: null, announce: null });
    // First visit before any round ended: the first round to end afterwards is announced.
    expect(nextConcludedState(null, null)).toEqual({ store: 0, announce: null });
    expect(nextConcludedState(0, 1)).toEqual({ store: 1, announce: 1 });
  });

  test('a newer ended epoch is announced once and stored', () => {
    expect(nextConcludedState(10, 11)).toEqual({ store: 11, announce: 11 });
    expect(nextConcludedState(11, 11)).toEqual({ store: null, announce: null });
  });

  test('nothing ended yet, or an older epoch, changes nothing', () => {
    expect(nextConcludedState(10, null)).toEqual({ store: null, announce: null });
    expect(nextConcludedState(10, 9)).toEqual({ store: null, announce: null });
  });

  test('a stored value that is not an epoch counts as a first visit', () => {
    expect(readLastSeenEpoch({ getItem: () => 'abc' })).toBeNull();
    expect(readLastSeenEpoch({ getItem: () => '42' })).toBe(42);
    expect(readLastSeenEpoch(undefined)).toBeNull();
  });
});

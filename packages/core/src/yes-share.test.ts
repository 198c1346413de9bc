import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { WEI_PER_BNB } from './money.ts';
import { yesShareBps } from './yes-share.ts';

describe('yesShareBps', () => {
  test('an empty pool has no share', () => {
    expect(yesShareBps(0n, 0n)).toBeNull();
  });

  test('one-sided pools are 0 % and 100 %', () => {
    expect(yesShareBps(WEI_PER_BNB, 0n)).toBe(10_000);
    expect(yesShareBps(0n, 5n)).toBe(0);
  });

  test('shares are exact basis points of the wei pool', () => {
    expect(yesShareBps(1n, 1n)).toBe(5_000);
    expect(yesShareBps(3n * WEI_PER_BNB, 1n * WEI_PER_BNB)).toBe(7_500);
    expect(yesShareBps(1n, 2n)).toBe(3_333);
    expect(yesShareBps(2n, 1n)).toBe(6_667);
  });

  test('halves round up and tiny shares round to the nearest basis point', () => {
    // 1 / 20000 = 0.5 bp → 1; 1 / 20001 < 0.5 bp → 0
    expect(yesShareBps(1n, 19_999n)).toBe(1);
    expect(yesShareBps(1n, 20_000n)).toBe(0);
  });

  test('amounts beyond float precision stay exact', () => {
    const huge = 2n ** 255n;
    expect(yesShareBps(huge, huge)).toBe(5_000);
    expect(yesShareBps(huge + 1n, huge - 1n)).toBe(5_000);
  });

  test('negative amounts are refused', () => {
    expect(() => yesShareBps(-1n, 1n)).toThrow(RangeError);
  });

  test('the YES and NO shares always add up to the whole, within one rounding step', () => {
    const wei = fc.bigInt({ min: 0n, max: 2n ** 200n });
    fc.assert(
      fc.property(wei, wei, (yes, no) => {
        fc.pre(yes + no > 0n);
        const yesBps = yesShareBps(yes, no) ?? -1;
        const noBps = yesShareBps(no, yes) ?? -1;
        expect(yesBps).toBeGreaterThanOrEqual(0);
        expect(yesBps).toBeLessThanOrEqual(10_000);
        expect(Math.abs(yesBps + noBps - 10_000)).toBeLessThanOrEqual(1);
        // never further than half a basis point from the exact share
        const error = BigInt(yesBps) * (yes + no) - yes * 10_000n;
        expect(2n * (error < 0n ? -error : error) <= yes + no).toBe(true);
      }),
    );
  });
});

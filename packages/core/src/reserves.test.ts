import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseBnb } from './money.ts';
import { reserveRatioBps, reservesReport } from './reserves.ts';

const bnb = parseBnb;

describe('the ratio and the report', () => {
  test('the ratio is floor(balance × 10000 / owed), null when nothing is owed', () => {
    expect(reserveRatioBps(bnb('1'), bnb('1'))).toBe(10_000n);
    expect(reserveRatioBps(bnb('1') - 1n, bnb('1'))).toBe(9_999n);
    expect(reserveRatioBps(bnb('3'), bnb('2'))).toBe(15_000n);
    expect(reserveRatioBps(0n, bnb('2'))).toBe(0n);
    expect(reserveRatioBps(bnb('5'), 0n)).toBeNull();
    // A ratio a float could not hold exactly stays exact.
    expect(reserveRatioBps(10n ** 30n, 1n)).toBe(10n ** 34n);
    expect(() => reserveRatioBps(-1n, 1n)).toThrow(RangeError);
  });

  test('the ratio is below 10000 exactly when the escrow is short', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 27n }),
        fc.bigInt({ min: 1n, max: 10n ** 27n }),
        (balance, owed) => {
          const ratio = reserveRatioBps(balance, owed);
          expect(ratio).not.toBeNull();
          expect((ratio ?? 0n) < 10_000n).toBe(balance < owed);
        },
      ),
    );
  });

  test('a report says covered or short, by how much, and what is above the liabilities', () => {
    expect(reservesReport({ blockNumber: 9n, balanceWei: bnb('3'), liabilitiesWei: bnb('2') })).toEqual({
      blockNumber: 9n,
      balanceWei: bnb('3'),
      liabilitiesWei: bnb('2'),
      covered: true,
      shortfallWei: 0n,
      excessWei: bnb('1'),
      reserveRatioBps: 15_000n,
    });
    expect(
      reservesReport({ blockNumber: 9n, balanceWei: bnb('1.5'), liabilitiesWei: bnb('2') }),
    ).toMatchObject({
      covered: false,
      shortfallWei: bnb('0.5'),
      excessWei: 0n,
      reserveRatioBps: 7_500n,
    });
    expect(reservesReport({ blockNumber: 1n, balanceWei: 0n, liabilitiesWei: 0n })).toMatchObject({
      covered: true,
      reserveRatioBps: null,
    });
  });

  test('shortfall and excess: one of them is 0, and balance + shortfall = liabilities + excess', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 27n }),
        fc.bigInt({ min: 0n, max: 10n ** 27n }),
        (b, l) => {
          const report = reservesReport({ blockNumber: 1n, balanceWei: b, liabilitiesWei: l });
          expect(report.shortfallWei === 0n || report.excessWei === 0n).toBe(true);
          expect(b + report.shortfallWei).toBe(l + report.excessWei);
          expect(report.covered).toBe(report.shortfallWei === 0n);
        },
      ),
    );
  });
});

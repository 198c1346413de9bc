import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkTargetPrice, formatGapBps, targetGapBps } from './price-terms.ts';

describe('checkTargetPrice', () => {
  test('A positive USD price with at most 2 decimals is taken as typed, with its scaled value', () => {
    expect(checkTargetPrice('100000.5')).toEqual({
      ok: true,
      target: '100000.5',
      scaled: 10_000_050_000_000n,
    });
    expect(checkTargetPrice(' 0.01 ')).toEqual({ ok: true, target: '0.01', scaled: 1_000_000n });
  });

  test('Empty, zero, negative, over 2 decimals, exponents and separators are refused', () => {
    expect(checkTargetPrice('  ')).toEqual({ ok: false, reason: 'empty' });
    for (const bad of ['0', '0.00', '-5', '1.234', '1e5', '1,000', '.5', '01'])
      expect(checkTargetPrice(bad)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('targetGapBps', () => {
  test('The gap is in basis points of the current price, rounded toward zero', () => {
    expect(targetGapBps(10_000_000_000_000n, 10_150_000_000_000n)).toBe(150n);
    expect(targetGapBps(10_000_000_000_000n, 9_876_543_210_000n)).toBe(-123n);
    expect(targetGapBps(300n, 301n)).toBe(33n);
  });

  test('Without a positive current price there is no gap', () => {
    expect(targetGapBps(0n, 5n)).toBeNull();
  });

  test('The gap has the sign of target minus current and never overstates it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        (current, target) => {
          const gap = targetGapBps(current, target) ?? 0n;
          const exact = (target - current) * 10_000n;
          // |gap| * current ≤ |exact| < (|gap| + 1) * current
          const magnitude = gap < 0n ? -gap : gap;
          const exactMagnitude = exact < 0n ? -exact : exact;
          return (
            (gap === 0n || gap > 0n === target > current) &&
            magnitude * current <= exactMagnitude &&
            exactMagnitude < (magnitude + 1n) * current
          );
        },
      ),
    );
  });
});

test('A gap reads as a signed percentage with two decimals, in both languages', () => {
  expect(formatGapBps(150n, 'en')).toBe('+1.50%');
  expect(formatGapBps(-1234n, 'zh')).toBe('-12.34%');
  expect(formatGapBps(0n, 'en')).toBe('0.00%');
  expect(formatGapBps(1_234_567n, 'en')).toBe('+12,345.67%');
});

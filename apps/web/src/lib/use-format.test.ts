import { describe, expect, test } from 'vitest';
import {
  formatBnb,
  formatCount,
  formatCountdown,
  formatPercent,
  formatPrice,
  formatUsd,
} from './use-format.ts';

const WEI = 10n ** 18n;

describe('formatBnb', () => {
  test('A vault balance reads with digit grouping and 4 decimals in both languages', () => {
    const wei = 10_000n * WEI + 29n * 10n ** 16n;
    expect(formatBnb(wei)).toBe('10,000.2900 BNB');
    expect(formatBnb(wei, { language: 'zh' })).toBe('10,000.2900 BNB');
  });

  test('Zero and one wei read as zero, never as a negative or a rounded-up amount', () => {
    expect(formatBnb(0n)).toBe('0.0000 BNB');
    expect(formatBnb(1n)).toBe('0.0000 BNB');
    expect(formatBnb(1n, { decimals: 18 })).toBe('0.000000000000000001 BNB');
    expect(formatBnb(-1n)).toBe('0.0000 BNB');
  });

  test('Amounts beyond what a float holds keep every digit', () => {
    // 2^256 − 1 wei: far past Number.MAX_SAFE_INTEGER.
    const max = 2n ** 256n - 1n;
    expect(formatBnb(max, { decimals: 18, symbol: null })).toBe(
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584007913129639935',
    );
    expect(formatBnb(9_007_199_254_740_993n * WEI + 1n, { decimals: 18 })).toBe(
      '9,007,199,254,740,993.000000000000000001 BNB',
    );
  });

  test('Decimals are cut toward zero, not rounded', () => {
    expect(formatBnb(999_999_999_999_999_999n)).toBe('0.9999 BNB');
    expect(formatBnb(-999_999_999_999_999_999n)).toBe('-0.9999 BNB');
  });

  test('A net P&L shows its sign: plus for a gain, minus for a loss, none for zero', () => {
    const options = { signDisplay: 'exceptZero' } as const;
    expect(formatBnb(15n * 10n ** 17n, options)).toBe('+1.5000 BNB');
    expect(formatBnb(-1_234n * WEI - 5n * 10n ** 17n, options)).toBe('-1,234.5000 BNB');
    expect(formatBnb(-1_234n * WEI, { ...options, language: 'zh' })).toBe('-1,234.0000 BNB');
    expect(formatBnb(0n, options)).toBe('0.0000 BNB');
    expect(formatBnb(-5n * 10n ** 17n)).toBe('-0.5000 BNB');
  });

  test('Typed amounts can drop trailing zeros, and the unit can be left to the sentence', () => {
    expect(formatBnb(5n * 10n ** 15n, { decimals: 18, trim: true })).toBe('0.005 BNB');
    expect(formatBnb(2n * WEI, { decimals: 18, trim: true, symbol: null })).toBe('2');
    expect(formatBnb(2n * WEI, { symbol: 'tBNB', decimals: 0 })).toBe('2 tBNB');
    expect(formatBnb('1000000000000000000000', { symbol: null })).toBe('1,000.0000');
  });

  test('More decimals than BNB has is a programming error', () => {
    expect(() => formatBnb(1n, { decimals: 19 })).toThrow(RangeError);
  });
});

describe('formatUsd and formatPrice', () => {
  test('A USD value is currency with cents: $ in English, US$ in Chinese', () => {
    const scaled = 599_344_306n * 10n ** 6n; // 5,993,443.06 at 1e8
    expect(formatUsd(scaled)).toBe('$5,993,443.06');
    expect(formatUsd(scaled, { language: 'zh' })).toBe('US$5,993,443.06');
    expect(formatUsd('0')).toBe('$0.00');
  });

  test('A BNB/USD price shows 4 decimals from the API text, exactly', () => {
    expect(formatPrice('612.34567891')).toBe('$612.3456');
    expect(formatPrice('1234.5')).toBe('$1,234.5000');
    expect(formatPrice('612.3456', { language: 'zh' })).toBe('US$612.3456');
  });

  test('A price change carries its sign before the currency symbol', () => {
    expect(formatPrice(123_000_000n, { signDisplay: 'exceptZero' })).toBe('+$1.2300');
    expect(formatPrice(-50_000_000n, { signDisplay: 'exceptZero' })).toBe('-$0.5000');
    expect(formatPrice(0n, { signDisplay: 'exceptZero' })).toBe('$0.0000');
  });
});

describe('formatPercent and formatCount', () => {
  test('Ratios read as percentages in both languages', () => {
    expect(formatPercent(0.62)).toBe('62%');
    expect(formatPercent(0.625, { decimals: 1, language: 'zh' })).toBe('62.5%');
    expect(formatPercent(0)).toBe('0%');
  });

  test('Counts are grouped', () => {
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(12_345n, 'zh')).toBe('12,345');
  });
});

describe('formatCountdown', () => {
  test('Countdowns read m:ss, and h:mm:ss past an hour; a passed instant reads 0:00', () => {
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(59.9)).toBe('0:59');
    expect(formatCountdown(250)).toBe('4:10');
    expect(formatCountdown(3723)).toBe('1:02:03');
    expect(formatCountdown(36_000)).toBe('10:00:00');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});

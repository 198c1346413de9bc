import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bpsOf, formatBnb, formatBnbWithUnit, MoneyParseError, parseBnb, WEI_PER_BNB } from './money.ts';

function parseErrorCode(text: string): string | null {
  try {
    parseBnb(text);
    return null;
  } catch (error) {
    return error instanceof MoneyParseError ? error.code : 'not a MoneyParseError';
  }
}

describe('parseBnb', () => {
  test('whole and decimal amounts become exact wei', () => {
    expect(parseBnb('1')).toBe(WEI_PER_BNB);
    expect(parseBnb('0.005')).toBe(5_000_000_000_000_000n);
    expect(parseBnb('.5')).toBe(500_000_000_000_000_000n);
    expect(parseBnb('1.')).toBe(WEI_PER_BNB);
    expect(parseBnb('0.000000000000000001')).toBe(1n);
    expect(parseBnb('123456789.123456789123456789')).toBe(123_456_789_123_456_789_123_456_789n);
    expect(parseBnb('0')).toBe(0n);
    expect(parseBnb('007.50')).toBe(7_500_000_000_000_000_000n);
  });

  test('surrounding whitespace is ignored', () => {
    expect(parseBnb('  0.01\n')).toBe(10_000_000_000_000_000n);
  });

  test('empty text is rejected as EMPTY', () => {
    expect(parseErrorCode('')).toBe('EMPTY');
    expect(parseErrorCode('   ')).toBe('EMPTY');
  });

  test('negative amounts are rejected as NEGATIVE', () => {
    expect(parseErrorCode('-1')).toBe('NEGATIVE');
    expect(parseErrorCode(' -0.5')).toBe('NEGATIVE');
  });

  test('more than 18 decimals is rejected as TOO_PRECISE', () => {
    expect(parseErrorCode('0.0000000000000000001')).toBe('TOO_PRECISE');
  });

  test('anything but a plain decimal is rejected as INVALID', () => {
    for (const text of [
      '1e18',
      '1E3',
      '+1',
      '1,5',
      '1 000',
      '0x10',
      'Infinity',
      'NaN',
      '1.2.3',
      '.',
      '-',
      '--1',
      'abc',
      '١',
      '1_000',
    ]) {
      expect(parseErrorCode(text), text).toBe('INVALID');
    }
  });

  test('the error keeps the input and a short message', () => {
    const error = new MoneyParseError('TOO_PRECISE', '0.1234567890123456789');
    expect(error.input).toBe('0.1234567890123456789');
    expect(error.message).toMatch(/18 decimals/);
    expect(error).toBeInstanceOf(Error);
  });

  test('formatting with all 18 decimals and parsing back gives the same wei', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (wei) => {
        expect(parseBnb(formatBnb(wei, { decimals: 18 }))).toBe(wei);
      }),
    );
  });
});

describe('formatBnb', () => {
  test('shows 4 decimals by default and rounds down', () => {
    expect(formatBnb(12_345_678_901_234_567_890n)).toBe('12.3456');
    expect(formatBnb(99_999_999_999_999_999n)).toBe('0.0999');
    expect(formatBnb(0n)).toBe('0.0000');
    expect(formatBnb(5_000_000_000_000_000n)).toBe('0.0050');
  });

  test('decimals can be anything from 0 to 18', () => {
    expect(formatBnb(1_999_999_999_999_999_999n, { decimals: 0 })).toBe('1');
    expect(formatBnb(1n, { decimals: 18 })).toBe('0.000000000000000001');
    expect(formatBnb(1_234_560_000_000_000_000n, { decimals: 5 })).toBe('1.23456');
    expect(() => formatBnb(1n, { decimals: 19 })).toThrow(RangeError);
    expect(() => formatBnb(1n, { decimals: -1 })).toThrow(RangeError);
    expect(() => formatBnb(1n, { decimals: 2.5 })).toThrow(RangeError);
  });

  test('trim drops trailing zeros and a bare dot', () => {
    expect(formatBnb(1_500_000_000_000_000_000n, { trim: true })).toBe('1.5');
    expect(formatBnb(2n * WEI_PER_BNB, { trim: true })).toBe('2');
    expect(formatBnb(0n, { trim: true })).toBe('0');
  });

  test('negative amounts keep their sign and round toward zero', () => {
    expect(formatBnb(-12_345_678_901_234_567_890n)).toBe('-12.3456');
    expect(formatBnb(-1n)).toBe('0.0000');
  });

  test('the shown amount never exceeds the real amount', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (wei, decimals) => {
          const shown = parseBnb(formatBnb(wei, { decimals }));
          expect(shown <= wei).toBe(true);
          expect(wei - shown < 10n ** BigInt(18 - decimals)).toBe(true);
        },
      ),
    );
  });
});

describe('formatBnbWithUnit', () => {
  test('appends the symbol, BNB by default', () => {
    expect(formatBnbWithUnit(5_000_000_000_000_000n)).toBe('0.0050 BNB');
    expect(formatBnbWithUnit(WEI_PER_BNB, { symbol: 'tBNB', decimals: 2 })).toBe('1.00 tBNB');
    expect(formatBnbWithUnit(WEI_PER_BNB, { trim: true })).toBe('1 BNB');
  });
});

describe('bpsOf', () => {
  test('takes a floor share in basis points', () => {
    expect(bpsOf(10_000n, 250)).toBe(250n);
    expect(bpsOf(999n, 100)).toBe(9n);
    expect(bpsOf(123n, 0)).toBe(0n);
    expect(bpsOf(123n, 10_000)).toBe(123n);
  });

  test('rejects a rate outside 0..10000 or not whole', () => {
    expect(() => bpsOf(1n, -1)).toThrow(RangeError);
    expect(() => bpsOf(1n, 10_001)).toThrow(RangeError);
    expect(() => bpsOf(1n, 1.5)).toThrow(RangeError);
    expect(() => bpsOf(1n, Number.NaN)).toThrow(RangeError);
  });
});

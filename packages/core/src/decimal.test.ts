import { describe, expect, test } from 'vitest';
import { floorDiv, formatScaledDecimal, parseScaledDecimal } from './decimal.ts';

describe('parseScaledDecimal', () => {
  test('a plain decimal becomes an exact scaled integer', () => {
    expect(parseScaledDecimal('12.34', 4)).toEqual({ ok: true, value: 123_400n });
    expect(parseScaledDecimal('7', 0)).toEqual({ ok: true, value: 7n });
  });

  test('each kind of bad text gets its own code', () => {
    expect(parseScaledDecimal('  ', 2)).toEqual({ ok: false, code: 'EMPTY' });
    expect(parseScaledDecimal('-1', 2)).toEqual({ ok: false, code: 'NEGATIVE' });
    expect(parseScaledDecimal('-x', 2)).toEqual({ ok: false, code: 'INVALID' });
    expect(parseScaledDecimal('1.234', 2)).toEqual({ ok: false, code: 'TOO_PRECISE' });
  });

  test('a scale outside 0..78 is a programming error', () => {
    expect(() => parseScaledDecimal('1', -1)).toThrow(RangeError);
    expect(() => parseScaledDecimal('1', 1.5)).toThrow(RangeError);
  });
});

describe('formatScaledDecimal', () => {
  test('digits beyond the shown decimals are cut, not rounded', () => {
    expect(formatScaledDecimal(129n, 2, 1, false)).toBe('1.2');
    expect(formatScaledDecimal(-129n, 2, 1, false)).toBe('-1.2');
  });

  test('shown decimals cannot exceed the scale', () => {
    expect(() => formatScaledDecimal(1n, 2, 3, false)).toThrow(RangeError);
  });
});

describe('floorDiv', () => {
  test('rounds toward negative infinity, unlike bigint division', () => {
    expect(floorDiv(7n, 2n)).toBe(3n);
    expect(floorDiv(-7n, 2n)).toBe(-4n);
    expect(floorDiv(-8n, 2n)).toBe(-4n);
    expect(() => floorDiv(1n, 0n)).toThrow(RangeError);
  });
});

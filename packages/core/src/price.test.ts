import { describe, expect, test } from 'vitest';
import {
  formatUsdPrice,
  PriceParseError,
  parseUsdPrice,
  usdFeedDescription,
  usdValueOfWei,
} from './price.ts';

describe('parseUsdPrice', () => {
  test('a decimal price becomes an integer scaled by 1e8', () => {
    expect(parseUsdPrice('612.34')).toBe(61_234_000_000n);
    expect(parseUsdPrice('0.00000001')).toBe(1n);
    expect(parseUsdPrice(' 600 ')).toBe(60_000_000_000n);
  });

  test('junk and more than 8 decimals are rejected', () => {
    for (const text of ['', '1e3', '-1', '$600', '600,00', '0.000000001', 'NaN']) {
      expect(() => parseUsdPrice(text), text).toThrow(PriceParseError);
    }
  });
});

describe('formatUsdPrice', () => {
  test('shows 2 decimals by default, rounding down', () => {
    expect(formatUsdPrice(61_234_999_999n)).toBe('612.34');
    expect(formatUsdPrice(61_234_567_890n, 8)).toBe('612.34567890');
    expect(formatUsdPrice(61_234_567_890n, 0)).toBe('612');
  });

  test('rejects decimals outside 0..8', () => {
    expect(() => formatUsdPrice(1n, 9)).toThrow(RangeError);
  });
});

describe('usdValueOfWei', () => {
  test('values an amount of wei at a scaled price, rounded down', () => {
    // 0.5 BNB at $612.34 = $306.17
    expect(usdValueOfWei(500_000_000_000_000_000n, 61_234_000_000n)).toBe(30_617_000_000n);
    // 1 wei is worth far less than 1e-8 USD.
    expect(usdValueOfWei(1n, 61_234_000_000n)).toBe(0n);
  });
});

test("a coin's USD feed is named as Chainlink names it", () => {
  expect(usdFeedDescription('BNB')).toBe('BNB / USD');
  expect(usdFeedDescription('DOGE')).toBe('DOGE / USD');
});

import fc from 'fast-check';
import { keccak256, stringToHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { COMPARISON_TYPES, MARKET_DURATIONS, PRICE_SYMBOLS } from './constants.ts';
import { TargetPriceSchema } from './contract/primitives.ts';
import { formatUsdPrice } from './price.ts';
import {
  formatTargetUsd,
  priceMarketContentHash,
  priceMarketOutcome,
  priceMarketTitle,
  priceMarketTitleParts,
  priceReadingRelation,
  targetPriceScaled,
} from './price-market.ts';

const scaled = fc.bigInt({ min: 1n, max: 10n ** 20n });
const comparison = fc.constantFrom(...COMPARISON_TYPES);
/** A target as a creator may type it: 1 to 12 integer digits, then none, one or two decimals. */
const targetText = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 999_999_999_999n }),
    fc.constantFrom(0, 1, 2),
    fc.bigInt({ min: 0n, max: 99n }),
  )
  .map(([whole, decimals, fraction]) => {
    if (decimals === 0) return whole.toString();
    const digits = fraction.toString().padStart(2, '0').slice(0, decimals);
    return `${whole}.${digits}`;
  })
  .filter((text) => /[1-9]/.test(text));

describe('the outcome of a price market', () => {
  test('above is YES only when strictly greater: one unit of 1e-8 above is YES, equal and below are NO', () => {
    fc.assert(
      fc.property(scaled, (target) => {
        const at = (settlement: bigint) =>
          priceMarketOutcome({ comparisonType: 'above', targetScaled: target, settlementScaled: settlement });
        expect(at(target + 1n)).toBe('YES');
        expect(at(target)).toBe('NO');
        expect(at(target - 1n)).toBe('NO');
      }),
    );
  });

  test('below is YES only when strictly less: one unit below is YES, equal and above are NO', () => {
    fc.assert(
      fc.property(scaled, (target) => {
        const at = (settlement: bigint) =>
          priceMarketOutcome({ comparisonType: 'below', targetScaled: target, settlementScaled: settlement });
        expect(at(target - 1n)).toBe('YES');
        expect(at(target)).toBe('NO');
        expect(at(target + 1n)).toBe('NO');
      }),
    );
  });

  test('a price equal to the target is NO whichever way the market asks', () => {
    fc.assert(
      fc.property(scaled, comparison, (target, comparisonType) => {
        expect(priceMarketOutcome({ comparisonType, targetScaled: target, settlementScaled: target })).toBe(
          'NO',
        );
      }),
    );
  });

  test('away from the target, above and below answer opposite ways', () => {
    fc.assert(
      fc.property(scaled, scaled, (target, settlement) => {
        fc.pre(target !== settlement);
        const above = priceMarketOutcome({
          comparisonType: 'above',
          targetScaled: target,
          settlementScaled: settlement,
        });
        const below = priceMarketOutcome({
          comparisonType: 'below',
          targetScaled: target,
          settlementScaled: settlement,
        });
        expect(above).not.toBe(below);
      }),
    );
  });
});

describe('the target price', () => {
  test('decimal strings with 0 to 2 decimals scale to exact 1e8 integers and back', () => {
    fc.assert(
      fc.property(targetText, (text) => {
        expect(TargetPriceSchema.safeParse(text).success).toBe(true);
        const value = targetPriceScaled(text);
        const [whole = '0', fraction = ''] = text.split('.');
        expect(value).toBe(BigInt(whole) * 10n ** 8n + BigInt(fraction.padEnd(8, '0')));
        // Back to text with 2 decimals: the same number as typed, padded.
        expect(formatUsdPrice(value, 2)).toBe(`${BigInt(whole)}.${fraction.padEnd(2, '0')}`);
      }),
    );
  });

  test('"100000.5" is 100,000.50 in a title and 10000050000000 scaled', () => {
    expect(targetPriceScaled('100000.5')).toBe(10_000_050_000_000n);
    expect(formatTargetUsd('100000.5')).toBe('100,000.50');
    expect(formatTargetUsd('0.01')).toBe('0.01');
    expect(formatTargetUsd('999999999999.99')).toBe('999,999,999,999.99');
  });

  test('the schema refuses what is not a positive price with at most 2 decimals', () => {
    for (const text of ['0', '0.00', '-1', '1.234', '1e5', '01', '1,000', ' 1', '1.', '.5', 'NaN', '']) {
      expect(TargetPriceSchema.safeParse(text).success).toBe(false);
    }
  });
});

describe('the content hash a creation pays for', () => {
  test('is keccak256 of the UTF-8 JSON array of the terms, the target exactly as sent', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PRICE_SYMBOLS),
        comparison,
        targetText,
        fc.constantFrom(...MARKET_DURATIONS),
        (targetSymbol, comparisonType, targetPrice, duration) => {
          const terms = { targetSymbol, comparisonType, targetPrice, duration };
          const expected = keccak256(
            stringToHex(
              `["price_prediction","${targetSymbol}","${comparisonType}","${targetPrice}","${duration}"]`,
            ),
          );
          expect(priceMarketContentHash(terms)).toBe(expected);
        },
      ),
    );
  });

  test('"100000" and "100000.00" are the same price but different terms, so different hashes', () => {
    const base = { targetSymbol: 'BTC', comparisonType: 'above', duration: 'hourly' } as const;
    expect(priceMarketContentHash({ ...base, targetPrice: '100000' })).not.toBe(
      priceMarketContentHash({ ...base, targetPrice: '100000.00' }),
    );
  });
});

describe('the title', () => {
  test('names the coin, the comparison, the target and the deadline in UTC with its date', () => {
    const input = {
      targetSymbol: 'BTC',
      comparisonType: 'above',
      targetPrice: '100000',
      deadline: new Date('2026-11-25T18:00:00.000Z'),
    } as const;
    expect(priceMarketTitle(input)).toBe('Will BTC be above $100,000.00 at 18:00 UTC on 2026-11-25?');
    expect(priceMarketTitleParts(input)).toEqual({
      symbol: 'BTC',
      comparison: 'above',
      target: '100,000.00',
      timeUtc: '18:00',
      dateUtc: '2026-11-25',
    });
  });

  test('uses UTC whatever the time zone: a deadline just after midnight UTC is that day', () => {
    const parts = priceMarketTitleParts({
      targetSymbol: 'DOGE',
      comparisonType: 'below',
      targetPrice: '0.3',
      deadline: new Date('2026-01-01T00:05:59.999Z'),
    });
    expect(parts).toMatchObject({ timeUtc: '00:05', dateUtc: '2026-01-01', target: '0.30' });
  });
});

describe('a reading against its target', () => {
  test('a reading is above, below or equal to the target by one unit of 1e-8', () => {
    fc.assert(
      fc.property(scaled, (target) => {
        const at = (settlement: bigint) =>
          priceReadingRelation({ targetScaled: target, settlementScaled: settlement });
        expect(at(target + 1n)).toBe('above');
        expect(at(target)).toBe('equal');
        expect(at(target - 1n)).toBe('below');
      }),
    );
  });
});

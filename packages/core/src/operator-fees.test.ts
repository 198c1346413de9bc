import fc from 'fast-check';
import { parseGwei } from 'viem';
import { describe, expect, test } from 'vitest';
import { capFees, replacementFees } from './operator-fees.ts';

const gwei = (value: string) => parseGwei(value);

describe('fees', () => {
  test('market fees are capped at the ceiling, priority never above the max fee', () => {
    expect(capFees({ maxFeePerGas: gwei('20'), maxPriorityFeePerGas: gwei('15') }, gwei('10'))).toEqual({
      maxFeePerGas: gwei('10'),
      maxPriorityFeePerGas: gwei('10'),
    });
    expect(capFees({ maxFeePerGas: gwei('2'), maxPriorityFeePerGas: gwei('1') }, gwei('10'))).toEqual({
      maxFeePerGas: gwei('2'),
      maxPriorityFeePerGas: gwei('1'),
    });
  });

  test('a replacement raises both fees by at least 12.5% and follows a higher market', () => {
    const previous = { maxFeePerGas: gwei('2'), maxPriorityFeePerGas: gwei('1') };
    const next = replacementFees(
      previous,
      { maxFeePerGas: gwei('1'), maxPriorityFeePerGas: gwei('1') },
      gwei('10'),
    );
    expect(next?.maxFeePerGas).toBeGreaterThanOrEqual((previous.maxFeePerGas * 1125n) / 1000n);
    expect(next?.maxPriorityFeePerGas).toBeGreaterThanOrEqual(
      (previous.maxPriorityFeePerGas * 1125n) / 1000n,
    );
    const market = { maxFeePerGas: gwei('5'), maxPriorityFeePerGas: gwei('3') };
    expect(replacementFees(previous, market, gwei('10'))).toEqual(market);
  });

  test('replacements never pass the ceiling, however often they are repeated', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.bigInt({ min: 1n, max: gwei('50') }),
        (rounds, ceiling) => {
          let fees = capFees({ maxFeePerGas: gwei('1'), maxPriorityFeePerGas: gwei('1') }, ceiling);
          for (let i = 0; i < rounds; i++) {
            const next = replacementFees(fees, fees, ceiling);
            if (!next) break;
            fees = next;
          }
          return fees.maxFeePerGas <= ceiling && fees.maxPriorityFeePerGas <= fees.maxFeePerGas;
        },
      ),
    );
  });

  test('at the ceiling there is no valid replacement', () => {
    const atCeiling = { maxFeePerGas: gwei('10'), maxPriorityFeePerGas: gwei('1') };
    expect(replacementFees(atCeiling, atCeiling, gwei('10'))).toBeNull();
  });
});

import fc from 'fast-check';
import { parseGwei } from 'viem';
import { describe, expect, test } from 'vitest';
import {
  capFees,
  payoutGasLimit,
  payoutReissueTypedData,
  refundHoldReason,
  replacementFees,
  TRANSFER_GAS,
} from './vault-transfers.ts';

const gwei = (value: string) => parseGwei(value);

describe('payout gas', () => {
  test('a payout gets 20% above its estimate, and never less than a plain transfer', () => {
    expect(payoutGasLimit(21_001n)).toBe(25_202n);
    expect(payoutGasLimit(43_106n)).toBe(51_728n);
    expect(payoutGasLimit(0n)).toBe(TRANSFER_GAS);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 9n }), (estimate) => {
        const limit = payoutGasLimit(estimate);
        return limit >= TRANSFER_GAS && limit >= estimate;
      }),
    );
  });
});

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

describe('refunds held for an operator', () => {
  test('a refund of 0, one not above its gas cost, or one below the floor is held; others are paid', () => {
    expect(refundHoldReason({ amountWei: 0n, gasCostWei: 0n, minWei: 0n })).toMatch(/amount 0/);
    expect(refundHoldReason({ amountWei: 1000n, gasCostWei: 1000n, minWei: 0n })).toMatch(/gas cost/);
    expect(refundHoldReason({ amountWei: 5000n, gasCostWei: 1000n, minWei: 6000n })).toMatch(
      /REFUND_MIN_WEI/,
    );
    expect(refundHoldReason({ amountWei: 5000n, gasCostWei: 1000n, minWei: 5000n })).toBeNull();
  });
});

describe('re-issue signature', () => {
  test('the typed data names the app, the chain, the payout, the new address and the expiry', () => {
    const data = payoutReissueTypedData({
      chainId: 56,
      payoutId: 7,
      newAddress: '0x0000000000000000000000000000000000000001',
      expiry: 1_800_000_000n,
    });
    expect(data.domain).toEqual({ name: 'BNB Predict', version: '1', chainId: 56 });
    expect(data.message).toEqual({
      payoutId: 7n,
      newAddress: '0x0000000000000000000000000000000000000001',
      expiry: 1_800_000_000n,
    });
  });
});

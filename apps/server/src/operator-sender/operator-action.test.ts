import { describe, expect, test } from 'vitest';
import { MAX_GAS_CAP, OperatorActionSchema, operatorGasLimit } from './operator-action.ts';

describe('operatorGasLimit', () => {
  test('is the estimate plus 20 %, rounded up, under the cap', () => {
    expect(operatorGasLimit(100_000n, 200_000n)).toBe(120_000n);
    expect(operatorGasLimit(21_001n, 30_000n)).toBe(25_202n);
  });

  test('is the cap when the margin would pass it, and null when the estimate itself does', () => {
    expect(operatorGasLimit(190_000n, 200_000n)).toBe(200_000n);
    expect(operatorGasLimit(200_000n, 200_000n)).toBe(200_000n);
    expect(operatorGasLimit(200_001n, 200_000n)).toBeNull();
  });

  test('is the cap itself for an action signed at its cap, whatever the estimate under it', () => {
    expect(operatorGasLimit(40_000n, 6_100_000n, true)).toBe(6_100_000n);
    expect(operatorGasLimit(6_100_001n, 6_100_000n, true)).toBeNull();
  });
});

describe('OperatorActionSchema', () => {
  const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

  test('fills value and data, and stores addresses and bytes lower-case', () => {
    expect(OperatorActionSchema.parse({ key: 'k', to, gasCap: 21_000n })).toEqual({
      key: 'k',
      to: to.toLowerCase(),
      data: '0x',
      value: 0n,
      gasCap: 21_000n,
      signAtCap: false,
    });
    expect(OperatorActionSchema.parse({ key: 'k', to, data: '0xABcd', gasCap: 50_000n }).data).toBe('0xabcd');
  });

  test.each([
    ['no key', { key: '', to, gasCap: 21_000n }],
    ['a key too long', { key: 'k'.repeat(201), to, gasCap: 21_000n }],
    ['a bad address', { key: 'k', to: '0x1234', gasCap: 21_000n }],
    ['odd hex', { key: 'k', to, data: '0xabc', gasCap: 21_000n }],
    ['not hex', { key: 'k', to, data: 'hello', gasCap: 21_000n }],
    ['a negative value', { key: 'k', to, value: -1n, gasCap: 21_000n }],
    ['a cap below a transfer', { key: 'k', to, gasCap: 20_999n }],
    ['a cap above a transaction', { key: 'k', to, gasCap: MAX_GAS_CAP + 1n }],
    ['a cap as a number', { key: 'k', to, gasCap: 21_000 }],
  ])('refuses %s', (_name, input) => {
    expect(OperatorActionSchema.safeParse(input).success).toBe(false);
  });
});

import { describe, expect, test } from 'vitest';
import { PlaceOracleBetBodySchema } from './oracle.ts';

const body = {
  epoch: 0,
  position: 'bull',
  amountWei: '10000000000000000',
  userAddress: `0x${'cd'.repeat(20)}`,
  txHash: `0x${'ab'.repeat(32)}`,
};

describe('PlaceOracleBetBodySchema', () => {
  test('accepts epoch 0, the genesis round', () => {
    expect(PlaceOracleBetBodySchema.parse(body)).toEqual(body);
  });

  test('the epoch is a whole, non-negative number and is not coerced from text', () => {
    for (const epoch of [-1, 1.5, '3', 2 ** 53]) {
      const issue = PlaceOracleBetBodySchema.safeParse({ ...body, epoch }).error?.issues[0];
      expect(issue?.path, String(epoch)).toEqual(['epoch']);
    }
  });

  test('unknown fields are refused', () => {
    expect(PlaceOracleBetBodySchema.safeParse({ ...body, bonus: 1 }).success).toBe(false);
  });
});

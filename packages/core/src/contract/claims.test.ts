import { expect, test } from 'vitest';
import { ClaimBodySchema } from './claims.ts';

const userAddress = `0x${'cd'.repeat(20)}`;

test('a claim names a scope and optionally one positive whole bet id', () => {
  expect(ClaimBodySchema.parse({ userAddress, scope: 'all' })).toEqual({ userAddress, scope: 'all' });
  expect(ClaimBodySchema.parse({ userAddress, scope: 'markets', betId: 4 }).betId).toBe(4);
  for (const betId of [0, -1, 1.5, '4', null]) {
    expect(ClaimBodySchema.safeParse({ userAddress, scope: 'markets', betId }).success, String(betId)).toBe(
      false,
    );
  }
});

test('a claim with an unknown scope or an unknown field is refused', () => {
  expect(ClaimBodySchema.safeParse({ userAddress, scope: 'everything' }).success).toBe(false);
  expect(ClaimBodySchema.safeParse({ userAddress, scope: 'all', amountWei: '1' }).success).toBe(false);
});

import { expect, test } from 'vitest';
import { BetSchema } from './markets.ts';
import { UserBetSchema } from './users.ts';

test("a user's bet is a bet with a summary of its market", () => {
  expect(Object.keys(UserBetSchema.shape)).toEqual([...Object.keys(BetSchema.shape), 'market']);
  const bet = {
    id: 1,
    marketId: 2,
    userAddress: `0x${'cd'.repeat(20)}`,
    prediction: 'YES',
    amountWei: '1',
    potentialPayoutWei: '2',
    returnWei: null,
    profitWei: null,
    payoutWei: null,
    status: 'pending',
    isCreator: true,
    txHash: `0x${'ab'.repeat(32)}`,
    createdAt: '2024-01-01T00:00:00.000Z',
    market: {
      title: 'T',
      status: 'active',
      result: null,
      category: 'crypto',
      deadline: '2024-01-01T01:00:00.000Z',
    },
  };
  expect(UserBetSchema.parse(bet)).toEqual(bet);
  expect(UserBetSchema.safeParse({ ...bet, market: { ...bet.market, category: 'weather' } }).success).toBe(
    false,
  );
});

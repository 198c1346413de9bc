import { expect, test } from 'vitest';
import { BetSchema } from './markets.ts';
import { EscrowClaimSchema } from './payout-lists.ts';
import { ClaimableBondSchema, ClaimableMarketBetSchema, UserBetSchema } from './users.ts';

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

test("a claimable round bet's escrow claim: what the wallet's own claim needs, checked at the edge", () => {
  const claim = {
    market: `0x${'ab'.repeat(32)}`,
    stakeId: '12',
    owner: `0x${'cd'.repeat(20)}`,
    amountWei: '5',
    payoutWei: '8',
    proof: [`0x${'11'.repeat(32)}`],
    claimableAt: '2026-11-26T12:00:00.000Z',
    refund: false,
  };
  expect(EscrowClaimSchema.parse(claim)).toEqual(claim);
  const refund = { ...claim, payoutWei: '5', proof: [], refund: true };
  expect(EscrowClaimSchema.parse(refund)).toEqual(refund);
  for (const bad of [
    { stakeId: '0' },
    { stakeId: '1.5' },
    { proof: ['0x11'] },
    { market: '0xab' },
    { payoutWei: '0' },
  ]) {
    expect(EscrowClaimSchema.safeParse({ ...claim, ...bad }).success).toBe(false);
  }
});

test("a claimable bond: a flag's bond on the escrow that came back, with its claim", () => {
  const bond = {
    flagId: 3,
    marketId: 7,
    marketTitle: 'Will it rain?',
    fate: 'returned',
    bondWei: '10',
    returnWei: '12',
    escrowClaim: null,
  };
  expect(ClaimableBondSchema.parse(bond)).toEqual(bond);
  for (const bad of [{ fate: 'forfeited' }, { fate: 'held' }, { returnWei: '-1' }, { flagId: 1.5 }]) {
    expect(ClaimableBondSchema.safeParse({ ...bond, ...bad }).success).toBe(false);
  }
  // A market bet in the claimable list carries its escrow claim (null: not final on chain yet).
  expect(Object.keys(ClaimableMarketBetSchema.shape)).toEqual([
    ...Object.keys(UserBetSchema.shape),
    'escrowClaim',
  ]);
});

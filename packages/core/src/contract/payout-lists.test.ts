import { describe, expect, test } from 'vitest';
import { type EscrowClaim, EscrowClaimSchema, escrowClaimArg, escrowStakeRef } from './payout-lists.ts';

const claim: EscrowClaim = EscrowClaimSchema.parse({
  market: `0x${'ab'.repeat(32)}`,
  stakeId: '12',
  owner: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  amountWei: '10000000000000000',
  payoutWei: '25000000000000000',
  proof: [`0x${'01'.repeat(32)}`, `0x${'02'.repeat(32)}`],
  claimableAt: '2026-11-27T03:00:00.000Z',
  refund: false,
});

describe('an escrow claim as the contract takes it', () => {
  test('its StakeRef is the stake as deposited, in integers', () => {
    expect(escrowStakeRef(claim)).toEqual({
      stakeId: 12n,
      owner: claim.owner,
      market: claim.market,
      amount: 10_000_000_000_000_000n,
    });
  });

  test('its Claim pays the listed payout with the published proof', () => {
    expect(escrowClaimArg(claim)).toEqual({
      stake: escrowStakeRef(claim),
      payout: 25_000_000_000_000_000n,
      proof: claim.proof,
    });
  });
});

import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { type Address, createTestClient, http } from 'viem';
import { eventually } from './api.ts';
import { baseUrl, rpcUrl } from './fixtures.ts';
import { getRounds } from './helpers.ts';

// Rounds on the escrow contract from a test's side (issue 29, decision 026).

/** A block now: the stack mines one every 2 s, this makes the next one sooner. */
async function mineBlock(): Promise<void> {
  await createTestClient({ mode: 'hardhat', transport: http(rpcUrl()) }).mine({ blocks: 1 });
}

/**
 * `owner`'s claim of round `epoch` once its payout list is published and the contract pays it (the
 * settlement's delay passed on the chain's clock, which is the server's on the local chain).
 */
export async function publishedClaim(owner: Address, epoch: number): Promise<EscrowClaim> {
  const claim = await eventually(async () => {
    await mineBlock();
    const response = await fetch(`${baseUrl()}/api/users/${owner}/claimable`);
    const claimable = ClaimableResponseSchema.parse(await response.json());
    return claimable.oracle.bets.find((bet) => bet.epoch === epoch)?.escrowClaim ?? null;
  }, 120_000);
  await eventually(async () => {
    await mineBlock();
    return Date.parse((await getRounds()).serverTime) >= Date.parse(claim.claimableAt);
  }, 120_000);
  return claim;
}

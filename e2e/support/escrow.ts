import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { type Address, createTestClient, http } from 'viem';
import { eventually } from './api.ts';
import { advanceChainTime } from './chain.ts';
import { baseUrl, rpcUrl } from './fixtures.ts';
import { getRounds } from './helpers.ts';

// Rounds on the escrow contract from a test's side (decision 026).

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

/**
 * `owner`'s claim of its bet on market `marketId` once the market's payout list is published and the
 * contract pays it: a judged market's settlement was posted when its verdict was proposed, its delay
 * the rest of the review window and at least the contract's minimum (60 s on the dev chain), so the
 * chain's clock is moved past it, as time passing would.
 */
export async function openMarketClaim(owner: Address, marketId: number): Promise<EscrowClaim> {
  const claim = await eventually(async () => {
    await mineBlock();
    const response = await fetch(`${baseUrl()}/api/users/${owner}/claimable`);
    const claimable = ClaimableResponseSchema.parse(await response.json());
    return claimable.markets.bets.find((bet) => bet.marketId === marketId)?.escrowClaim ?? null;
  }, 120_000);
  await eventually(async () => {
    const serverTime = Date.parse((await getRounds()).serverTime);
    const wait = Math.ceil((Date.parse(claim.claimableAt) - serverTime) / 1000);
    if (wait <= 0) return true;
    await advanceChainTime(wait + 1);
    return null;
  }, 60_000);
  return claim;
}

import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import type { Address } from 'viem';
import type { Config } from 'wagmi';
import { readContract } from 'wagmi/actions';

// What the wallet's own claim (decision 026) asks the escrow before offering anything. Loaded with the
// self-claim part (a connected wallet on the oracle page, a market page or My Bets, where the deployment
// names an escrow), never
// at a route's start (docs/decisions/006).

/** The escrow contract, as GET /api/config names it. */
export type EscrowTarget = { address: Address; chainId: number };

/** `credits(owner)`: payouts whose push to `owner` failed, waiting for `withdraw`. */
export function readCredits(config: Config, escrow: EscrowTarget, owner: Address): Promise<bigint> {
  return readContract(config, {
    address: escrow.address,
    chainId: escrow.chainId,
    abi: predictionEscrowAbi,
    functionName: 'credits',
    args: [owner],
  });
}

/** The stakes of `stakeIds` still open on the contract (`stakes(id)` not yet zeroed by a payout or refund). */
export async function readOpenStakes(
  config: Config,
  escrow: EscrowTarget,
  stakeIds: readonly string[],
): Promise<Set<string>> {
  const hashes = await Promise.all(
    stakeIds.map((stakeId) =>
      readContract(config, {
        address: escrow.address,
        chainId: escrow.chainId,
        abi: predictionEscrowAbi,
        functionName: 'stakes',
        args: [BigInt(stakeId)],
      }),
    ),
  );
  return new Set(stakeIds.filter((_, index) => !/^0x0*$/.test(hashes[index] ?? '0x')));
}

import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import type { Hex } from 'viem';

export type Payout = { stakeId: bigint; amount: bigint };

/** The leaf encoding `PredictionEscrow.claim` checks: OpenZeppelin's standard (double-hashed) leaf. */
export const PAYOUT_LEAF_ENCODING = ['uint256', 'uint256'];

export type PayoutTree = {
  root: Hex;
  total: bigint;
  /** The proof of one stake's payout; throws for a stake not in the list. */
  proof(stakeId: bigint): Hex[];
  /** The list as OpenZeppelin's JSON dump: what the server publishes for anyone to recompute the root. */
  dump(): unknown;
};

/**
 * The commitment a settlement posts: a Merkle root and total over (stake id, amount). A list must
 * name each stake once, with an amount above zero.
 */
export function buildPayoutTree(payouts: readonly Payout[]): PayoutTree {
  if (payouts.length === 0) throw new Error('A payout list needs at least one payout (else: refund)');
  const seen = new Set<bigint>();
  for (const payout of payouts) {
    if (payout.amount <= 0n) throw new Error(`Stake ${payout.stakeId}: a payout must be above zero`);
    if (seen.has(payout.stakeId)) throw new Error(`Stake ${payout.stakeId} is listed twice`);
    seen.add(payout.stakeId);
  }
  // Decimal strings, so the dump is plain JSON.
  const tree = StandardMerkleTree.of<[string, string]>(
    payouts.map((payout) => [payout.stakeId.toString(), payout.amount.toString()]),
    PAYOUT_LEAF_ENCODING,
  );
  const indexByStake = new Map<bigint, number>();
  for (const [index, [stakeId]] of tree.entries()) indexByStake.set(BigInt(stakeId), index);
  return {
    root: asHex(tree.root),
    total: payouts.reduce((sum, payout) => sum + payout.amount, 0n),
    proof(stakeId) {
      const index = indexByStake.get(stakeId);
      if (index === undefined) throw new Error(`Stake ${stakeId} is not in the payout list`);
      return tree.getProof(index).map(asHex);
    },
    dump: () => tree.dump(),
  };
}

function asHex(value: string): Hex {
  if (!value.startsWith('0x')) throw new Error(`Not hex: ${value}`);
  return `0x${value.slice(2)}`;
}

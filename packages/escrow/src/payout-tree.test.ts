import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { describe, expect, test } from 'vitest';
import { buildPayoutTree, PAYOUT_LEAF_ENCODING } from './payout-tree.ts';

describe('buildPayoutTree', () => {
  const payouts = [
    { stakeId: 1n, amount: 10n ** 18n },
    { stakeId: 7n, amount: 5n },
    { stakeId: 3n, amount: 2n ** 200n },
  ];

  test('each stake gets a proof of its amount under the root, and the total is the sum', () => {
    const tree = buildPayoutTree(payouts);
    expect(tree.total).toBe(10n ** 18n + 5n + 2n ** 200n);
    for (const { stakeId, amount } of payouts) {
      expect(
        StandardMerkleTree.verify(tree.root, PAYOUT_LEAF_ENCODING, [stakeId, amount], tree.proof(stakeId)),
      ).toBe(true);
    }
    expect(StandardMerkleTree.verify(tree.root, PAYOUT_LEAF_ENCODING, [7n, 6n], tree.proof(7n))).toBe(false);
    expect(() => tree.proof(2n)).toThrow(/not in the payout list/);
  });

  test('the published dump is plain JSON from which anyone recomputes the same root', () => {
    const tree = buildPayoutTree(payouts);
    const published = JSON.parse(JSON.stringify(tree.dump()));
    expect(StandardMerkleTree.load(published).root).toBe(tree.root);
  });

  test('an empty list, a payout of zero or a stake listed twice is refused', () => {
    expect(() => buildPayoutTree([])).toThrow(/at least one/);
    expect(() => buildPayoutTree([{ stakeId: 1n, amount: 0n }])).toThrow(/above zero/);
    expect(() =>
      buildPayoutTree([
        { stakeId: 1n, amount: 1n },
        { stakeId: 1n, amount: 2n },
      ]),
    ).toThrow(/twice/);
  });
});

import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { describe, expect, test } from 'vitest';
import { MAX_FEE_BPS, maxFee } from './escrow-constants.ts';
import { PAYOUT_LEAF_ENCODING } from './payout-tree.ts';
import { buildSettlement, settleArgs } from './settlement.ts';

const ether = 10n ** 18n;

describe('buildSettlement', () => {
  test('commits the payouts: root over (stakeId, amount), total their sum, fee the rest of the pool', () => {
    const payouts = [
      { stakeId: 3n, amount: 2n * ether },
      { stakeId: 9n, amount: ether },
    ];
    const settlement = buildSettlement({ pool: 3n * ether + ether / 10n, payouts, fee: ether / 10n });
    expect(settlement.payoutTotal).toBe(3n * ether);
    expect(settlement.fee).toBe(ether / 10n);
    expect(settlement.dust).toBe(0n);
    expect(settlement.payoutTotal + settlement.fee).toBe(3n * ether + ether / 10n);
    expect(settlement.root).toBe(settlement.tree.root);
    for (const { stakeId, amount } of payouts) {
      const proof = settlement.tree.proof(stakeId);
      expect(StandardMerkleTree.verify(settlement.root, PAYOUT_LEAF_ENCODING, [stakeId, amount], proof)).toBe(
        true,
      );
    }
  });

  test('the rounding dust goes to the fee, so payoutTotal + fee is the pool to the wei', () => {
    // Payouts rounded down leave 2 wei beyond the market's own fee of 5.
    const settlement = buildSettlement({
      pool: 100n,
      payouts: [
        { stakeId: 1n, amount: 30n },
        { stakeId: 2n, amount: 30n },
        { stakeId: 3n, amount: 33n },
      ],
      fee: 5n,
    });
    expect(settlement.dust).toBe(2n);
    expect(settlement.fee).toBe(7n);
    expect(settlement.payoutTotal + settlement.fee).toBe(100n);
  });

  test('the fee with its dust may reach the cap, not pass it; the cap is the contract constant', () => {
    expect(MAX_FEE_BPS).toBe(1000n);
    const pool = 1_000_003n;
    const cap = maxFee(pool);
    expect(cap).toBe(100_000n);
    const atCap = buildSettlement({ pool, payouts: [{ stakeId: 1n, amount: pool - cap }], fee: 0n });
    expect(atCap.fee).toBe(cap);
    expect(() =>
      buildSettlement({ pool, payouts: [{ stakeId: 1n, amount: pool - cap - 1n }], fee: 0n }),
    ).toThrow(
      "The fee with its rounding dust (0 + 100001 = 100001 wei) is above the contract's cap of 10 % of the pool (100000 wei)",
    );
    expect(() =>
      buildSettlement({ pool, payouts: [{ stakeId: 1n, amount: pool - cap }], fee: cap + 1n }),
    ).toThrow(/exceed the pool/);
  });

  test('payouts and fee above the pool are refused with the excess', () => {
    expect(() =>
      buildSettlement({
        pool: 100n,
        payouts: [
          { stakeId: 1n, amount: 60n },
          { stakeId: 2n, amount: 40n },
        ],
        fee: 1n,
      }),
    ).toThrow('The payouts (100 wei) and the fee (1 wei) exceed the pool (100 wei) by 1 wei');
  });

  test('no payouts is a refund, a stake twice or a payout of zero is refused', () => {
    expect(() => buildSettlement({ pool: 100n, payouts: [], fee: 0n })).toThrow(/settleAsRefund/);
    expect(() =>
      buildSettlement({
        pool: 100n,
        payouts: [
          { stakeId: 4n, amount: 50n },
          { stakeId: 4n, amount: 45n },
        ],
        fee: 0n,
      }),
    ).toThrow('Stake 4 is listed twice');
    expect(() => buildSettlement({ pool: 100n, payouts: [{ stakeId: 4n, amount: 0n }], fee: 0n })).toThrow(
      /above zero/,
    );
    expect(() => buildSettlement({ pool: 0n, payouts: [{ stakeId: 4n, amount: 1n }], fee: 0n })).toThrow(
      RangeError,
    );
    expect(() => buildSettlement({ pool: 10n, payouts: [{ stakeId: 4n, amount: 10n }], fee: -1n })).toThrow(
      RangeError,
    );
  });

  test("settleArgs puts the commitment in settle's order", () => {
    const settlement = buildSettlement({ pool: 10n, payouts: [{ stakeId: 1n, amount: 10n }], fee: 0n });
    const key = `0x${'11'.repeat(32)}` as const;
    const verdictHash = `0x${'22'.repeat(32)}` as const;
    expect(settleArgs(settlement, { marketKey: key, outcome: 2, verdictHash, delay: 600 })).toEqual([
      key,
      2,
      verdictHash,
      settlement.root,
      10n,
      0n,
      600,
    ]);
  });
});

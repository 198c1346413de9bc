import { describe, expect, test } from 'vitest';
import { finalHeightBelow, isFinalAt, isInCanonicalBlock } from './finality.ts';

// The rules of finality.ts; its reads run on a chain in escrow/deposits/verify-deposit.test.ts
// (a deposit reorged out while it waits is never verified) and test/operator-sender.test.ts.

const blockHash = `0x${'b1'.repeat(32)}` as const;
const transactionHash = `0x${'ab'.repeat(32)}` as const;

describe('finalHeightBelow', () => {
  test('the block `confirmations` deep, the head counting as one; null while the chain is shorter', () => {
    expect(finalHeightBelow(100n, 1)).toBe(100n);
    expect(finalHeightBelow(100n, 12)).toBe(89n);
    expect(finalHeightBelow(11n, 12)).toBe(0n);
    expect(finalHeightBelow(10n, 12)).toBeNull();
  });
});

describe('isFinalAt', () => {
  test('a receipt is final at or under the final height, and never while there is none', () => {
    expect(isFinalAt({ blockNumber: 89n }, 89n)).toBe(true);
    expect(isFinalAt({ blockNumber: 88n }, 89n)).toBe(true);
    expect(isFinalAt({ blockNumber: 90n }, 89n)).toBe(false);
    expect(isFinalAt({ blockNumber: 0n }, null)).toBe(false);
  });
});

describe('isInCanonicalBlock', () => {
  const receipt = { blockHash, transactionHash };

  test("the canonical block at the receipt's height must be its block and hold its transaction", () => {
    expect(isInCanonicalBlock(receipt, { hash: blockHash, transactions: [transactionHash] })).toBe(true);
    // Hashes compare case-insensitively (a node may answer in mixed case).
    expect(
      isInCanonicalBlock(receipt, { hash: blockHash, transactions: [transactionHash.toUpperCase()] }),
    ).toBe(true);
  });

  test('another block at that height (a reorg), or the block without the transaction, is not canonical', () => {
    expect(
      isInCanonicalBlock(receipt, { hash: `0x${'c2'.repeat(32)}`, transactions: [transactionHash] }),
    ).toBe(false);
    expect(isInCanonicalBlock(receipt, { hash: blockHash, transactions: [] })).toBe(false);
  });
});

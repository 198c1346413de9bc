import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { type Address, getAddress, type Hex, keccak256, toHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { marketKey } from './market-key.ts';
import {
  claimFor,
  claimWithPublishedProof,
  type PayoutList,
  type PayoutListDocument,
  parsePayoutList,
  payoutListProblems,
  toPayoutList,
  verifyPayoutProof,
} from './payout-list.ts';
import { buildPayoutTree, PAYOUT_LEAF_ENCODING } from './payout-tree.ts';
import { buildSettlement } from './settlement.ts';

const ether = 10n ** 18n;
const market = { id: keccak256(toHex('a market')), closesAt: 1_790_000_000 };
const escrow = getAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3');
const owner = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`) as Address;
const stakes = [
  { stakeId: 1n, owner: owner(1), amount: ether },
  { stakeId: 2n, owner: owner(2), amount: 2n * ether },
  { stakeId: 5n, owner: owner(1), amount: ether / 2n },
  { stakeId: 8n, owner: owner(3), amount: 3n * ether },
];
// Stakes 1, 2 and 5 won (YES, 3.5 BNB) the pool of 6.5 BNB less a 1 % fee, pro rata, rounded down.
const pool = 6n * ether + ether / 2n;
const marketFee = pool / 100n;
const payouts = stakes
  .filter((stake) => stake.stakeId !== 8n)
  .map((stake) => ({
    stakeId: stake.stakeId,
    amount: ((pool - marketFee) * stake.amount) / (3n * ether + ether / 2n),
  }));
const verdictHash = keccak256(toHex('verdict'));

function document(): PayoutListDocument {
  const settlement = buildSettlement({ pool, payouts, fee: marketFee });
  return toPayoutList({ chainId: 31337, escrow, market, outcome: 1, verdictHash, settlement, stakes });
}

/** A published list after a trip through JSON, as a reader gets it. */
const published = () => JSON.parse(JSON.stringify(document()));

describe('the published payout list', () => {
  test('is plain JSON: wei as decimal strings, with the market, the settlement and every leaf with its stake', () => {
    const doc = published();
    expect(doc).toMatchObject({
      version: 1,
      chainId: 31337,
      escrow,
      marketKey: marketKey(market.id, market.closesAt),
      marketId: market.id,
      closesAt: market.closesAt,
      outcome: 1,
      verdictHash,
      payoutTotal: payouts.reduce((sum, payout) => sum + payout.amount, 0n).toString(),
    });
    expect(BigInt(doc.payoutTotal) + BigInt(doc.fee)).toBe(pool);
    const tree = buildPayoutTree(payouts);
    expect(doc.leaves).toEqual(
      payouts.map((payout) => {
        const stake = stakes.find((candidate) => candidate.stakeId === payout.stakeId);
        return {
          stakeId: payout.stakeId.toString(),
          owner: stake?.owner,
          amount: stake?.amount.toString(),
          payout: payout.amount.toString(),
          // Each leaf carries its proof: a wallet claims with no Merkle library.
          proof: tree.proof(payout.stakeId),
        };
      }),
    );
    // OpenZeppelin's library alone recomputes the root from the dump.
    expect(StandardMerkleTree.load(doc.tree).root).toBe(doc.root);
  });

  test('reads back to what was published, and holds together', () => {
    const list = parsePayoutList(JSON.stringify(document()));
    expect(list.payoutTotal + list.fee).toBe(pool);
    expect(list.leaves.map((leaf) => leaf.stakeId)).toEqual([1n, 2n, 5n]);
    expect(payoutListProblems(list)).toEqual([]);
    expect(parsePayoutList(published())).toEqual(list);
  });

  test('a wallet builds the claim of its stake from the list alone', () => {
    const list = parsePayoutList(published());
    const claim = claimFor(list, 5n);
    expect(claim.stake).toEqual({ stakeId: 5n, owner: owner(1), market: list.marketKey, amount: ether / 2n });
    expect(claim.payout).toBe(payouts[2]?.amount);
    expect(StandardMerkleTree.verify(list.root, PAYOUT_LEAF_ENCODING, [5n, claim.payout], claim.proof)).toBe(
      true,
    );
    expect(() => claimFor(list, 8n)).toThrow('Stake 8 is not in the payout list');
    const tampered = parsePayoutList(published());
    (tampered.leaves[0] as { payout: bigint }).payout += 1n;
    expect(() => claimFor(tampered, 1n)).toThrow(/no claim holds/);
  });

  test('a wallet claims with the published proof alone, the same claim the tree gives', () => {
    const list = parsePayoutList(published());
    for (const leaf of list.leaves) {
      expect(verifyPayoutProof(list.root, leaf)).toBe(true);
      expect(claimWithPublishedProof(list, leaf.stakeId)).toEqual(claimFor(list, leaf.stakeId));
    }
    expect(() => claimWithPublishedProof(list, 8n)).toThrow('Stake 8 is not in the payout list');
    const tampered = parsePayoutList(published());
    const first = tampered.leaves[0] as { payout: bigint };
    first.payout += 1n;
    expect(verifyPayoutProof(tampered.root, tampered.leaves[0] as PayoutList['leaves'][number])).toBe(false);
    expect(() => claimWithPublishedProof(tampered, 1n)).toThrow(/does not hold/);
    expect(payoutListProblems(tampered)).toContain(
      "Stake 1's published proof does not prove its payout under the list's root.",
    );
  });

  test('untrusted input is refused with what is wrong', () => {
    const refused = (change: (doc: Record<string, unknown>) => void, message: RegExp) => {
      const doc = published();
      change(doc);
      expect(() => parsePayoutList(doc)).toThrow(message);
    };
    expect(() => parsePayoutList('{"version": 1,')).toThrow(/not JSON/);
    refused((doc) => {
      doc.version = 2;
    }, /version/);
    refused((doc) => {
      doc.payoutTotal = 1.5e18;
    }, /payoutTotal/);
    refused((doc) => {
      doc.fee = '-1';
    }, /decimal integer/);
    refused((doc) => {
      doc.fee = (2n ** 128n).toString();
    }, /fee/);
    refused((doc) => {
      doc.root = '0x1234';
    }, /32 bytes/);
    refused((doc) => {
      doc.escrow = escrow.toLowerCase().replace('a', 'A');
    }, /checksummed/);
    refused((doc) => {
      doc.leaves = [];
    }, /leaves/);
    refused((doc) => {
      doc.note = 'trust me';
    }, /note/);
    refused((doc) => {
      delete doc.verdictHash;
    }, /verdictHash/);
    refused((doc) => {
      (doc.tree as { leafEncoding: string[] }).leafEncoding = ['address', 'uint256'];
    }, /leafEncoding/);
  });

  test('a list that does not hold together says where, each in a sentence', () => {
    const tamper = (change: (list: PayoutList) => void) => {
      const list = parsePayoutList(published());
      change(list);
      return payoutListProblems(list);
    };
    const original = parsePayoutList(published());

    const raised = tamper((list) => {
      (list.leaves[1] as { payout: bigint }).payout += 10n;
    });
    expect(raised).toContain(
      `The leaves pay ${original.payoutTotal + 10n} wei in all, but the list's payoutTotal is ${original.payoutTotal} wei.`,
    );
    expect(raised.some((problem) => problem.startsWith('The root recomputed from the leaves'))).toBe(true);
    const paid = payouts[1]?.amount ?? 0n;
    expect(raised).toContain(
      `OpenZeppelin's tree dump does not hold the list's leaves; not in the dump: stake 2 paid ${paid + 10n} wei; only in the dump: stake 2 paid ${paid} wei.`,
    );

    const twice = tamper((list) => {
      list.leaves.push({ ...(list.leaves[0] as PayoutList['leaves'][number]) });
    });
    expect(twice).toContain('Stake 1 is listed twice.');

    const otherKey = tamper((list) => {
      list.closesAt += 1;
    });
    expect(otherKey[0]).toMatch(/^The list's market key 0x[0-9a-f]{64} is not the key of market/);

    const greedy = tamper((list) => {
      list.fee = list.payoutTotal;
    });
    expect(greedy.some((problem) => problem.startsWith('The fee of'))).toBe(true);

    const dumpRoot = tamper((list) => {
      list.tree.tree[0] = `0x${'00'.repeat(32)}`;
    });
    expect(dumpRoot[0]).toMatch(/^OpenZeppelin's tree dump is not a valid tree/);
  });

  test('a paid stake missing from the stakes given, or of another market, is refused', () => {
    const settlement = buildSettlement({ pool, payouts, fee: marketFee });
    expect(() =>
      toPayoutList({
        chainId: 31337,
        escrow,
        market,
        outcome: 1,
        verdictHash,
        settlement,
        stakes: stakes.slice(1),
      }),
    ).toThrow("Stake 1 is paid but not among the market's stakes");
    const elsewhere = `0x${'ee'.repeat(32)}` as const;
    expect(() =>
      toPayoutList({
        chainId: 31337,
        escrow,
        market,
        outcome: 1,
        verdictHash,
        settlement,
        stakes: stakes.map((stake) => ({
          ...stake,
          market: stake.stakeId === 2n ? elsewhere : marketKey(market.id, market.closesAt),
        })),
      }),
    ).toThrow(`Stake 2 belongs to market ${elsewhere}`);
  });

  test('hex reads in lower case and addresses checksummed, whatever the writer used', () => {
    const doc = published();
    doc.root = (doc.root as Hex).toUpperCase().replace('0X', '0x');
    doc.leaves[0].owner = (doc.leaves[0].owner as string).toLowerCase();
    const list = parsePayoutList(doc);
    expect(list.root).toBe(parsePayoutList(published()).root);
    expect(list.leaves[0]?.owner).toBe(owner(1));
  });
});

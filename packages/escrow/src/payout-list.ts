import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { type Address, concat, encodeAbiParameters, getAddress, type Hex, isAddress, keccak256 } from 'viem';
import { z } from 'zod';
import { MAX_FEE_BPS, maxFee } from './escrow-constants.ts';
import { marketKey } from './market-key.ts';
import { buildPayoutTree, PAYOUT_LEAF_ENCODING, type PayoutTree } from './payout-tree.ts';
import type { Settlement } from './settlement.ts';

// docs/decisions/026-app-on-the-escrow.md "Payout lists": the published payout list of a settled
// market, what the API serves and the download file holds. From it alone a wallet builds its own
// `claim`, and anyone recomputes the root (with this module or OpenZeppelin's library on the dump)
// and checks it against the chain (verify-settlement.ts). Read by the web: no Node-only imports.

export const PAYOUT_LIST_VERSION = 1;

const UINT128_MAX = 2n ** 128n - 1n;
const UINT256_MAX = 2n ** 256n - 1n;

/** A uint as JSON: a decimal string (a JSON number loses wei above 2^53). */
const uint = (max: bigint) =>
  z.codec(
    z
      .string()
      .max(78)
      .regex(/^(0|[1-9][0-9]*)$/, 'expected a decimal integer string'),
    z.bigint().nonnegative().max(max),
    { decode: (text) => BigInt(text), encode: (value) => value.toString() },
  );

/** 32 bytes as 0x-hex, read in lower case so lists compare by value. */
const bytes32 = z.codec(
  z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 32 bytes of 0x-hex'),
  z.custom<Hex>((value) => typeof value === 'string' && /^0x[0-9a-f]{64}$/.test(value)),
  { decode: (text) => text.toLowerCase() as Hex, encode: (value) => value },
);

/** An address, read checksummed (a mixed-case address must carry a valid checksum). */
const address = z.codec(
  z.string().refine((text) => isAddress(text), 'expected an address (a mixed-case one must be checksummed)'),
  z.custom<Address>((value) => typeof value === 'string' && isAddress(value)),
  { decode: (text) => getAddress(text), encode: (value) => value },
);

const leafSchema = z.strictObject({
  stakeId: uint(UINT256_MAX),
  /** Who deposited the stake, and gets its payout. */
  owner: address,
  /** What the stake deposited (the contract checks the stake as deposited: id, owner, market, amount). */
  amount: uint(UINT256_MAX),
  /** What this list pays the stake. */
  payout: uint(UINT256_MAX),
  /**
   * The Merkle proof of (stakeId, payout) under the list's root, as `claim` takes it: a wallet needs
   * no Merkle library to claim (`claimWithPublishedProof`). At most 256 levels (a tree of 2^256 leaves).
   */
  proof: z.array(bytes32).max(256),
});

/** OpenZeppelin's `StandardMerkleTree.dump()` of the (stakeId, payout) leaves, as its library loads it. */
const treeDumpSchema = z.strictObject({
  format: z.literal('standard-v1'),
  leafEncoding: z.tuple([z.literal('uint256'), z.literal('uint256')]),
  tree: z.array(z.string().regex(/^0x[0-9a-f]{64}$/, 'expected a 32-byte node in lower-case hex')).min(1),
  values: z
    .array(
      z.strictObject({
        value: z.tuple([z.string().regex(/^(0|[1-9][0-9]*)$/), z.string().regex(/^(0|[1-9][0-9]*)$/)]),
        treeIndex: z.number().int().nonnegative(),
      }),
    )
    .min(1),
});

export const payoutListSchema = z.strictObject({
  version: z.literal(PAYOUT_LIST_VERSION),
  chainId: z.number().int().positive(),
  /** The escrow contract that holds the market. */
  escrow: address,
  /** `PredictionEscrow.marketKey(marketId, closesAt)`: the market in every event and call. */
  marketKey: bytes32,
  /** The market's raw escrow id, as its deposits name it. */
  marketId: bytes32,
  /** The market's close in unix seconds, as its deposits name it. */
  closesAt: z
    .number()
    .int()
    .positive()
    .max(2 ** 40 - 1),
  outcome: z.number().int().min(0).max(255),
  verdictHash: bytes32,
  root: bytes32,
  payoutTotal: uint(UINT128_MAX),
  fee: uint(UINT128_MAX),
  /** Every payout with the stake it pays, by stake id. */
  leaves: z.array(leafSchema).min(1),
  tree: treeDumpSchema,
});

/** The list as published: plain JSON, wei as decimal strings. */
export type PayoutListDocument = z.input<typeof payoutListSchema>;
/** The list as read: wei as bigints, hex in lower case, addresses checksummed. */
export type PayoutList = z.output<typeof payoutListSchema>;
export type PayoutLeaf = PayoutList['leaves'][number];

/** The contract's `Claim` struct. */
export type EscrowClaim = {
  stake: { stakeId: bigint; owner: Address; market: Hex; amount: bigint };
  payout: bigint;
  proof: Hex[];
};

/**
 * The published list of a settlement built by `buildSettlement`. `stakes` are the market's stakes as
 * deposited (their `Deposited` events); each paid stake must be among them, and of this market.
 */
export function toPayoutList({
  chainId,
  escrow,
  market,
  outcome,
  verdictHash,
  settlement,
  stakes,
}: {
  chainId: number;
  escrow: Address;
  market: { id: Hex; closesAt: number };
  outcome: number;
  verdictHash: Hex;
  settlement: Settlement;
  stakes: readonly { stakeId: bigint; owner: Address; amount: bigint; market?: Hex }[];
}): PayoutListDocument {
  const key = marketKey(market.id, market.closesAt);
  const stakeById = new Map(stakes.map((stake) => [stake.stakeId, stake]));
  const leaves = [...settlement.payouts]
    .sort((a, b) => (a.stakeId < b.stakeId ? -1 : a.stakeId > b.stakeId ? 1 : 0))
    .map((payout) => {
      const stake = stakeById.get(payout.stakeId);
      if (!stake) throw new Error(`Stake ${payout.stakeId} is paid but not among the market's stakes`);
      if (stake.market !== undefined && stake.market.toLowerCase() !== key) {
        throw new Error(`Stake ${payout.stakeId} belongs to market ${stake.market}, not ${key}`);
      }
      return {
        stakeId: payout.stakeId,
        owner: stake.owner,
        amount: stake.amount,
        payout: payout.amount,
        proof: settlement.tree.proof(payout.stakeId),
      };
    });
  const list: PayoutList = {
    version: PAYOUT_LIST_VERSION,
    chainId,
    escrow: getAddress(escrow),
    marketKey: key,
    marketId: market.id.toLowerCase() as Hex,
    closesAt: market.closesAt,
    outcome,
    verdictHash: verdictHash.toLowerCase() as Hex,
    root: settlement.root,
    payoutTotal: settlement.payoutTotal,
    fee: settlement.fee,
    leaves: leaves.map((leaf) => ({ ...leaf, owner: getAddress(leaf.owner) })),
    tree: settlement.tree.dump() as PayoutList['tree'],
  };
  return z.encode(payoutListSchema, list);
}

/** Reads a published list (its JSON text, or the value JSON.parse gave); throws naming what is wrong. */
export function parsePayoutList(json: unknown): PayoutList {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new Error(
        `The payout list is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const parsed = payoutListSchema.safeParse(value);
  if (!parsed.success)
    throw new Error(`Not a payout list (version ${PAYOUT_LIST_VERSION}): ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A leaf as `PredictionEscrow.claim` hashes it: OpenZeppelin's standard leaf, double-hashed. */
export function payoutLeafHash(stakeId: bigint, payout: bigint): Hex {
  return keccak256(
    keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [stakeId, payout])),
  );
}

/**
 * Whether a leaf's published proof proves (stakeId, payout) under `root`, as OpenZeppelin's
 * `MerkleProof.verify` does (sorted pairs): with viem alone, so a wallet checks it without the
 * Merkle library.
 */
export function verifyPayoutProof(
  root: Hex,
  leaf: Pick<PayoutLeaf, 'stakeId' | 'payout' | 'proof'>,
): boolean {
  let node = payoutLeafHash(leaf.stakeId, leaf.payout);
  for (const sibling of leaf.proof) {
    const [a, b] = BigInt(node) < BigInt(sibling) ? [node, sibling] : [sibling, node];
    node = keccak256(concat([a, b]));
  }
  return node === root.toLowerCase();
}

/**
 * The `claim` of stake `stakeId` from its leaf and the leaf's published proof, without rebuilding
 * the tree (no Merkle library: what the web uses). Throws when the stake is not listed or its proof
 * does not hold under the root (the contract would refuse it).
 */
export function claimWithPublishedProof(list: PayoutList, stakeId: bigint): EscrowClaim {
  const leaf = list.leaves.find((candidate) => candidate.stakeId === stakeId);
  if (!leaf) throw new Error(`Stake ${stakeId} is not in the payout list`);
  if (!verifyPayoutProof(list.root, leaf)) {
    throw new Error(`Stake ${stakeId}'s published proof does not hold under root ${list.root}`);
  }
  return {
    stake: { stakeId, owner: leaf.owner, market: list.marketKey, amount: leaf.amount },
    payout: leaf.payout,
    proof: [...leaf.proof],
  };
}

function leavesTree(list: PayoutList): PayoutTree {
  return buildPayoutTree(list.leaves.map((leaf) => ({ stakeId: leaf.stakeId, amount: leaf.payout })));
}

/**
 * The `claim` of stake `stakeId` under this list: the stake as deposited, its payout and the proof,
 * rebuilt from the leaves. Throws when the stake is not listed or the leaves do not make the list's
 * root (the contract would refuse the proof).
 */
export function claimFor(list: PayoutList, stakeId: bigint): EscrowClaim {
  const [claim] = claimsFor(list, [stakeId]);
  if (!claim) throw new Error(`Stake ${stakeId} is not in the payout list`);
  return claim;
}

/** The claims of several stakes (a relayer's `claimMany`), the tree rebuilt once. */
export function claimsFor(list: PayoutList, stakeIds: readonly bigint[]): EscrowClaim[] {
  const leaves = new Map(list.leaves.map((leaf) => [leaf.stakeId, leaf]));
  const missing = stakeIds.find((stakeId) => !leaves.has(stakeId));
  if (missing !== undefined) throw new Error(`Stake ${missing} is not in the payout list`);
  const tree = leavesTree(list);
  if (tree.root !== list.root) {
    throw new Error(`The list's leaves make root ${tree.root}, not its root ${list.root}: no claim holds`);
  }
  return stakeIds.map((stakeId) => {
    const leaf = leaves.get(stakeId) as PayoutLeaf;
    return {
      stake: { stakeId: leaf.stakeId, owner: leaf.owner, market: list.marketKey, amount: leaf.amount },
      payout: leaf.payout,
      proof: tree.proof(stakeId),
    };
  });
}

/**
 * What is wrong inside the list itself, without the chain, each a sentence (none: it holds together):
 * its key is its market's, the leaves name each stake once with a payout above zero, sum to the
 * payoutTotal and make the root, the dump is OpenZeppelin's tree of exactly these leaves, and the fee
 * is within the contract's cap. verify-settlement.ts adds what the chain says.
 */
export function payoutListProblems(list: PayoutList): string[] {
  const problems: string[] = [];
  const key = marketKey(list.marketId, list.closesAt);
  if (key !== list.marketKey) {
    problems.push(
      `The list's market key ${list.marketKey} is not the key of market ${list.marketId} closing at ${list.closesAt} (${key}).`,
    );
  }

  const seen = new Set<bigint>();
  let sum = 0n;
  let leavesValid = true;
  for (const leaf of list.leaves) {
    if (seen.has(leaf.stakeId)) {
      problems.push(`Stake ${leaf.stakeId} is listed twice.`);
      leavesValid = false;
    }
    seen.add(leaf.stakeId);
    if (leaf.payout === 0n) {
      problems.push(`Stake ${leaf.stakeId} is listed with a payout of 0 (a list names only stakes it pays).`);
      leavesValid = false;
    }
    sum += leaf.payout;
  }
  if (sum !== list.payoutTotal) {
    problems.push(`The leaves pay ${sum} wei in all, but the list's payoutTotal is ${list.payoutTotal} wei.`);
  }
  if (leavesValid) {
    const root = leavesTree(list).root;
    if (root !== list.root) {
      problems.push(`The root recomputed from the leaves (${root}) is not the list's root (${list.root}).`);
    }
  }
  for (const leaf of list.leaves) {
    if (!verifyPayoutProof(list.root, leaf)) {
      problems.push(
        `Stake ${leaf.stakeId}'s published proof does not prove its payout under the list's root.`,
      );
    }
  }

  problems.push(...treeDumpProblems(list));

  const pool = list.payoutTotal + list.fee;
  if (list.fee > maxFee(pool)) {
    problems.push(
      `The fee of ${list.fee} wei is above the contract's cap of ${Number(MAX_FEE_BPS) / 100} % of the pool (${maxFee(pool)} wei).`,
    );
  }
  return problems;
}

function treeDumpProblems(list: PayoutList): string[] {
  let dumped: StandardMerkleTree<[string, string]>;
  try {
    dumped = StandardMerkleTree.load<[string, string]>({ ...list.tree, leafEncoding: PAYOUT_LEAF_ENCODING });
  } catch (error) {
    return [
      `OpenZeppelin's tree dump is not a valid tree: ${error instanceof Error ? error.message : String(error)}.`,
    ];
  }
  const problems: string[] = [];
  if (dumped.root !== list.root) {
    problems.push(`OpenZeppelin's tree dump has root ${dumped.root}, not the list's root ${list.root}.`);
  }
  const inDump = new Map<string, number>();
  for (const [, [stakeId, payout]] of dumped.entries()) {
    const leaf = `${stakeId}:${payout}`;
    inDump.set(leaf, (inDump.get(leaf) ?? 0) + 1);
  }
  const inLeaves = new Map<string, number>();
  for (const leaf of list.leaves) {
    const key = `${leaf.stakeId}:${leaf.payout}`;
    inLeaves.set(key, (inLeaves.get(key) ?? 0) + 1);
  }
  const missing = [...inLeaves.keys()].filter((leaf) => inDump.get(leaf) !== inLeaves.get(leaf));
  const extra = [...inDump.keys()].filter((leaf) => !inLeaves.has(leaf));
  if (missing.length > 0 || extra.length > 0) {
    const describe = (leaves: string[]) =>
      leaves
        .map((leaf) => {
          const [stakeId, payout] = leaf.split(':');
          return `stake ${stakeId} paid ${payout} wei`;
        })
        .join(', ');
    problems.push(
      `OpenZeppelin's tree dump does not hold the list's leaves` +
        (missing.length > 0 ? `; not in the dump: ${describe(missing)}` : '') +
        (extra.length > 0 ? `; only in the dump: ${describe(extra)}` : '') +
        '.',
    );
  }
  return problems;
}

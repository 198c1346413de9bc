import * as z from 'zod/mini';
import { AddressSchema, IsoTimeSchema, PaymentWeiSchema, WeiSchema } from './primitives.ts';

// The published payout list of a market settled on the escrow contract (decision 026 "Payout
// lists"): the wire form of packages/escrow/src/payout-list.ts's document, which the server builds
// and a test holds equal to this schema. Wei and stake ids are decimal strings.

export const Bytes32Schema = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32 bytes of 0x-prefixed hex'));

/** A uint256 as a decimal string (a stake id). */
const UintSchema = z.string().check(z.regex(/^(0|[1-9][0-9]{0,77})$/, 'must be a decimal integer string'));

export const PayoutListParamsSchema = z.strictObject({
  /** The contract's market key, `marketKey(marketId, closesAt)`. */
  key: Bytes32Schema,
});

export const PayoutListQuerySchema = z.strictObject({
  /** `1`: answered as a file to save (Content-Disposition: attachment), the same JSON. */
  download: z.optional(z.enum(['0', '1'])),
});

export const PayoutLeafSchema = z.object({
  stakeId: UintSchema,
  /** Who deposited the stake, and gets its payout (checksummed). */
  owner: AddressSchema,
  /** The stake as deposited. */
  amount: WeiSchema,
  /** What the list pays it (its return, stake included). */
  payout: WeiSchema,
  /** The Merkle proof of (stakeId, payout) under `root`, as the contract's `claim` takes it. */
  proof: z.array(Bytes32Schema),
});

/** OpenZeppelin's StandardMerkleTree dump of the (uint256 stakeId, uint256 payout) leaves. */
export const PayoutTreeDumpSchema = z.object({
  format: z.literal('standard-v1'),
  leafEncoding: z.tuple([z.literal('uint256'), z.literal('uint256')]),
  tree: z.array(Bytes32Schema),
  values: z.array(z.object({ value: z.tuple([UintSchema, UintSchema]), treeIndex: z.int() })),
});

export const PayoutListSchema = z.object({
  version: z.literal(1),
  chainId: z.int(),
  /** The escrow contract holding the market. */
  escrow: AddressSchema,
  marketKey: Bytes32Schema,
  /** The market's raw escrow id (a round's: roundMarketId(epoch)) and its close in unix seconds. */
  marketId: Bytes32Schema,
  closesAt: z.int(),
  /** What `settle` posted: the outcome code (a round: 1 bull, 2 bear), the verdict's hash, the root. */
  outcome: z.int(),
  verdictHash: Bytes32Schema,
  root: Bytes32Schema,
  payoutTotal: WeiSchema,
  /** The market's fee plus the rounding dust: payoutTotal + fee is the pool to the wei. */
  fee: WeiSchema,
  leaves: z.array(PayoutLeafSchema),
  tree: PayoutTreeDumpSchema,
});
export type PayoutListWire = z.infer<typeof PayoutListSchema>;

/**
 * An oracle bet's claim on the escrow (GET /api/users/:address/claimable), null until its round's
 * settlement is final on chain (claimableAt known). The wallet's own `claim(Claim)` is built from it
 * alone: Claim = { stake: { stakeId, owner, market, amount }, payout: payoutWei, proof }. A refunded
 * round's stake (`refund: true`) is `refund(StakeRef)` instead: payoutWei is the stake and proof empty.
 */
export const EscrowClaimSchema = z.object({
  /** The stake's market key on the contract (a round's or a market's): keccak256(abi.encode(id, close)). */
  market: Bytes32Schema,
  /** The stake's id from its `Deposited` event, as a decimal string (stakes are numbered from 1). */
  stakeId: z
    .string()
    .check(z.regex(/^[1-9][0-9]{0,77}$/, 'must be a positive whole number as a decimal string')),
  owner: AddressSchema,
  /** The stake as deposited. */
  amountWei: PaymentWeiSchema,
  /** This stake's payout in its market's published list (its amount for a refund); never 0 here. */
  payoutWei: PaymentWeiSchema,
  /** The stake's Merkle proof in the published list; empty for a refund. */
  proof: z.array(Bytes32Schema),
  /** When the contract pays it: the settlement's block time + its delay (a refund: its block time). */
  claimableAt: IsoTimeSchema,
  /** A refund of a voided round or market: `refund(StakeRef)`, not `claim`. */
  refund: z.boolean(),
});
export type EscrowClaim = z.infer<typeof EscrowClaimSchema>;

type Hex = `0x${string}`;

/** The contract's `StakeRef` an escrow claim names: what `refund` takes, and the stake a `claim` pays. */
export function escrowStakeRef(claim: EscrowClaim): {
  stakeId: bigint;
  owner: Hex;
  market: Hex;
  amount: bigint;
} {
  return {
    stakeId: BigInt(claim.stakeId),
    owner: claim.owner as Hex,
    market: claim.market as Hex,
    amount: BigInt(claim.amountWei),
  };
}

/** The contract's `Claim` (stake, payout, proof) an escrow claim carries: what `claim` takes. */
export function escrowClaimArg(claim: EscrowClaim) {
  return { stake: escrowStakeRef(claim), payout: BigInt(claim.payoutWei), proof: claim.proof as Hex[] };
}

import * as z from 'zod/mini';
import { OPERATOR_DOMAIN_NAME, OPERATOR_DOMAIN_VERSION } from '../constants.ts';
import { AddressSchema, IsoTimeSchema, PaymentWeiSchema, TxHashSchema, WeiSchema } from './primitives.ts';

// The resolution review window (docs/decisions/011-resolution-review-window.md): an AI
// verdict is first proposed; until the window ends a bettor of the market may flag it, signed by
// their wallet with EIP-712 typed data; a flagged market waits for an operator. Every step is an
// event on the market's timeline.

/** A flag's reason: short, not blank; not trimmed, the server verifies exactly what was signed. */
export const FLAG_REASON_MAX = 280;
/** A flag signature may be dated at most this far ahead (its expiry), so a leaked one dies soon. */
export const FLAG_SIGNATURE_MAX_TTL_S = 15 * 60;

/** Its own primary type: a flag signature can never pass for an operator action, nor the reverse. */
export const FLAG_TYPES = {
  FlagMarket: [
    { name: 'marketId', type: 'uint256' },
    { name: 'reason', type: 'string' },
    { name: 'expiry', type: 'uint256' },
  ],
} as const;

/** The EIP-712 typed data a bettor signs to flag `marketId`'s proposed verdict (expiry in unix s). */
export function flagTypedData(input: { chainId: number; marketId: number; reason: string; expiry: number }) {
  return {
    domain: { name: OPERATOR_DOMAIN_NAME, version: OPERATOR_DOMAIN_VERSION, chainId: input.chainId },
    types: FLAG_TYPES,
    primaryType: 'FlagMarket',
    message: { marketId: BigInt(input.marketId), reason: input.reason, expiry: BigInt(input.expiry) },
  } as const;
}

export const FlagReasonSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(FLAG_REASON_MAX), z.regex(/\S/, 'must not be blank'));

/**
 * POST /api/markets/:id/flags. A flag carries its bond, a dispute deposit into the escrow from
 * `address` of exactly the market's `review.bondWei` (decision 026); the signature still binds the
 * reason. The bond goes through the usual payment checks.
 */
export const FlagMarketBodySchema = z.strictObject({
  address: AddressSchema,
  reason: FlagReasonSchema,
  expiry: z.int().check(z.positive()),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 0x-prefixed 65-byte hex signature')),
  txHash: TxHashSchema,
  amountWei: PaymentWeiSchema,
});
export type FlagMarketBody = z.infer<typeof FlagMarketBodySchema>;

export const ResolutionEventKindSchema = z.enum([
  'proposed',
  'flagged',
  'confirmed',
  'overturned',
  'settled',
  // What became of a flag's bond when the market settled (actor: the flagger).
  'bond_returned',
  'bond_forfeited',
  'bond_returned_void',
]);
export type ResolutionEventKind = z.infer<typeof ResolutionEventKindSchema>;

export const ResolutionEventSchema = z.object({
  id: z.int(),
  kind: ResolutionEventKindSchema,
  /** The model that proposed, the flagging address, the operator's address (or "ops CLI"), or "system". */
  actor: z.string(),
  result: z.nullable(z.enum(['YES', 'NO', 'VOID'])),
  /** The flag's reason, the operator's note, or how the market settled. */
  detail: z.nullable(z.string()),
  /** A flag's bond (flagged), or what went back to the flagger, bond and reward (bond_*); else null. */
  amountWei: z.optional(z.nullable(WeiSchema)),
  /** The reward in amountWei out of the market's fee (bond_returned); else null. */
  rewardWei: z.optional(z.nullable(WeiSchema)),
  at: IsoTimeSchema,
});
export type ResolutionEvent = z.infer<typeof ResolutionEventSchema>;

/** A proposed verdict; the market stays `settling` (nothing is claimable) until it settles. */
export const MarketReviewSchema = z.object({
  result: z.enum(['YES', 'NO', 'VOID']),
  model: z.string(),
  promptVersion: z.string(),
  confidence: z.nullable(z.int().check(z.minimum(0), z.maximum(100))),
  analysis: z.string(),
  sources: z.array(z.string()),
  proposedAt: IsoTimeSchema,
  /** Server time at which an unflagged verdict settles. */
  endsAt: IsoTimeSchema,
  flagCount: z.int(),
  /**
   * Decision 026: the least bond a flag deposits now, the escrow's `disputeBond(key)` (read
   * from the contract), on GET /api/markets/:id while the window is open and a dispute can be taken
   * (its settlement pending on chain, no flag holding it); null in lists, otherwise, and once it closed.
   */
  bondWei: z.nullable(WeiSchema),
});
export type MarketReview = z.infer<typeof MarketReviewSchema>;

export const FlagMarketResponseSchema = z.object({ event: ResolutionEventSchema });
export type FlagMarketResponse = z.infer<typeof FlagMarketResponseSchema>;

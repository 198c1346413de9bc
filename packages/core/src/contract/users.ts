import * as z from 'zod/mini';
import { BetSchema, MarketStatusSchema } from './markets.ts';
import { OracleBetSchema } from './oracle.ts';
import { PageCursorSchema } from './page-cursor.ts';
import { AddressSchema, CategorySchema, IsoTimeSchema, PaymentWeiSchema, WeiSchema } from './primitives.ts';

export const UserParamsSchema = z.strictObject({ address: AddressSchema });

export const UserBetSchema = z.extend(BetSchema, {
  market: z.object({
    title: z.string(),
    status: MarketStatusSchema,
    result: z.nullable(z.enum(['YES', 'NO', 'VOID'])),
    category: CategorySchema,
    deadline: IsoTimeSchema,
  }),
});
export type UserBet = z.infer<typeof UserBetSchema>;

/** The default and the largest page of a wallet's bets. */
export const USER_BETS_PAGE_DEFAULT = 100;
export const USER_BETS_PAGE_MAX = 200;

export const UserBetsQuerySchema = z.strictObject({
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(USER_BETS_PAGE_MAX))),
  /** The `nextCursor` of the page before. */
  cursor: z.optional(PageCursorSchema),
});
export type UserBetsQuery = z.infer<typeof UserBetsQuerySchema>;

export const UserBetsResponseSchema = z.object({
  bets: z.array(UserBetSchema),
  /** Pass as `cursor` for the next page (older bets); null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type UserBetsResponse = z.infer<typeof UserBetsResponseSchema>;

/** The most claimable bets of each game listed in one answer (newest first); totals count them all. */
export const CLAIMABLE_LIST_MAX = 200;

/** totalWei: the sum of returnWei over the game's claimable bets, listed or not. */
const claimableTotalWei = WeiSchema.check(
  z.meta({ description: "The sum of returnWei over the game's claimable bets, all of them, listed or not." }),
);

const Bytes32Schema = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex'));

/**
 * What a wallet needs to take a round's payout from the escrow itself (issue 29, decision 026 "Claim"):
 * the contract's `claim(Claim)` with Claim = { stake: { stakeId, owner, market, amount }, payout, proof }
 * is built from this alone. A voided round's stake is `refund: true`: `refund(StakeRef)` after the
 * round's `settleAsRefund`, with payoutWei = amountWei and no proof.
 */
export const EscrowClaimSchema = z.object({
  /** The round's market key on the contract: keccak256(abi.encode(roundMarketId(epoch), lock time)). */
  market: Bytes32Schema,
  /** The stake's id from its `Deposited` event, as a decimal string. */
  stakeId: z
    .string()
    .check(z.regex(/^[1-9][0-9]{0,77}$/, 'must be a positive whole number as a decimal string')),
  owner: AddressSchema,
  /** The stake as deposited. */
  amountWei: PaymentWeiSchema,
  /** This stake's payout in the round's published list (its amount for a refund). */
  payoutWei: PaymentWeiSchema,
  /** The stake's Merkle proof in the published list; empty for a refund. */
  proof: z.array(Bytes32Schema),
  /** When the contract starts paying this round (the settlement's delay). */
  claimableAt: IsoTimeSchema,
  /** A refund of a voided round: `refund(StakeRef)`, not `claim`. */
  refund: z.optional(z.boolean()),
});
export type EscrowClaim = z.infer<typeof EscrowClaimSchema>;

/** A claimable round bet, with what the wallet's own claim needs once its round's list is published. */
export const ClaimableOracleBetSchema = z.extend(OracleBetSchema, {
  /** Null until the round's payout list is published and its claimableAt is known. */
  escrowClaim: z.nullable(EscrowClaimSchema),
});
export type ClaimableOracleBet = z.infer<typeof ClaimableOracleBetSchema>;

export const ClaimableResponseSchema = z.object({
  markets: z.object({ totalWei: claimableTotalWei, count: z.int(), bets: z.array(UserBetSchema) }),
  oracle: z.object({ totalWei: claimableTotalWei, count: z.int(), bets: z.array(ClaimableOracleBetSchema) }),
});
export type ClaimableResponse = z.infer<typeof ClaimableResponseSchema>;

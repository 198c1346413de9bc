import * as z from 'zod/mini';
import { BetSchema, MarketStatusSchema } from './markets.ts';
import { OracleBetSchema } from './oracle.ts';
import { PageCursorSchema } from './page-cursor.ts';
import { EscrowClaimSchema } from './payout-lists.ts';
import { AddressSchema, CategorySchema, IsoTimeSchema, WeiSchema } from './primitives.ts';

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
const claimableTotalWei = z.clone(WeiSchema);

/**
 * A claimable round bet: an oracle bet with its claim on the escrow contract (decision 026), null
 * until its settlement is final on chain.
 */
export const ClaimableOracleBetSchema = z.extend(OracleBetSchema, {
  escrowClaim: z.nullable(EscrowClaimSchema),
});
export type ClaimableOracleBet = z.infer<typeof ClaimableOracleBetSchema>;

/**
 * A claimable market bet: a user's bet with its claim on the escrow contract (decision 026), null
 * until its settlement is final on chain.
 */
export const ClaimableMarketBetSchema = z.extend(UserBetSchema, {
  escrowClaim: z.nullable(EscrowClaimSchema),
});
export type ClaimableMarketBet = z.infer<typeof ClaimableMarketBetSchema>;

/**
 * A flag's bond on the escrow that came back to its flagger (decision 026): returned (the bond and its
 * reward, a leaf of the market's list) or returned on a void (the bond, refunded). It is claimed like a
 * bet (POST /api/claims scope markets relays it); `escrowClaim` is null until the market's settlement
 * is final on chain.
 */
export const ClaimableBondSchema = z.object({
  /** The flag's id (flags are numbered apart from bets). */
  flagId: z.int(),
  marketId: z.int(),
  marketTitle: z.string(),
  fate: z.enum(['returned', 'returned_void']),
  bondWei: z.clone(WeiSchema),
  /** What comes back: bond + reward (returned), the bond (returned_void). */
  returnWei: z.clone(WeiSchema),
  escrowClaim: z.nullable(EscrowClaimSchema),
});
export type ClaimableBond = z.infer<typeof ClaimableBondSchema>;

export const ClaimableResponseSchema = z.object({
  markets: z.object({ totalWei: claimableTotalWei, count: z.int(), bets: z.array(ClaimableMarketBetSchema) }),
  oracle: z.object({ totalWei: claimableTotalWei, count: z.int(), bets: z.array(ClaimableOracleBetSchema) }),
  /** Returned flag bonds on the escrow, not yet paid (totalWei: the sum of their returnWei). */
  bonds: z.object({ totalWei: claimableTotalWei, count: z.int(), bonds: z.array(ClaimableBondSchema) }),
});
export type ClaimableResponse = z.infer<typeof ClaimableResponseSchema>;

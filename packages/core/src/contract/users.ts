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
 * A claimable round bet: an oracle bet with its claim on the escrow contract (decision 026). A bet
 * staked before the switch (no stake on the escrow) has `escrowClaim: null` and is paid by the vault.
 */
export const ClaimableOracleBetSchema = z.extend(OracleBetSchema, {
  escrowClaim: z.nullable(EscrowClaimSchema),
});
export type ClaimableOracleBet = z.infer<typeof ClaimableOracleBetSchema>;

export const ClaimableResponseSchema = z.object({
  markets: z.object({ totalWei: claimableTotalWei, count: z.int(), bets: z.array(UserBetSchema) }),
  oracle: z.object({ totalWei: claimableTotalWei, count: z.int(), bets: z.array(ClaimableOracleBetSchema) }),
});
export type ClaimableResponse = z.infer<typeof ClaimableResponseSchema>;

import * as z from 'zod/mini';
import { BetSchema, MarketStatusSchema } from './markets.ts';
import { OracleBetSchema } from './oracle.ts';
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

export const UserBetsResponseSchema = z.object({ bets: z.array(UserBetSchema) });
export type UserBetsResponse = z.infer<typeof UserBetsResponseSchema>;

export const ClaimableResponseSchema = z.object({
  markets: z.object({ totalWei: WeiSchema, bets: z.array(UserBetSchema) }),
  oracle: z.object({ totalWei: WeiSchema, bets: z.array(OracleBetSchema) }),
});
export type ClaimableResponse = z.infer<typeof ClaimableResponseSchema>;

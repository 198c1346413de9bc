import * as z from 'zod/mini';
import { MAX_ROW_ID } from '../constants.ts';
import { AddressSchema, TxHashSchema, WeiSchema } from './primitives.ts';

export const ClaimBodySchema = z.strictObject({
  userAddress: AddressSchema,
  scope: z.enum(['markets', 'oracle', 'all']),
  betId: z.optional(z.int().check(z.positive(), z.maximum(MAX_ROW_ID))),
});
export type ClaimBody = z.infer<typeof ClaimBodySchema>;

export const ClaimResponseSchema = z.object({
  success: z.boolean(),
  /** What this claim pays: the sum of the claimed bets' returnWei. */
  totalWei: z.clone(WeiSchema),
  betsCount: z.int(),
  payoutTxHash: z.nullable(TxHashSchema),
  /** 'pending' while the payout is broadcast but not final; 'confirmed' once final. */
  payoutStatus: z.enum(['none', 'pending', 'confirmed']),
  message: z.string(),
});
export type ClaimResponse = z.infer<typeof ClaimResponseSchema>;

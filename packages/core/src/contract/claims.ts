import { z } from 'zod';
import { AddressSchema, TxHashSchema, WeiSchema } from './primitives.ts';

export const ClaimBodySchema = z.strictObject({
  userAddress: AddressSchema,
  scope: z.enum(['markets', 'oracle', 'all']),
  betId: z.number().int().positive().optional(),
});
export type ClaimBody = z.infer<typeof ClaimBodySchema>;

export const ClaimResponseSchema = z.object({
  success: z.boolean(),
  totalWei: WeiSchema,
  betsCount: z.number().int(),
  payoutTxHash: TxHashSchema.nullable(),
  /** 'pending' while the payout is broadcast but not final; 'confirmed' once final. */
  payoutStatus: z.enum(['none', 'pending', 'confirmed']),
  message: z.string(),
});
export type ClaimResponse = z.infer<typeof ClaimResponseSchema>;

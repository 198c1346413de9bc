import { z } from 'zod';
import { AddressSchema, IsoTimeSchema, UsdPriceSchema, WeiSchema } from './primitives.ts';

export const VaultResponseSchema = z.object({ address: AddressSchema, balanceWei: WeiSchema });
export type VaultResponse = z.infer<typeof VaultResponseSchema>;

export const PriceResponseSchema = z.object({
  symbol: z.literal('BNB'),
  usd: UsdPriceSchema,
  source: z.enum(['chainlink', 'ticker', 'simulated']),
  updatedAt: IsoTimeSchema,
});
export type PriceResponse = z.infer<typeof PriceResponseSchema>;

export const PriceHistoryResponseSchema = z.object({
  symbol: z.literal('BNB'),
  points: z.array(z.object({ usd: UsdPriceSchema, at: IsoTimeSchema })),
});
export type PriceHistoryResponse = z.infer<typeof PriceHistoryResponseSchema>;

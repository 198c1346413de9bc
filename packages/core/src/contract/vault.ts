import * as z from 'zod/mini';
import { AddressSchema, IsoTimeSchema, UsdPriceSchema, WeiSchema } from './primitives.ts';

export const VaultResponseSchema = z.object({ address: AddressSchema, balanceWei: WeiSchema });
export type VaultResponse = z.infer<typeof VaultResponseSchema>;

export const PriceResponseSchema = z.object({
  symbol: z.literal('BNB'),
  usd: UsdPriceSchema,
  source: z.enum(['chainlink', 'ticker', 'simulated']),
  /** When the feed says the price was last updated. */
  updatedAt: IsoTimeSchema,
  /** The feed has not answered for a while: this is the last good value (still within ORACLE_MAX_AGE_S). */
  stale: z.boolean(),
});
export type PriceResponse = z.infer<typeof PriceResponseSchema>;

export const PriceHistoryResponseSchema = z.object({
  symbol: z.literal('BNB'),
  points: z.array(z.object({ usd: UsdPriceSchema, at: IsoTimeSchema })),
});
export type PriceHistoryResponse = z.infer<typeof PriceHistoryResponseSchema>;

/** Dev only (local chain): POST /api/dev/price sets the simulated feed's price. */
export const DevSetPriceBodySchema = z.strictObject({
  usd: UsdPriceSchema,
  /** true (default): the price stays there until the next call; false: the random walk continues from it. */
  hold: z.optional(z.boolean()),
});
export type DevSetPriceBody = z.infer<typeof DevSetPriceBodySchema>;

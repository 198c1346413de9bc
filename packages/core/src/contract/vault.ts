import * as z from 'zod/mini';
import { AddressSchema, IsoTimeSchema, PriceSymbolSchema, UsdPriceSchema, WeiSchema } from './primitives.ts';

export const VaultResponseSchema = z.object({ address: AddressSchema, balanceWei: WeiSchema });
export type VaultResponse = z.infer<typeof VaultResponseSchema>;

/** GET /api/prices/:symbol and /api/prices/:symbol/history: which coin (issue 19). */
export const PriceParamsSchema = z.strictObject({ symbol: PriceSymbolSchema });
export type PriceParams = z.infer<typeof PriceParamsSchema>;

export const PriceResponseSchema = z.object({
  symbol: PriceSymbolSchema,
  usd: UsdPriceSchema,
  source: z.enum(['chainlink', 'ticker', 'simulated']),
  /** When the feed says the price was last updated. */
  updatedAt: IsoTimeSchema,
  /** The feed has not answered for a while: this is the last good value (still within ORACLE_MAX_AGE_S). */
  stale: z.boolean(),
});
export type PriceResponse = z.infer<typeof PriceResponseSchema>;

/** GET /api/prices: the latest price of every coin (issue 19), for the board and the create dialog. */
export const PricesResponseSchema = z.object({ prices: z.array(PriceResponseSchema) });
export type PricesResponse = z.infer<typeof PricesResponseSchema>;

/** GET /api/prices/:symbol/history: samples since this time (at most 24 h back; default the last hour). */
export const PriceHistoryQuerySchema = z.strictObject({ since: z.optional(IsoTimeSchema) });
export type PriceHistoryQuery = z.infer<typeof PriceHistoryQuerySchema>;

export const PriceHistoryResponseSchema = z.object({
  symbol: PriceSymbolSchema,
  points: z.array(z.object({ usd: UsdPriceSchema, at: IsoTimeSchema })),
});
export type PriceHistoryResponse = z.infer<typeof PriceHistoryResponseSchema>;

/** Dev only (local chain): POST /api/dev/price sets the simulated feed's price of one coin. */
export const DevSetPriceBodySchema = z.strictObject({
  /** Which coin (issue 19); BNB when left out, as before. */
  symbol: z.optional(PriceSymbolSchema),
  usd: UsdPriceSchema,
  /** true (default): the price stays there until the next call; false: the random walk continues from it. */
  hold: z.optional(z.boolean()),
});
export type DevSetPriceBody = z.infer<typeof DevSetPriceBodySchema>;

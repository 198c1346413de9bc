import * as z from 'zod/mini';
import { IsoTimeSchema, PriceSymbolSchema, UsdPriceSchema } from './primitives.ts';

/**
 * The sample the price sampler just stored, carried by `prices` (about every 2 s): clients show it
 * as it comes instead of refetching GET /api/prices/:symbol (decision 015). One message per coin
 * sampled. Tiny, so still far under NOTIFY's 8 kB.
 */
export const PriceSampleMessageSchema = z.object({
  /** Which coin this sample is of (every coin is sampled). */
  symbol: PriceSymbolSchema,
  usd: UsdPriceSchema,
  source: z.enum(['chainlink', 'ticker', 'simulated']),
  /** When the feed says the price was last updated (PriceResponse.updatedAt). */
  updatedAt: IsoTimeSchema,
  /** When the server took the sample (the price history is bucketed by it). */
  sampledAt: IsoTimeSchema,
});
export type PriceSampleMessage = z.infer<typeof PriceSampleMessageSchema>;

/**
 * What the server pushes on WS /api/realtime: ids only, clients refetch (docs/architecture.md "Scale"); `prices`
 * alone carries its (small) sample. A message with no id means "refetch everything of this topic"
 * (sent after a lost LISTEN connection, and made up by the client itself on each (re)connect).
 */
export const RealtimeMessageSchema = z.discriminatedUnion('topic', [
  z.object({ topic: z.literal('markets'), id: z.optional(z.int()) }),
  z.object({
    topic: z.literal('bets'),
    id: z.optional(z.int()),
    marketId: z.optional(z.int()),
  }),
  z.object({ topic: z.literal('rounds'), id: z.optional(z.int()) }),
  z.object({ topic: z.literal('prices'), sample: z.optional(PriceSampleMessageSchema) }),
  z.object({ topic: z.literal('vault') }),
  z.object({ topic: z.literal('payouts'), address: z.optional(z.string()) }),
]);
export type RealtimeMessage = z.infer<typeof RealtimeMessageSchema>;
export type RealtimeTopic = RealtimeMessage['topic'];

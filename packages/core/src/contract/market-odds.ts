import * as z from 'zod/mini';
import { IsoTimeSchema, WeiSchema } from './primitives.ts';

// GET /api/markets/:id/odds (decision 013). Its own module: zod/mini schemas are kept by the bundler
// wherever their module is imported, and only the market page needs these.

/**
 * The YES share of the pool after each bet, oldest first. More than
 * MARKET_ODDS_POINTS_MAX bets are bucketed: each point is the last bet of its bucket.
 */
export const MarketOddsPointSchema = z.object({
  at: IsoTimeSchema,
  /** YES wei / pool wei in basis points (0..10000), exact from the wei totals. */
  yesShareBps: z.int().check(z.minimum(0), z.maximum(10_000)),
  yesWei: WeiSchema,
  noWei: WeiSchema,
  /** Bets counted up to this point. */
  bets: z.int(),
});
export type MarketOddsPoint = z.infer<typeof MarketOddsPointSchema>;

export const MarketOddsResponseSchema = z.object({
  marketId: z.int(),
  points: z.array(MarketOddsPointSchema),
});
export type MarketOddsResponse = z.infer<typeof MarketOddsResponseSchema>;

import * as z from 'zod/mini';
import { BetSchema } from './markets.ts';
import { PageCursorSchema } from './page-cursor.ts';
import { AddressSchema } from './primitives.ts';

// A market's bets a page at a time (GET /api/markets/:id/bets; docs/api.md). Apart from
// markets.ts so the pages that never ask for them do not carry these schemas.

/**
 * A market's bets in one page of `GET /api/markets/:id` (its first) and of `GET /api/markets/:id/bets`
 * without `limit` (decision 016: a busy market's page stays small); the largest page a client may ask for.
 */
export const MARKET_BETS_PAGE_DEFAULT = 50;
export const MARKET_BETS_PAGE_MAX = 200;

export const MarketBetsQuerySchema = z.strictObject({
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MARKET_BETS_PAGE_MAX))),
  /** The `nextCursor` (or the detail's `betsNextCursor`) of the page before. */
  cursor: z.optional(PageCursorSchema),
  /** Only this wallet's bets: "did I bet here" (a wallet's own read, never from a shared cache). */
  address: z.optional(AddressSchema),
});
export type MarketBetsQuery = z.infer<typeof MarketBetsQuerySchema>;

export const MarketBetsResponseSchema = z.object({
  /** Newest first. */
  bets: z.array(BetSchema),
  /** Pass as `cursor` for the next page (older bets); null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type MarketBetsResponse = z.infer<typeof MarketBetsResponseSchema>;

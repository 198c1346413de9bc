import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { time, wei } from './columns.ts';

// Leaderboard aggregates.

/**
 * Leaderboard aggregates, maintained at settlement (docs/product.md §7 leaderboard; no scans:
 * docs/decisions/016).
 */
export const userStats = pgTable(
  'user_stats',
  {
    address: text('address').primaryKey(),
    totalWinnings: wei('total_winnings').notNull().default(sql`0`),
    totalBets: integer('total_bets').notNull().default(0),
    wonBets: integer('won_bets').notNull().default(0),
    settledBets: integer('settled_bets').notNull().default(0),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('user_stats_winnings_idx').on(t.totalWinnings),
    // The leaderboard's order and filter exactly: its page is the first rows of this index.
    index('user_stats_leaderboard_idx').on(t.totalWinnings, t.wonBets).where(sql`total_winnings > 0`),
  ],
);

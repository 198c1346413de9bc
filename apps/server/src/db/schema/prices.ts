import { bigserial, index, pgTable, text } from 'drizzle-orm/pg-core';
import { price, time } from './columns.ts';

// The feed readings the server sampled.

/** Feed readings the server sampled; lock and close prices are chosen from these. */
export const priceSamples = pgTable(
  'price_samples',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    source: text('source').notNull(),
    /** Which coin (docs/decisions/020); rows from before migration 0009 are BNB's. */
    symbol: text('symbol').notNull().default('BNB'),
    price: price('price').notNull(),
    feedRoundId: text('feed_round_id'),
    /** When the feed says the price was updated, not when we read it. */
    updatedAt: time('updated_at').notNull(),
    sampledAt: time('sampled_at').notNull(),
  },
  (t) => [
    index('price_samples_sampled_idx').on(t.sampledAt),
    // Each coin's latest sample, and its samples around an instant.
    index('price_samples_symbol_sampled_idx').on(t.symbol, t.sampledAt),
  ],
);

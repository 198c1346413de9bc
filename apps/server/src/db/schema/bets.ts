import { PREDICTIONS } from '@pm/core/constants';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { isOneOf, time, wei } from './columns.ts';
import { markets } from './markets.ts';
import { payments } from './payments.ts';

// Market bets.

export const bets = pgTable(
  'bets',
  {
    id: serial('id').primaryKey(),
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id),
    userAddress: text('user_address').notNull(),
    prediction: text('prediction').notNull(),
    amount: wei('amount').notNull(),
    /** docs/product.md §7: twice the stake, kept as the record value. */
    potentialPayout: wei('potential_payout').notNull(),
    /**
     * The return: what the bet pays back once its market settles, stake included: stake + profit on
     * a win, the stake on a refund, 0 on a loss; null while pending. Claimable = payout_amount, as in
     * oracle_bets (decision 002; migration 0007 converted the profit stored before). The API's
     * returnWei is this column; its profitWei (return − stake) comes from core's bet-return.ts.
     */
    payoutAmount: wei('payout_amount'),
    status: text('status').notNull().default('pending'),
    isCreator: boolean('is_creator').notNull().default(false),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    txHash: text('tx_hash').notNull(),
    /** The escrow stake that holds it (migration 0018); null only on rows of the retired vault. */
    stakeId: wei('stake_id'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bets_payment_unique').on(t.paymentId),
    uniqueIndex('bets_stake_unique').on(t.stakeId),
    // (…, created_at, id): the pages' exact order, so a page is read in order and stops at its limit.
    index('bets_market_created_id_idx').on(t.marketId, t.createdAt, t.id),
    index('bets_user_created_id_idx').on(t.userAddress, t.createdAt, t.id),
    // Migration 0013 (docs/decisions/016): a market's distinct bettors from the index alone, and one
    // wallet's bets in one market (?address=) as one ordered range.
    index('bets_market_user_created_id_idx').on(t.marketId, t.userAddress, t.createdAt, t.id),
    // Migration 0014 (docs/decisions/024): no index names a column settlement or a claim writes
    // (status, payout_amount), and the table keeps half of each page free
    // (fillfactor 50, set in the migration: drizzle does not model it), so settling a market
    // rewrites each bet in its own page (a HOT update) without touching any index. A claimable
    // read is one wallet's range of bets_user_created_id_idx. A test keeps this true.
    check('bets_prediction_check', isOneOf(t.prediction, PREDICTIONS)),
    check('bets_status_check', sql`${t.status} in ('pending', 'won', 'lost', 'claimed', 'refunded')`),
    check('bets_amount_check', sql`${t.amount} > 0`),
  ],
);

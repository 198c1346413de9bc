import { POSITIONS } from '@pm/core/constants';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { isOneOf, price, time, wei } from './columns.ts';
import { payments } from './payments.ts';

// Oracle rounds and their bets (docs/architecture.md "Oracle rounds").

export const oracleRounds = pgTable(
  'oracle_rounds',
  {
    epoch: bigint('epoch', { mode: 'number' }).primaryKey(),
    status: text('status').notNull(),
    startTime: time('start_time').notNull(),
    lockTime: time('lock_time').notNull(),
    closeTime: time('close_time').notNull(),
    lockPrice: price('lock_price'),
    closePrice: price('close_price'),
    /** Which feed reading was used, so anyone can check it (docs/architecture.md "Oracle rounds"). */
    lockPriceRoundId: text('lock_price_round_id'),
    lockPriceAt: time('lock_price_at'),
    closePriceRoundId: text('close_price_round_id'),
    closePriceAt: time('close_price_at'),
    priceSource: text('price_source'),
    totalUpAmount: wei('total_up_amount').notNull().default(sql`0`),
    totalDownAmount: wei('total_down_amount').notNull().default(sql`0`),
    upCount: integer('up_count').notNull().default(0),
    downCount: integer('down_count').notNull().default(0),
    result: text('result'),
    cancelReason: text('cancel_reason'),
    createdAt: time('created_at').notNull().defaultNow(),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('oracle_rounds_status_idx').on(t.status, t.startTime),
    index('oracle_rounds_open_start_idx')
      .on(t.startTime)
      .where(sql`status in ('upcoming', 'live', 'locked')`),
    index('oracle_rounds_ended_epoch_idx').on(t.epoch).where(sql`status = 'ended'`),
    check('oracle_rounds_status_check', sql`${t.status} in ('upcoming', 'live', 'locked', 'ended')`),
    check(
      'oracle_rounds_result_check',
      sql`${t.result} is null or ${t.result} in ('bull', 'bear', 'draw', 'cancelled')`,
    ),
  ],
);

export const oracleBets = pgTable(
  'oracle_bets',
  {
    id: serial('id').primaryKey(),
    epoch: bigint('epoch', { mode: 'number' })
      .notNull()
      .references(() => oracleRounds.epoch),
    userAddress: text('user_address').notNull(),
    position: text('position').notNull(),
    amount: wei('amount').notNull(),
    /**
     * The return: what the bet pays back once its round ends, stake included: the winnings with the
     * stake, the stake on a refund, 0 on a loss; null while the round runs. Same meaning as
     * bets.payout_amount (the API's returnWei).
     */
    payoutAmount: wei('payout_amount'),
    claimed: boolean('claimed').notNull().default(false),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    txHash: text('tx_hash').notNull(),
    /**
     * The escrow's stake this bet is (its `Deposited` event's stake id, decision 026): what the round's
     * payout list names. Null only on rows of the retired vault (docs/decisions/028).
     */
    stakeId: wei('stake_id'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oracle_bets_payment_unique').on(t.paymentId),
    uniqueIndex('oracle_bets_stake_unique').on(t.stakeId),
    index('oracle_bets_epoch_idx').on(t.epoch),
    index('oracle_bets_user_idx').on(t.userAddress, t.createdAt),
    index('oracle_bets_claimable_idx').on(t.userAddress).where(sql`claimed = false and payout_amount > 0`),
    check('oracle_bets_position_check', isOneOf(t.position, POSITIONS)),
    check('oracle_bets_amount_check', sql`${t.amount} > 0`),
  ],
);

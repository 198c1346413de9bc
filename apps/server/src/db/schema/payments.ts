import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { time, wei } from './columns.ts';

// Payments: every escrow deposit a request or reconciliation verified, the requests kept until their
// payment is final, and the chain scans' cursors (docs/architecture.md "Payment verification").

/** Every verified payment (an escrow deposit), whatever became of it (docs/architecture.md "Payment verification"). */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    fromAddress: text('from_address').notNull(),
    amount: wei('amount').notNull(),
    /** The decoded payment intent text, e.g. pm1:bet:12:YES. */
    intent: text('intent').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockTime: time('block_time').notNull(),
    purpose: text('purpose').notNull(),
    /**
     * recorded: became a bet; escrow_refund: an escrow deposit we refused, given back by the escrow
     * (its progress is in escrow_refunds); refunded: given back.
     */
    status: text('status').notNull(),
    refundReason: text('refund_reason'),
    /**
     * An escrow deposit's stake id and its `Deposited` log's index (decision 026); null only on rows of
     * the retired vault. One transaction may hold several deposits (a batch): each is a payment of its own.
     */
    stakeId: wei('stake_id'),
    logIndex: integer('log_index'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    // One payment per deposit of a transaction (-1: a row of the retired vault's, which had no log).
    uniqueIndex('payments_chain_tx_unique').on(t.chainId, t.txHash, sql`coalesce(${t.logIndex}, -1)`),
    uniqueIndex('payments_chain_stake_unique').on(t.chainId, t.stakeId).where(sql`stake_id is not null`),
    check(
      'payments_purpose_check',
      sql`${t.purpose} in ('market_create', 'market_bet', 'oracle_bet', 'market_flag', 'unknown')`,
    ),
    check('payments_status_check', sql`${t.status} in ('recorded', 'refunded', 'escrow_refund')`),
    check(
      'payments_stake_check',
      sql`(${t.stakeId} is null) = (${t.logIndex} is null) and (${t.status} <> 'escrow_refund' or ${t.stakeId} is not null)`,
    ),
    // A 0-wei payment moves no money; it must never become a 0-wei refund (docs/decisions/010).
    check('payments_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * Requests answered 202 (payment valid but not final yet): kept so a job records them once final,
 * even if the browser never posts again (docs/api.md "Paid requests").
 */
export const paymentRequests = pgTable(
  'payment_requests',
  {
    id: serial('id').primaryKey(),
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    /** The payer the request names (verified against the transaction before it is kept). */
    fromAddress: text('from_address'),
    purpose: text('purpose').notNull(),
    /** The request as received (market id and body), replayed through the same handler. */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: time('next_attempt_at').notNull().defaultNow(),
    resolvedAt: time('resolved_at'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_requests_chain_tx_unique').on(t.chainId, t.txHash),
    index('payment_requests_open_idx').on(t.nextAttemptAt).where(sql`resolved_at is null`),
    index('payment_requests_open_sender_idx').on(t.fromAddress).where(sql`resolved_at is null`),
  ],
);

/** How far a chain scan has read: escrow reconciliation's deposits, the watcher of the escrow's payouts. */
export const chainCursors = pgTable('chain_cursors', {
  name: text('name').primaryKey(),
  blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
  updatedAt: time('updated_at').notNull().defaultNow(),
});

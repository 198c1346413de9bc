import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { isOneOf, time, wei } from './columns.ts';
import { payments } from './payments.ts';

// Deposits into the escrow contract (decision 026): the reconciliation queue of those nobody posted,
// and the refunds of those the server refused (docs/architecture.md "Payment verification").

/**
 * Deposits found on chain by escrow reconciliation that were not known payments when found: its work
 * queue. The scan only writes rows here and moves its cursor
 * (chain_cursors 'escrow-deposits'); each row is then settled on its own: a round deposit recorded as a
 * bet from its event, or refused and refunded; another kind's left for its own slice.
 */
export const escrowDeposits = pgTable(
  'escrow_deposits',
  {
    id: serial('id').primaryKey(),
    chainId: integer('chain_id').notNull(),
    stakeId: wei('stake_id').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    /** Whoever called `deposit` (the event's owner), lower-case. */
    owner: text('owner').notNull(),
    amount: wei('amount').notNull(),
    /** The contract's market key (`marketKey(id, closesAt)`), lower-case hex. */
    marketKey: text('market_key').notNull(),
    /** The codes of `@pm/escrow/deposit-terms`, as the event states them. */
    kind: integer('kind').notNull(),
    side: integer('side').notNull(),
    terms: text('terms').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    blockTime: time('block_time').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Not before: the grace of a deposit whose round is not known yet, or the backoff after a failure. */
    nextAttemptAt: time('next_attempt_at').notNull(),
    /** known | recorded | escrow_refund | other_kind: what became of it. */
    outcome: text('outcome'),
    resolvedAt: time('resolved_at'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('escrow_deposits_chain_stake_unique').on(t.chainId, t.stakeId),
    index('escrow_deposits_open_idx').on(t.nextAttemptAt).where(sql`resolved_at is null`),
    check('escrow_deposits_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * queued: to be given back (refundStake not asked yet); refunding: its operator action (key
 * `operator_tx_key`) is asked; refunded: the stake went back to its owner (the action confirmed, or
 * found the stake spent); payout_list: its market was no longer open on chain, so the stake is a
 * full-amount leaf of that market's payout list (settlement's, decision 026); failed: the action
 * failed with the market still open, for an operator.
 */
export const ESCROW_REFUND_STATUSES = ['queued', 'refunding', 'refunded', 'payout_list', 'failed'] as const;
export type EscrowRefundStatus = (typeof ESCROW_REFUND_STATUSES)[number];

/**
 * Every escrow deposit the server refused (below the minimum, a round not live at its block, an
 * unknown round, terms the app never sends): returned to its owner, and only to it, by the operator's
 * `refundStake` while its market is open, else as a full-amount leaf of its market's payout list.
 * The settlement reads this table for those leaves: every row of a market not `refunded`.
 */
export const escrowRefunds = pgTable(
  'escrow_refunds',
  {
    id: serial('id').primaryKey(),
    chainId: integer('chain_id').notNull(),
    stakeId: wei('stake_id').notNull(),
    /** The payment row (status escrow_refund) that holds the stake, so no bet can take it too. */
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    txHash: text('tx_hash').notNull(),
    /** The stake's owner (the event's), lower-case: the only address it goes back to. */
    owner: text('owner').notNull(),
    amount: wei('amount').notNull(),
    /** The contract's market key the stake sits in, lower-case hex. */
    marketKey: text('market_key').notNull(),
    /** Why it was refused: the API's error code (AMOUNT_TOO_LOW, ROUND_NOT_LIVE…) or INVALID_TERMS. */
    reason: text('reason').notNull(),
    status: text('status').notNull().default('queued'),
    /** The operator action that refunds it (refundStake), once asked. */
    operatorTxKey: text('operator_tx_key'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: time('next_attempt_at').notNull().defaultNow(),
    createdAt: time('created_at').notNull().defaultNow(),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('escrow_refunds_chain_stake_unique').on(t.chainId, t.stakeId),
    uniqueIndex('escrow_refunds_payment_unique').on(t.paymentId),
    index('escrow_refunds_market_idx').on(t.marketKey),
    index('escrow_refunds_open_idx').on(t.nextAttemptAt).where(sql`status in ('queued', 'refunding')`),
    check('escrow_refunds_status_check', isOneOf(t.status, ESCROW_REFUND_STATUSES)),
    check('escrow_refunds_amount_check', sql`${t.amount} > 0`),
  ],
);

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

// Retired with the vault (issue 29): every payout is the escrow contract's (escrow_relays,
// escrow_stake_payouts); nothing writes these rows, and a later migration drops the table and the
// payout_id columns that name it.

export type ReleasedItems = { bets: number[]; oracleBets: number[]; payments: number[] };

/** The retired vault's payouts: claims and refunds, one on-chain transfer each. */
export const payouts = pgTable(
  'payouts',
  {
    id: serial('id').primaryKey(),
    chainId: integer('chain_id').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: wei('amount').notNull(),
    /**
     * Assigned from the database when the payout is signed (never from an in-memory nonce manager);
     * null while created, so a payout that cannot be signed yet holds no nonce and blocks no other.
     */
    nonce: bigint('nonce', { mode: 'bigint' }),
    kind: text('kind').notNull(),
    /**
     * created → signed → broadcast → confirmed; failed when the transfer can never succeed (its
     * gas estimate or its mined receipt reverted): its bets and refunds are released (`released`).
     */
    status: text('status').notNull().default('created'),
    rawTx: text('raw_tx'),
    gasLimit: bigint('gas_limit', { mode: 'bigint' }),
    txHash: text('tx_hash'),
    maxFeePerGas: wei('max_fee_per_gas'),
    maxPriorityFeePerGas: wei('max_priority_fee_per_gas'),
    /** Every hash signed for this nonce: any of them mining settles the payout. */
    txHashes: jsonb('tx_hashes').$type<string[]>().notNull().default([]),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /**
     * A 0-value self-transfer at this payout's nonce, sent when its own transaction cannot be sent
     * (vault short of funds) so later nonces are not stuck behind it (decision 002).
     */
    cancelRawTx: text('cancel_raw_tx'),
    cancelTxHash: text('cancel_tx_hash'),
    /** On a failed payout: what it paid for, now released (for re-issue to another address). */
    released: jsonb('released').$type<ReleasedItems>(),
    /** A re-issue names the failed payout it replaces. */
    reissuedFrom: integer('reissued_from'),
    broadcastAt: time('broadcast_at'),
    confirmedAt: time('confirmed_at'),
    failedAt: time('failed_at'),
    createdAt: time('created_at').notNull().defaultNow(),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('payouts_nonce_check', sql`${t.nonce} is not null or ${t.status} in ('created', 'failed')`),
    uniqueIndex('payouts_sender_nonce_unique').on(t.chainId, t.fromAddress, t.nonce),
    index('payouts_open_idx').on(t.status).where(sql`status <> 'confirmed'`),
    index('payouts_to_idx').on(t.toAddress),
    check('payouts_kind_check', sql`${t.kind} in ('claim', 'refund')`),
    check(
      'payouts_status_check',
      sql`${t.status} in ('created', 'signed', 'broadcast', 'confirmed', 'failed')`,
    ),
    check('payouts_amount_check', sql`${t.amount} > 0`),
  ],
);

import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { isOneOf, time, wei } from './columns.ts';

// The operator key's own transactions: settlements, relayed claims and refunds on the escrow
// (docs/architecture.md "Operator transactions", decision 026).

/**
 * queued (stored, no nonce) → signed (nonce, raw bytes and hash stored) → sent (a node took it) →
 * confirmed (final, in the canonical block). Ends instead in `skipped` (the call's effect already
 * held: its simulation said so, or a cancel at its nonce mined) or `failed` (a revert, a gas estimate
 * above its cap, a reverted receipt, or broadcasts refused too often).
 */
export const OPERATOR_TX_STATUSES = ['queued', 'signed', 'sent', 'confirmed', 'skipped', 'failed'] as const;
export type OperatorTxStatus = (typeof OPERATOR_TX_STATUSES)[number];

export const operatorTransactions = pgTable(
  'operator_transactions',
  {
    id: serial('id').primaryKey(),
    /** The caller's idempotency key: one action, one row, whatever number of submits. */
    key: text('key').notNull(),
    chainId: integer('chain_id').notNull(),
    /** The operator key's address (lower-case): with the chain, the nonce lane. */
    sender: text('sender').notNull(),
    toAddress: text('to_address').notNull(),
    data: text('data').notNull(),
    value: wei('value').notNull(),
    /** The most gas this call may ever use: an estimate above it fails the action unsent. */
    gasCap: bigint('gas_cap', { mode: 'bigint' }).notNull(),
    /**
     * Signed at its cap, not at the estimate: a call whose gas depends on code the caller does not
     * control (a relayed batch of pushes) must not trust an estimate that code can game.
     */
    signAtCap: boolean('sign_at_cap').notNull().default(false),
    status: text('status').notNull().default('queued'),
    /** Taken when the action is signed; null while queued (a released nonce goes back to null). */
    nonce: bigint('nonce', { mode: 'bigint' }),
    gasLimit: bigint('gas_limit', { mode: 'bigint' }),
    maxFeePerGas: wei('max_fee_per_gas'),
    maxPriorityFeePerGas: wei('max_priority_fee_per_gas'),
    /** The transaction to send now (the action, a fee replacement, or a cancel). */
    rawTx: text('raw_tx'),
    txHash: text('tx_hash'),
    /** Every hash ever signed for this action, cancels included: any of them mining settles it. */
    txHashes: jsonb('tx_hashes').$type<string[]>().notNull().default([]),
    /** The 0-value self-transfers among them, and what the action becomes (and why) if one mines. */
    cancelHashes: jsonb('cancel_hashes').$type<string[]>().notNull().default([]),
    cancelOutcome: text('cancel_outcome'),
    cancelReason: text('cancel_reason'),
    /** Broadcasts refused for a reason we do not know: each released the nonce. */
    refusals: integer('refusals').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** When the nonce was first seen used on chain with none of our hashes (a second look decides). */
    nonceTakenSeenAt: time('nonce_taken_seen_at'),
    /** When the current raw transaction was signed (the replacement clock). */
    signedAt: time('signed_at'),
    /** When the current raw transaction was last sent (the re-broadcast clock). */
    sentAt: time('sent_at'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    blockHash: text('block_hash'),
    gasUsed: bigint('gas_used', { mode: 'bigint' }),
    doneAt: time('done_at'),
    createdAt: time('created_at').notNull().defaultNow(),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('operator_transactions_key_unique').on(t.key),
    uniqueIndex('operator_transactions_lane_nonce_unique').on(t.chainId, t.sender, t.nonce),
    index('operator_transactions_open_idx')
      .on(t.chainId, t.sender, t.status)
      .where(sql`status in ('queued', 'signed', 'sent')`),
    check('operator_transactions_status_check', isOneOf(t.status, OPERATOR_TX_STATUSES)),
    check(
      'operator_transactions_nonce_check',
      sql`${t.nonce} is not null or ${t.status} in ('queued', 'skipped', 'failed')`,
    ),
    check('operator_transactions_cancel_outcome_check', sql`${t.cancelOutcome} in ('skipped', 'failed')`),
    check('operator_transactions_value_check', sql`${t.value} >= 0`),
    check('operator_transactions_gas_cap_check', sql`${t.gasCap} > 0`),
  ],
);

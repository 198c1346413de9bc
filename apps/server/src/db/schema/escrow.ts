import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bets } from './bets.ts';
import { isOneOf, time, wei } from './columns.ts';
import { markets } from './markets.ts';
import { operatorTransactions } from './operator-transactions.ts';
import { oracleBets, oracleRounds } from './oracle.ts';
import { marketFlags } from './settlement.ts';

// Settlements, published payout lists, relayed claims and what left the escrow contract, per stake
// (docs/architecture.md "Rounds on the escrow", decision 026; migration 0017).

/**
 * due (the round ended: its settlement waits for the chain's pool and a queued operator action) →
 * published (`settle` or `settleAsRefund` queued, the list served) → settled (final on chain,
 * `claimable_at` known). A settlement action that fails goes back to due, retried with a backoff.
 */
export const PAYOUT_LIST_STATUSES = ['due', 'published', 'settled'] as const;
export type PayoutListStatus = (typeof PAYOUT_LIST_STATUSES)[number];

/**
 * What the escrow did to a market on its own (migration 0023): `vetoed` (the guardian sent its
 * pending settlement to refunds) or `escaped` (unsettled ESCAPE_DELAY after its close, it turned to
 * refunds on anyone's call). Either way every stake of it is refunded in full.
 */
export const MARKET_FATES = ['vetoed', 'escaped'] as const;
export type MarketFate = (typeof MARKET_FATES)[number];

/** One settlement of a market on the escrow: its published payout list (none for a refund in full). */
export const payoutLists = pgTable(
  'payout_lists',
  {
    id: serial('id').primaryKey(),
    /** `marketKey(marketId, closesAt)`, lower-case 0x-hex: the market in every call and event. */
    marketKey: text('market_key').notNull(),
    /** The oracle round it settles, or (migration 0018) the Predictions market: exactly one of them. */
    epoch: bigint('epoch', { mode: 'number' }).references(() => oracleRounds.epoch),
    predictionMarketId: integer('prediction_market_id').references(() => markets.id),
    /** `settle`'s delay in seconds (a judged market's review window); null: the contract's minimum. */
    payoutDelayS: integer('payout_delay_s'),
    chainId: integer('chain_id').notNull(),
    /** The escrow contract, lower-case. */
    escrow: text('escrow').notNull(),
    marketId: text('market_id').notNull(),
    closesAt: bigint('closes_at', { mode: 'number' }).notNull(),
    /** settleAsRefund: every stake is refunded in full (a cancelled round, a draw, no winner). */
    refund: boolean('refund').notNull(),
    outcome: integer('outcome').notNull(),
    verdictHash: text('verdict_hash').notNull(),
    status: text('status').notNull().default('due'),
    /** The published document (packages/escrow/src/payout-list.ts); null for a refund in full. */
    document: jsonb('document'),
    root: text('root'),
    payoutTotal: wei('payout_total'),
    fee: wei('fee'),
    /** The market's pool on chain when the settlement was built (payoutTotal + fee). */
    pool: wei('pool'),
    /** The latest settlement action queued for it. */
    operatorTxId: integer('operator_tx_id').references(() => operatorTransactions.id),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: time('next_attempt_at').notNull().defaultNow(),
    publishedAt: time('published_at'),
    /** The settlement's block, its time and the first payout's time (a refund: its block time). */
    settledBlock: bigint('settled_block', { mode: 'bigint' }),
    settledAt: time('settled_at'),
    claimableAt: time('claimable_at'),
    /**
     * When the settlement was first seen not final past its expected time (SETTLEMENT_EXPECTED_S after
     * it was created): logged as an error and counted once, whichever instance saw it.
     */
    overdueAt: time('overdue_at'),
    /**
     * Set when the escrow refunded the market on its own (a veto, an escape): the list posted (if
     * any) is superseded, the row is a refund in full, settled, and never built or posted again.
     */
    fate: text('fate'),
    createdAt: time('created_at').notNull().defaultNow(),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payout_lists_market_key_unique').on(t.marketKey),
    check('payout_lists_fate_check', sql`${t.fate} is null or ${isOneOf(t.fate, MARKET_FATES)}`),
    uniqueIndex('payout_lists_epoch_unique').on(t.epoch),
    uniqueIndex('payout_lists_prediction_market_unique').on(t.predictionMarketId),
    check('payout_lists_owner_check', sql`num_nonnulls(${t.epoch}, ${t.predictionMarketId}) = 1`),
    index('payout_lists_pending_idx').on(t.nextAttemptAt).where(sql`status in ('due', 'published')`),
    check('payout_lists_status_check', isOneOf(t.status, PAYOUT_LIST_STATUSES)),
    check(
      'payout_lists_document_check',
      sql`${t.refund} or ${t.status} = 'due' or (${t.document} is not null and ${t.root} is not null)`,
    ),
  ],
);

/** Each paid stake of a published list, with its payout and proof: what GET claimable answers per bet. */
export const payoutListLeaves = pgTable(
  'payout_list_leaves',
  {
    stakeId: wei('stake_id').primaryKey(),
    marketKey: text('market_key')
      .notNull()
      .references(() => payoutLists.marketKey, { onDelete: 'cascade' }),
    payout: wei('payout').notNull(),
    /** The Merkle proof (bytes32[] as 0x-hex strings). */
    proof: jsonb('proof').$type<string[]>().notNull(),
  },
  (t) => [index('payout_list_leaves_market_idx').on(t.marketKey)],
);

export const ESCROW_RELAY_KINDS = ['claim', 'refund'] as const;
/** open (its action may still mine) → done (final: its events recorded) or released (it failed). */
export const ESCROW_RELAY_STATUSES = ['open', 'done', 'released'] as const;

/** A relayed batch (`claimMany` or `refundMany`) of one owner's stakes, sent by the operator key. */
export const escrowRelays = pgTable(
  'escrow_relays',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    owner: text('owner').notNull(),
    operatorTxId: integer('operator_tx_id')
      .notNull()
      .references(() => operatorTransactions.id),
    status: text('status').notNull().default('open'),
    lastError: text('last_error'),
    createdAt: time('created_at').notNull().defaultNow(),
    doneAt: time('done_at'),
  },
  (t) => [
    uniqueIndex('escrow_relays_operator_tx_unique').on(t.operatorTxId),
    index('escrow_relays_open_idx').on(t.owner).where(sql`status = 'open'`),
    // An owner's released relays, newest first: a claim asks whether one reverted on chain lately.
    index('escrow_relays_released_idx').on(t.owner, t.doneAt).where(sql`status = 'released'`),
    check('escrow_relays_kind_check', isOneOf(t.kind, ESCROW_RELAY_KINDS)),
    check('escrow_relays_status_check', isOneOf(t.status, ESCROW_RELAY_STATUSES)),
  ],
);

export const escrowRelayStakes = pgTable(
  'escrow_relay_stakes',
  {
    relayId: integer('relay_id')
      .notNull()
      .references(() => escrowRelays.id),
    stakeId: wei('stake_id').notNull(),
    /** What the stake is (migration 0018): a round bet, a market bet or a flag's bond; exactly one. */
    oracleBetId: integer('oracle_bet_id').references(() => oracleBets.id),
    betId: integer('bet_id').references(() => bets.id),
    flagId: integer('flag_id').references(() => marketFlags.id),
  },
  (t) => [
    primaryKey({ columns: [t.relayId, t.stakeId] }),
    index('escrow_relay_stakes_stake_idx').on(t.stakeId),
    check(
      'escrow_relay_stakes_owner_check',
      sql`num_nonnulls(${t.oracleBetId}, ${t.betId}, ${t.flagId}) = 1`,
    ),
  ],
);

export const ESCROW_PAYOUT_KINDS = ['claimed', 'refunded'] as const;

/**
 * What left the escrow for a stake, from a final `Claimed` or `Refunded` event (once per stake: the
 * contract zeroes a spent stake). `credited`: the push failed and the amount became the owner's
 * credit (a `Credited` event), which the owner withdraws; the bet counts as paid.
 */
export const escrowStakePayouts = pgTable(
  'escrow_stake_payouts',
  {
    stakeId: wei('stake_id').primaryKey(),
    marketKey: text('market_key').notNull(),
    owner: text('owner').notNull(),
    kind: text('kind').notNull(),
    amount: wei('amount').notNull(),
    credited: boolean('credited').notNull().default(false),
    txHash: text('tx_hash').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** The relayed batch that paid it; null when anyone else did (the wallet's own claim). */
    relayId: integer('relay_id').references(() => escrowRelays.id),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('escrow_stake_payouts_market_idx').on(t.marketKey),
    check('escrow_stake_payouts_kind_check', isOneOf(t.kind, ESCROW_PAYOUT_KINDS)),
  ],
);

/** pending (to apply) → applied (the market or round shows refunded) or unknown (no market of ours). */
export const MARKET_FATE_STATUSES = ['pending', 'applied', 'unknown'] as const;

/**
 * Every `Vetoed` and `Escaped` event of final blocks (docs/architecture.md "Following the chain"),
 * the market-fates job's work queue: its scan only writes rows here and moves its cursor
 * (chain_cursors 'escrow-market-fates'); each row is then applied on its own, its failures kept on it.
 */
export const escrowMarketFates = pgTable(
  'escrow_market_fates',
  {
    id: serial('id').primaryKey(),
    chainId: integer('chain_id').notNull(),
    /** The contract's market key, lower-case hex. */
    marketKey: text('market_key').notNull(),
    fate: text('fate').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockTime: time('block_time').notNull(),
    /**
     * The stakes of this market refunded in the event's own transaction (an escape comes with its
     * first refund): how a market known by none of its keys' records is found, by one of its stakes.
     */
    stakeIds: jsonb('stake_ids').$type<string[]>().notNull().default([]),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: time('next_attempt_at').notNull().defaultNow(),
    appliedAt: time('applied_at'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('escrow_market_fates_event_unique').on(t.chainId, t.txHash, t.logIndex),
    index('escrow_market_fates_pending_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    check('escrow_market_fates_fate_check', isOneOf(t.fate, MARKET_FATES)),
    check('escrow_market_fates_status_check', isOneOf(t.status, MARKET_FATE_STATUSES)),
  ],
);

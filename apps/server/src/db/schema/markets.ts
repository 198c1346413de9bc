import { MARKET_CATEGORIES, MARKET_DURATIONS } from '@pm/core/constants';
import { sql } from 'drizzle-orm';
import {
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
import { isOneOf, price, time, wei } from './columns.ts';

// Markets, and the per-category counts their triggers keep.

export const markets = pgTable(
  'markets',
  {
    id: serial('id').primaryKey(),
    creatorAddress: text('creator_address').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    resolutionInstructions: text('resolution_instructions'),
    betType: text('bet_type').notNull().default('custom_bet'),
    category: text('category').notNull(),
    duration: text('duration').notNull(),
    targetSymbol: text('target_symbol'),
    targetPrice: price('target_price'),
    startPrice: price('start_price'),
    comparisonType: text('comparison_type'),
    /**
     * Price markets (docs/decisions/020): the feed that decides it (an aggregator address, a
     * ticker host or "simulated"), fixed at creation, and the sampled reading that settled it.
     */
    priceFeed: text('price_feed'),
    settlementPrice: price('settlement_price'),
    settlementRoundId: text('settlement_round_id'),
    settlementUpdatedAt: time('settlement_updated_at'),
    startTime: time('start_time').notNull(),
    deadline: time('deadline').notNull(),
    status: text('status').notNull().default('active'),
    totalYesAmount: wei('total_yes_amount').notNull().default(sql`0`),
    totalNoAmount: wei('total_no_amount').notNull().default(sql`0`),
    yesCount: integer('yes_count').notNull().default(0),
    noCount: integer('no_count').notNull().default(0),
    result: text('result'),
    aiVerdict: text('ai_verdict'),
    aiConfidence: integer('ai_confidence'),
    aiSources: jsonb('ai_sources').$type<string[]>(),
    /** Fixed at creation: what will judge this market (docs/architecture.md "Markets"). */
    resolverModel: text('resolver_model').notNull(),
    resolverPromptVersion: text('resolver_prompt_version').notNull(),
    contentHash: text('content_hash').notNull(),
    resolutionAttempts: integer('resolution_attempts').notNull().default(0),
    nextResolutionAt: time('next_resolution_at'),
    resolutionError: text('resolution_error'),
    /**
     * A verdict proposed and in review (docs/decisions/011): the market stays `settling`, its
     * bets pending, until review_ends_at passes unflagged or an operator confirms or overturns it.
     */
    proposedResult: text('proposed_result'),
    proposedBy: text('proposed_by'),
    proposedPromptVersion: text('proposed_prompt_version'),
    proposedConfidence: integer('proposed_confidence'),
    proposedAnalysis: text('proposed_analysis'),
    proposedSources: jsonb('proposed_sources').$type<string[]>(),
    proposedAt: time('proposed_at'),
    reviewEndsAt: time('review_ends_at'),
    flagCount: integer('flag_count').notNull().default(0),
    /**
     * The market on the escrow contract (docs/decisions/026, migration 0018). `escrow_id` is the
     * raw id its creator's deposit chose (lower-case 0x-hex, 32 bytes); `escrow_key` the contract's key,
     * `marketKey(escrow_id, deadline in unix seconds)`. Null only on markets made before the escrow.
     */
    escrowId: text('escrow_id'),
    escrowKey: text('escrow_key'),
    createdAt: time('created_at').notNull().defaultNow(),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('markets_escrow_id_unique').on(t.escrowId),
    uniqueIndex('markets_escrow_key_unique').on(t.escrowKey),
    index('markets_status_created_idx').on(t.status, t.createdAt),
    index('markets_status_updated_idx').on(t.status, t.updatedAt),
    index('markets_active_deadline_idx').on(t.deadline).where(sql`status = 'active'`),
    // Migration 0006 (docs/decisions/016): each list page is one ordered index range, at any size.
    index('markets_open_created_idx').on(t.createdAt, t.id).where(sql`status in ('active', 'settling')`),
    index('markets_open_category_created_idx')
      .on(t.category, t.createdAt, t.id)
      .where(sql`status in ('active', 'settling')`),
    index('markets_settled_updated_idx').on(t.updatedAt, t.id).where(sql`status = 'settled'`),
    index('markets_settled_category_updated_idx')
      .on(t.category, t.updatedAt, t.id)
      .where(sql`status = 'settled'`),
    // Migration 0009: the ?betType= filter is one ordered index range too (decision 016).
    index('markets_open_bet_type_created_idx')
      .on(t.betType, t.createdAt, t.id)
      .where(sql`status in ('active', 'settling')`),
    index('markets_settled_bet_type_updated_idx')
      .on(t.betType, t.updatedAt, t.id)
      .where(sql`status = 'settled'`),
    // The price-market settlement job's queue: settling price markets, by deadline.
    index('markets_price_settling_deadline_idx')
      .on(t.deadline, t.id)
      .where(sql`status = 'settling' and bet_type = 'price_prediction'`),
    check('markets_status_check', sql`${t.status} in ('active', 'settling', 'settled')`),
    check('markets_result_check', sql`${t.result} is null or ${t.result} in ('YES', 'NO', 'VOID')`),
    check('markets_category_check', isOneOf(t.category, MARKET_CATEGORIES)),
    check('markets_duration_check', isOneOf(t.duration, MARKET_DURATIONS)),
    check('markets_bet_type_check', sql`${t.betType} in ('custom_bet', 'price_prediction')`),
    check('markets_totals_check', sql`${t.totalYesAmount} >= 0 and ${t.totalNoAmount} >= 0`),
    check(
      'markets_proposed_result_check',
      sql`${t.proposedResult} is null or ${t.proposedResult} in ('YES', 'NO', 'VOID')`,
    ),
    check(
      'markets_proposal_check',
      sql`(${t.proposedAt} is null) = (${t.reviewEndsAt} is null) and (${t.proposedAt} is null) = (${t.proposedResult} is null)`,
    ),
    index('markets_review_due_idx')
      .on(t.reviewEndsAt)
      .where(sql`status = 'settling' and proposed_at is not null`),
  ],
);

/**
 * How many markets each (category, status) holds, kept by statement triggers on `markets` in the
 * same transaction as the change (migration 0006), so the category chips never count the table.
 */
export const marketCounts = pgTable(
  'market_counts',
  {
    category: text('category').notNull(),
    status: text('status').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.category, t.status] })],
);

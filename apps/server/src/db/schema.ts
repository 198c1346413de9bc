import { MARKET_CATEGORIES, MARKET_DURATIONS, POSITIONS, PREDICTIONS } from '@pm/core/constants';
import { FLAG_REASON_MAX } from '@pm/core/contract/review';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// One schema for PGlite and PostgreSQL (docs/architecture.md "Chosen parts"). Money is NUMERIC(78,0) read as an
// exact bigint; addresses are stored lower-case; times are timestamptz. No pg enums: text with
// CHECK constraints keeps migrations free of schema-qualified types, so tests can run each file in
// its own schema.

const wei = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' });
/** USD prices scaled by 1e8 (docs/product.md §9). */
const price = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });
const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * `column in ('a', 'b', …)` from one of core's value tuples, so the database accepts exactly what
 * the contract does. The values are core's constants, never input; the text is what the checked-in
 * migrations hold, so drizzle-kit sees no drift.
 */
const isOneOf = (column: AnyColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map((value) => `'${value}'`).join(', '))})`;

/** Every inbound vault transfer we have seen, whatever became of it (docs/architecture.md "Payment verification"). */
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
     * recorded: became a bet; refund_due: valid money we could not turn into a bet; refund_held: owed
     * back but not paid automatically (costs more gas than it returns, or the transfer failed), for an
     * operator; refunded.
     */
    status: text('status').notNull(),
    refundReason: text('refund_reason'),
    refundPayoutId: integer('refund_payout_id'),
    /** The payouts job's failures on this refund: it moves on and tries again later (backoff). */
    refundAttempts: integer('refund_attempts').notNull().default(0),
    refundLastError: text('refund_last_error'),
    refundNextAttemptAt: time('refund_next_attempt_at'),
    /**
     * What is owed back when it is not `amount`: a flag's bond returned with its reward out of the
     * market's fee (issue 22). Null: the amount paid.
     */
    refundAmount: wei('refund_amount'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_chain_tx_unique').on(t.chainId, t.txHash),
    index('payments_refund_due_idx').on(t.status).where(sql`status = 'refund_due'`),
    // The reserves check sums every refund owed, held ones too, every 15 s (issue 20).
    index('payments_refund_held_idx').on(t.status).where(sql`status = 'refund_held'`),
    check(
      'payments_purpose_check',
      sql`${t.purpose} in ('market_create', 'market_bet', 'oracle_bet', 'market_flag', 'unknown')`,
    ),
    check('payments_status_check', sql`${t.status} in ('recorded', 'refund_due', 'refund_held', 'refunded')`),
    // A 0-wei payment moves no money; it must never become a 0-wei refund (review F1).
    check('payments_amount_check', sql`${t.amount} > 0`),
    check('payments_refund_amount_check', sql`${t.refundAmount} is null or ${t.refundAmount} >= ${t.amount}`),
  ],
);

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
     * Price markets (issue 19, decision 020): the feed that decides it (an aggregator address, a
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
     * A verdict proposed and in review (issue 11, decision 011): the market stays `settling`, its
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
    createdAt: time('created_at').notNull().defaultNow(),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('markets_status_created_idx').on(t.status, t.createdAt),
    index('markets_status_updated_idx').on(t.status, t.updatedAt),
    index('markets_active_deadline_idx').on(t.deadline).where(sql`status = 'active'`),
    // Migration 0006 (issue 12, query shape): each list page is one ordered index range, at any size.
    index('markets_open_created_idx').on(t.createdAt, t.id).where(sql`status in ('active', 'settling')`),
    index('markets_open_category_created_idx')
      .on(t.category, t.createdAt, t.id)
      .where(sql`status in ('active', 'settling')`),
    index('markets_settled_updated_idx').on(t.updatedAt, t.id).where(sql`status = 'settled'`),
    index('markets_settled_category_updated_idx')
      .on(t.category, t.updatedAt, t.id)
      .where(sql`status = 'settled'`),
    // Migration 0009 (issue 19): the ?betType= filter is one ordered index range too (decision 016).
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

/** One flag per bettor per proposed verdict, with the EIP-712 signature that made it (decision 011). */
export const marketFlags = pgTable(
  'market_flags',
  {
    id: serial('id').primaryKey(),
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id),
    address: text('address').notNull(),
    reason: text('reason').notNull(),
    expiry: bigint('expiry', { mode: 'number' }).notNull(),
    signature: text('signature').notNull(),
    /**
     * Issue 22: the flag's bond, a payment of purpose market_flag (null on flags from before bonds).
     * held until the market settles, then returned (overturned: bond + reward), forfeited (confirmed:
     * to the winners) or returned_void (the market refunded every stake).
     */
    bondPaymentId: integer('bond_payment_id').references(() => payments.id),
    bondAmount: wei('bond_amount'),
    bondStatus: text('bond_status'),
    /** What went back to the flagger (bond + reward), and the reward in it, once settled. */
    bondReturnAmount: wei('bond_return_amount'),
    bondRewardAmount: wei('bond_reward_amount'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('market_flags_market_address_unique').on(t.marketId, t.address),
    uniqueIndex('market_flags_bond_payment_unique').on(t.bondPaymentId),
    // A wallet's bonds in its history, in the history's order (issue 22).
    index('market_flags_address_created_id_idx').on(t.address, t.createdAt, t.id),
    check(
      'market_flags_bond_status_check',
      sql`${t.bondStatus} is null or ${t.bondStatus} in ('held', 'returned', 'forfeited', 'returned_void')`,
    ),
    check(
      'market_flags_reason_check',
      sql`char_length(${t.reason}) between 1 and ${sql.raw(String(FLAG_REASON_MAX))}`,
    ),
  ],
);

/** Every step of a market's resolution, shown as its timeline (issue 11). */
export const marketResolutionEvents = pgTable(
  'market_resolution_events',
  {
    id: serial('id').primaryKey(),
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id),
    kind: text('kind').notNull(),
    actor: text('actor').notNull(),
    result: text('result'),
    detail: text('detail'),
    /** Issue 22: a flag's bond (flagged), or what went back to the flagger (bond_*). */
    amount: wei('amount'),
    /** The reward out of the fee within `amount` (bond_returned). */
    reward: wei('reward'),
    createdAt: time('created_at').notNull(),
  },
  (t) => [
    index('market_resolution_events_market_idx').on(t.marketId, t.id),
    check(
      'market_resolution_events_kind_check',
      sql`${t.kind} in ('proposed', 'flagged', 'confirmed', 'overturned', 'settled', 'bond_returned', 'bond_forfeited', 'bond_returned_void')`,
    ),
    check(
      'market_resolution_events_result_check',
      sql`${t.result} is null or ${t.result} in ('YES', 'NO', 'VOID')`,
    ),
  ],
);

/** One row per judged attempt of a market (issue 18, decision 019): what was asked, cited and checked. */
export const marketEvidenceAttempts = pgTable(
  'market_evidence_attempts',
  {
    id: serial('id').primaryKey(),
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id),
    /** The market's resolution attempt (1-based): resolution_attempts + 1 when it was judged. */
    attempt: integer('attempt').notNull(),
    searchProvider: text('search_provider'),
    queries: jsonb('queries').$type<string[]>().notNull(),
    /** Every model that judged, in order (the first is the market's judge, the rest second opinions). */
    models: jsonb('models').$type<string[]>().notNull(),
    /** Each model's answer: verdict, confidence, analysis, and its citations' verification. */
    verdicts: jsonb('verdicts').$type<EvidenceVerdictRecord[]>().notNull(),
    /** The citations shown to bettors: the first model's, each with whether the server verified it. */
    citations: jsonb('citations').$type<EvidenceCitationRecord[]>().notNull(),
    verificationStatus: text('verification_status'),
    verificationReason: text('verification_reason'),
    distinctSites: integer('distinct_sites').notNull().default(0),
    minSites: integer('min_sites').notNull(),
    createdAt: time('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('market_evidence_attempts_market_attempt_unique').on(t.marketId, t.attempt),
    check(
      'market_evidence_attempts_status_check',
      sql`${t.verificationStatus} is null or ${t.verificationStatus} in ('verified', 'failed')`,
    ),
  ],
);

/** Every page read (or tried) for a market attempt, with the sha256 of its body as received. */
export const marketEvidencePages = pgTable(
  'market_evidence_pages',
  {
    id: serial('id').primaryKey(),
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id),
    attempt: integer('attempt').notNull(),
    /** Its place in the gatherer's list (the creator's URLs first). */
    position: integer('position').notNull(),
    url: text('url').notNull(),
    finalUrl: text('final_url').notNull(),
    site: text('site').notNull(),
    title: text('title'),
    httpStatus: integer('http_status'),
    fetchedAt: time('fetched_at').notNull(),
    bytes: integer('bytes').notNull(),
    contentSha256: text('content_sha256'),
    /** The extracted text, capped (EVIDENCE_TEXT_MAX): what quotes were verified against. */
    text: text('text').notNull(),
    shownToJudge: boolean('shown_to_judge').notNull(),
    error: text('error'),
    fromCreator: boolean('from_creator').notNull(),
  },
  (t) => [index('market_evidence_pages_market_attempt_idx').on(t.marketId, t.attempt, t.position)],
);

export type EvidenceCitationRecord = {
  url: string;
  quote: string;
  /** The page (its position) the url names, null when none read for this attempt has it. */
  position: number | null;
  verified: boolean;
  problem: string | null;
};
export type EvidenceVerdictRecord = {
  model: string;
  verdict: 'YES' | 'NO' | 'UNDECIDABLE';
  confidence: number;
  analysis: string;
  citations: EvidenceCitationRecord[];
  verification: { status: 'verified' | 'failed'; reason: string | null; distinctSites: number } | null;
};

export type ReleasedItems = { bets: number[]; oracleBets: number[]; payments: number[] };

/** Vault payouts: claims and refunds, one on-chain transfer each (docs/architecture.md "Claims and payouts"). */
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
    payoutId: integer('payout_id').references(() => payouts.id),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bets_payment_unique').on(t.paymentId),
    // (…, created_at, id): the pages' exact order, so a page is read in order and stops at its limit.
    index('bets_market_created_id_idx').on(t.marketId, t.createdAt, t.id),
    index('bets_user_created_id_idx').on(t.userAddress, t.createdAt, t.id),
    // Migration 0013 (issue 21): a market's distinct bettors from the index alone, and one wallet's
    // bets in one market (?address=) as one ordered range.
    index('bets_market_user_created_id_idx').on(t.marketId, t.userAddress, t.createdAt, t.id),
    // Migration 0014 (issue 21, settlement): no index names a column settlement or a claim writes
    // (status, payout_amount, payout_id), and the table keeps half of each page free
    // (fillfactor 50, set in the migration: drizzle does not model it), so settling a market
    // rewrites each bet in its own page (a HOT update) without touching any index. A claimable
    // read is one wallet's range of bets_user_created_id_idx. A test keeps this true.
    check('bets_prediction_check', isOneOf(t.prediction, PREDICTIONS)),
    check('bets_status_check', sql`${t.status} in ('pending', 'won', 'lost', 'claimed', 'refunded')`),
    check('bets_amount_check', sql`${t.amount} > 0`),
  ],
);

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
    payoutId: integer('payout_id').references(() => payouts.id),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oracle_bets_payment_unique').on(t.paymentId),
    index('oracle_bets_epoch_idx').on(t.epoch),
    index('oracle_bets_user_idx').on(t.userAddress, t.createdAt),
    index('oracle_bets_claimable_idx')
      .on(t.userAddress)
      .where(sql`payout_id is null and claimed = false and payout_amount > 0`),
    check('oracle_bets_position_check', isOneOf(t.position, POSITIONS)),
    check('oracle_bets_amount_check', sql`${t.amount} > 0`),
  ],
);

/** Leaderboard aggregates, maintained at settlement (docs/product.md §7 leaderboard; issue 5: no scans). */
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

/** Feed readings the server sampled; lock and close prices are chosen from these. */
export const priceSamples = pgTable(
  'price_samples',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    source: text('source').notNull(),
    /** Which coin (issue 19); rows from before migration 0009 are BNB's. */
    symbol: text('symbol').notNull().default('BNB'),
    price: price('price').notNull(),
    feedRoundId: text('feed_round_id'),
    /** When the feed says the price was updated, not when we read it. */
    updatedAt: time('updated_at').notNull(),
    sampledAt: time('sampled_at').notNull(),
  },
  (t) => [
    index('price_samples_sampled_idx').on(t.sampledAt),
    // Each coin's latest sample and its samples around an instant (issue 19).
    index('price_samples_symbol_sampled_idx').on(t.symbol, t.sampledAt),
  ],
);

/**
 * Realtime outbox: written in the same transaction as the change; a trigger NOTIFYs on insert, and
 * PostgreSQL delivers that only on commit (docs/architecture.md "Chosen parts").
 */
export const outbox = pgTable('outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  topic: text('topic').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  createdAt: time('created_at').notNull().defaultNow(),
});

/** Single-use nonces for operator signatures (docs/architecture.md "Operators"). */
/**
 * Operator nonces that have been USED (issue 22): issuing one writes nothing (it is an HMAC of its
 * expiry and randomness under `server_secrets`' key), so no stranger can fill this table; a row is
 * written only by an operator's verified action, and kept until the nonce expires, so a replay is
 * refused.
 */
export const operatorNonces = pgTable('operator_nonces', {
  nonce: text('nonce').primaryKey(),
  expiresAt: time('expires_at').notNull(),
  usedAt: time('used_at'),
});

/**
 * Secrets every instance of one deployment shares, made once by whichever instance needs one first
 * (the operator-nonce HMAC key). Never sent anywhere; a database dump holds them.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: time('created_at').notNull().defaultNow(),
});

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

/**
 * Inbound vault transfers found on chain by reconciliation that were not known payments when
 * found: its work queue. The scan only writes rows here and moves its cursor, so no transfer can
 * hold it; each row is then settled on its own (recorded from its intent or request, or refunded),
 * with its failures, attempts and next try kept on it (docs/architecture.md "Jobs").
 */
export const vaultTransfers = pgTable(
  'vault_transfers',
  {
    id: serial('id').primaryKey(),
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    fromAddress: text('from_address').notNull(),
    amount: wei('amount').notNull(),
    /** The transaction's data, as sent (hex). */
    input: text('input').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    blockTime: time('block_time').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Not before: a create's grace for its request to arrive, or the backoff after a failure. */
    nextAttemptAt: time('next_attempt_at').notNull(),
    /** recorded | refund_due | known | reverted: what became of it. */
    outcome: text('outcome'),
    resolvedAt: time('resolved_at'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vault_transfers_chain_tx_unique').on(t.chainId, t.txHash),
    index('vault_transfers_open_idx').on(t.nextAttemptAt).where(sql`resolved_at is null`),
    check('vault_transfers_amount_check', sql`${t.amount} > 0`),
  ],
);

/** How far a chain scan (vault reconciliation) has read. */
export const chainCursors = pgTable('chain_cursors', {
  name: text('name').primaryKey(),
  blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
  updatedAt: time('updated_at').notNull().defaultNow(),
});

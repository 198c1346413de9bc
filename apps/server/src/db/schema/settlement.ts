import { FLAG_REASON_MAX } from '@pm/core/contract/review';
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
import { time, wei } from './columns.ts';
import { markets } from './markets.ts';
import { payments } from './payments.ts';

// A market's resolution: flags with their bonds, its timeline, and the evidence of each judged attempt.

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
     * The flag's bond, a payment of purpose market_flag (null on flags from before bonds), held
     * until the market settles, then returned (overturned: bond + reward), forfeited (confirmed:
     * to the winners) or returned_void (the market refunded every stake).
     */
    bondPaymentId: integer('bond_payment_id').references(() => payments.id),
    bondAmount: wei('bond_amount'),
    bondStatus: text('bond_status'),
    /** What went back to the flagger (bond + reward), and the reward in it, once settled. */
    bondReturnAmount: wei('bond_return_amount'),
    bondRewardAmount: wei('bond_reward_amount'),
    /** The escrow stake of its bond, a dispute deposit (migration 0018); null on flags from before the escrow. */
    stakeId: wei('stake_id'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('market_flags_market_address_unique').on(t.marketId, t.address),
    uniqueIndex('market_flags_bond_payment_unique').on(t.bondPaymentId),
    uniqueIndex('market_flags_stake_unique').on(t.stakeId),
    // A wallet's bonds in its history, in the history's order (docs/decisions/012).
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

/** Every step of a market's resolution, shown as its timeline (docs/decisions/011). */
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
    /** A flag's bond (flagged), or what went back to the flagger (bond_*). */
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

/** One row per judged attempt of a market (docs/decisions/019): what was asked, cited and checked. */
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

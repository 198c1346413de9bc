import * as z from 'zod/mini';
import { MAX_DESCRIPTION_LENGTH, MAX_INSTRUCTIONS_LENGTH, MAX_TITLE_LENGTH } from '../constants.ts';
import { DurationSchema, IsoTimeSchema } from './primitives.ts';

// The evidence a market's judge read and quoted (issue 18): every page fetched for an attempt, with
// the sha256 of its body exactly as received, and the quotes the server verified word for word
// against those pages. A bettor can open each URL and check the quote and the hash.

/** sha256 hex of the page body bytes as received (64 lower-case hex digits). */
export const ContentSha256Schema = z.string().check(z.regex(/^[0-9a-f]{64}$/));

export const EvidencePageSchema = z.object({
  /** The URL we asked for. */
  url: z.string(),
  /** Where the redirects ended (the same as url when there were none). */
  finalUrl: z.string(),
  /** The registrable domain (public-suffix list), e.g. "bbc.co.uk". */
  site: z.string(),
  title: z.nullable(z.string()),
  httpStatus: z.nullable(z.int()),
  fetchedAt: IsoTimeSchema,
  bytes: z.int(),
  contentSha256: z.nullable(ContentSha256Schema),
  /** Some of its passages were in the judge's prompt. */
  shownToJudge: z.boolean(),
  /** Why it could not be read (refused address, timeout, too large, not HTML); null when read. */
  error: z.nullable(z.string()),
});
export type EvidencePage = z.infer<typeof EvidencePageSchema>;

export const EvidenceCitationSchema = z.object({
  url: z.string(),
  site: z.string(),
  title: z.nullable(z.string()),
  quote: z.string(),
  fetchedAt: IsoTimeSchema,
  contentSha256: z.nullable(ContentSha256Schema),
  /** The server found the quote in that page's text (after NFKC, whitespace and quote-mark folding). */
  verified: z.boolean(),
});
export type EvidenceCitation = z.infer<typeof EvidenceCitationSchema>;

export const EvidenceVerificationSchema = z.object({
  /** verified: every citation checked and enough sites; failed: the reason says which check failed. */
  status: z.enum(['verified', 'failed']),
  reason: z.nullable(z.string()),
  /** Distinct sites among the verified citations, and how many the deployment requires. */
  distinctSites: z.int(),
  minSites: z.int(),
});

export const MarketEvidenceSchema = z.object({
  /** The resolution attempt these pages were read for (1-based). */
  attempt: z.int(),
  /** What was asked of the search provider (none when only the creator's URLs were read). */
  searchProvider: z.nullable(z.string()),
  queries: z.array(z.string()),
  pagesRead: z.int(),
  sitesRead: z.int(),
  pages: z.array(EvidencePageSchema),
  citations: z.array(EvidenceCitationSchema),
  verification: z.nullable(EvidenceVerificationSchema),
  /** The model or models that judged this evidence (a second opinion when more than one). */
  models: z.array(z.string()),
});
export type MarketEvidence = z.infer<typeof MarketEvidenceSchema>;

/** POST /api/markets/analyze: can the question be decided from public sources by its deadline? */
export const AnalyzeMarketBodySchema = z.strictObject({
  description: z.string().check(z.maxLength(MAX_DESCRIPTION_LENGTH)),
  title: z.optional(z.string().check(z.maxLength(MAX_TITLE_LENGTH))),
  resolutionInstructions: z.optional(z.string().check(z.maxLength(MAX_INSTRUCTIONS_LENGTH))),
  duration: DurationSchema,
});
export type AnalyzeMarketBody = z.infer<typeof AnalyzeMarketBodySchema>;

export const ANALYZE_PROBLEM_KINDS = [
  'ambiguous',
  'no_source',
  'not_knowable_by_deadline',
  'already_decided',
  'other',
] as const;

export const AnalyzeMarketResponseSchema = z.object({
  /** false: no AI on this deployment, an operator decides; the rest is then empty. */
  aiConfigured: z.boolean(),
  /** The judge thinks public sources can decide it by the deadline (null without AI). */
  decidable: z.nullable(z.boolean()),
  problems: z.array(z.object({ kind: z.enum(ANALYZE_PROBLEM_KINDS), detail: z.string() })),
  /** Resolution instructions the creator can take with one click; null when none are offered. */
  suggestedInstructions: z.nullable(z.string()),
  model: z.nullable(z.string()),
});
export type AnalyzeMarketResponse = z.infer<typeof AnalyzeMarketResponseSchema>;

/** The resolution settings bettors are shown in "How resolution works" (GET /api/config). */
export const ResolutionSettingsSchema = z.object({
  /** The models that judge new markets (more than one: they must agree); empty without AI. */
  models: z.array(z.string()),
  /** searxng | brave | tavily, or null: only the URLs the creator named are read. */
  searchProvider: z.nullable(z.enum(['searxng', 'brave', 'tavily'])),
  /** At most this many pages are read per attempt (EVIDENCE_MAX_PAGES). */
  maxPages: z.int(),
  /** Verified quotes must come from at least this many distinct sites (EVIDENCE_MIN_SOURCES). */
  minSources: z.int(),
  /** A YES/NO below this confidence does not settle (AI_MIN_CONFIDENCE). */
  minConfidence: z.int(),
});
export type ResolutionSettings = z.infer<typeof ResolutionSettingsSchema>;

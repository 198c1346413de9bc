import * as z from 'zod/mini';
import { IsoTimeSchema } from './primitives.ts';

// The evidence a market's judge read and quoted (decision 018): every page fetched for an attempt, with
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
  /**
   * The creator wrote this URL into the market's text: a source the creator chose.
   * With a search engine, a verdict needs a verified quote from a page that is not.
   */
  namedByCreator: z.boolean(),
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
  /** The quoted page is one the creator named; false for a URL no page was read at. */
  namedByCreator: z.boolean(),
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

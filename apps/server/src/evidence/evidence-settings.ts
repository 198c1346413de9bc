import type { SearchSettings } from './search-providers.ts';

// The gatherer's knobs (docs/decisions/018-evidence-gathering.md). The server's config owns
// the environment variables and passes plain values here; everything but `search` has a default.

export type EvidenceSettings = {
  /** null: no search engine; only the URLs the creator named are read. */
  search: SearchSettings | null;
  /** Pages read per attempt, the creator's included (EVIDENCE_MAX_PAGES). */
  maxPages?: number;
  /**
   * The creator's URLs read per attempt (EVIDENCE_MAX_CREATOR_PAGES); with a search engine, also at
   * most half of maxPages, so the search results always have room (docs/decisions/019).
   */
  maxCreatorPages?: number;
  /** Loopback "host:port" pairs that may be read although loopback, for tests and demos only. */
  allowHosts?: string[];
  userAgent?: string;
  /** One page's whole read: lookup, connection, redirects and body. */
  pageTimeoutMs?: number;
  /** Body bytes read per page; past them the page is cut and recorded as TOO_LARGE. */
  maxBodyBytes?: number;
  /** What the judge is shown, in tokens (about four characters each). */
  passageTokenBudget?: number;
  maxPassagesPerPage?: number;
  /** Pages read at once. */
  concurrency?: number;
  /** Redirects followed per page, each checked like the first URL. */
  maxRedirects?: number;
  /** The whole gather: pages still being read then are cut (ABORTED), so an attempt never hangs. */
  gatherTimeoutMs?: number;
  /**
   * One page's reading (DOM, Readability) in a reader thread, from the moment the thread starts it
   * (EVIDENCE_PAGE_PARSE_MS); over it the thread is ended and the page is PARSE_TIMEOUT
   * (docs/decisions/027).
   * Ranking gets as much per page read, at most gatherTimeoutMs.
   */
  pageParseMs?: number;
  /** Reader threads at most (page-readers.ts); further pages wait their turn. */
  parseThreads?: number;
};

export type ResolvedEvidenceSettings = Required<Omit<EvidenceSettings, 'search'>> & {
  search: SearchSettings | null;
};

/** Names the bot and where a site owner can read why it came, as crawlers are expected to. */
export function evidenceUserAgent(publicUrl?: string | null): string {
  return publicUrl ? `BNBPredictEvidenceBot/1.0 (+${publicUrl})` : 'BNBPredictEvidenceBot/1.0';
}

export const EVIDENCE_DEFAULTS = {
  maxPages: 25,
  maxCreatorPages: 5,
  allowHosts: [] as string[],
  userAgent: evidenceUserAgent(),
  pageTimeoutMs: 10_000,
  maxBodyBytes: 2 * 1024 * 1024,
  passageTokenBudget: 6_000,
  maxPassagesPerPage: 4,
  concurrency: 6,
  maxRedirects: 3,
  gatherTimeoutMs: 40_000,
  pageParseMs: 2_000,
  parseThreads: 2,
} as const satisfies Omit<ResolvedEvidenceSettings, 'search'>;

/**
 * How many of the creator's URLs one attempt reads (docs/decisions/019): at most maxCreatorPages, and
 * with a search engine at most half the pages, so the search results always have room.
 */
export function creatorPageSlots(
  settings: { maxPages: number; maxCreatorPages: number },
  searchConfigured: boolean,
): number {
  return Math.min(
    settings.maxCreatorPages,
    searchConfigured ? Math.floor(settings.maxPages / 2) : settings.maxPages,
  );
}

export function resolveEvidenceSettings(settings: EvidenceSettings): ResolvedEvidenceSettings {
  const defined = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  return {
    ...EVIDENCE_DEFAULTS,
    allowHosts: [...EVIDENCE_DEFAULTS.allowHosts],
    ...defined,
  } as ResolvedEvidenceSettings;
}

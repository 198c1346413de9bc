// What the judge reads before it decides (docs/decisions/018): the pages gathered for one resolution
// attempt of a market, and the passages of them ranked for its question. The gatherer (search,
// SSRF-safe fetching, article extraction, ranking) lives in this folder; the resolution pipeline
// consumes only these types, so either side can be tested without the other.

/** The question as bettors saw it; the creator's text is untrusted. */
export type EvidenceQuestion = {
  title: string;
  description: string;
  resolutionInstructions: string | null;
  deadline: Date;
  /** Server time now. */
  now: Date;
};

/** One page we tried to read for an attempt, read or not. */
export type FetchedPage = {
  /** The URL we asked for. */
  url: string;
  /** Where the redirects ended (url when there were none). */
  finalUrl: string;
  /** Registrable domain of finalUrl from the public-suffix list ("bbc.co.uk"); the host for an IP. */
  site: string;
  title: string | null;
  /** null when no HTTP answer came (refused before connecting, timeout, network). */
  httpStatus: number | null;
  fetchedAt: Date;
  /** Body bytes received (at most the cap). */
  bytes: number;
  /** sha256 hex of the body bytes exactly as received; null when nothing was received. */
  contentSha256: string | null;
  /** The article text (Readability), capped; '' when the page could not be read. */
  text: string;
  /** Why the page could not be read (refused address, timeout, too large, not HTML); null when read. */
  error: string | null;
  /** The creator named this URL in the description or the resolution instructions. */
  fromCreator: boolean;
};

/** A piece of a page's text, ranked for the question. */
export type EvidencePassage = {
  /** Index into EvidenceBundle.pages. */
  pageIndex: number;
  text: string;
  score: number;
};

export type SearchProviderName = 'searxng' | 'brave' | 'tavily';

export type EvidenceBundle = {
  /** null: no search configured, only the creator's URLs were read. */
  searchProvider: SearchProviderName | null;
  queries: string[];
  pages: FetchedPage[];
  /** Best first, within the token budget: exactly what the judge is shown. */
  passages: EvidencePassage[];
};

export type EvidenceGatherer = {
  /** Never rejects for one bad page; rejects only when the whole attempt cannot run (it is retried). */
  gather(question: EvidenceQuestion): Promise<EvidenceBundle>;
};

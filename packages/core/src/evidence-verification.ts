// The judge is not trusted (docs/decisions/019-evidence-grounded-judge.md): a YES or NO
// settles only when every quote it cites is found, word for word, in a page the server itself read
// for this attempt, and the verified quotes come from enough distinct sites. Anything else is
// UNDECIDABLE with the reason, retried and eventually voided like any failed attempt.
// docs/security.md "Reading the web": the creator chooses the pages it names and can cheaply own two sites, so when a
// search engine is configured the verdict also needs a verified quote from a page the creator did
// not name, and the sites are counted over those pages only.

/** A quote shorter than this (after folding) proves nothing: "the" is on every page. */
export const MIN_QUOTE_LENGTH = 20;

/** A page read for this attempt, as far as verification needs it. */
export type VerifiablePage = {
  url: string;
  finalUrl: string;
  /** Registrable domain of finalUrl. */
  site: string;
  /** The extracted text; '' when the page could not be read. */
  text: string;
  /** The creator wrote this URL into the market's text: evidence the creator chose. */
  namedByCreator: boolean;
};

export type CitationClaim = { url: string; quote: string };

export type CitationCheck = CitationClaim & {
  /** Index of the page the url names, or null when no page read for this attempt has that URL. */
  pageIndex: number | null;
  verified: boolean;
  /** Why it failed; null when verified. */
  problem: string | null;
};

export type EvidenceCheck = {
  status: 'verified' | 'failed';
  /** Which check failed; null when verified. */
  reason: string | null;
  citations: CitationCheck[];
  /**
   * Distinct sites among the verified citations that count: all of them, or only those from pages
   * the creator did not name when an independent source is required.
   */
  distinctSites: number;
  minSites: number;
};

/** Quote marks a model or a page may use for the same character (curly, guillemets, primes). */
const DOUBLE_QUOTES =
  /[\u00ab\u00bb\u201c\u201d\u201e\u201f\u2033\u2036\u275d\u275e\u301d\u301e\u301f\uff02]/g;
const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b\u2032\u2035\u2039\u203a\u275b\u275c\uff07`\u00b4]/g;

/**
 * Text as compared: Unicode NFKC, every quote mark folded to ' or ", every run of whitespace one
 * space, trimmed. Case and words are kept: the quote must be the page's words.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(DOUBLE_QUOTES, '"')
    .replace(SINGLE_QUOTES, "'")
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * A URL as compared: scheme and host lower-case (URL does that), default port and fragment
 * dropped, a trailing slash of a non-root path dropped. null when it is not an http(s) URL.
 */
export function normalizeUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  return url.toString();
}

/** Checks every citation against the pages read for this attempt; see the file comment. */
export function verifyEvidence(input: {
  citations: readonly CitationClaim[];
  pages: readonly VerifiablePage[];
  minSites: number;
  /**
   * True when a search engine was asked (the server had pages the creator did not choose to offer):
   * then at least one verified quote must come from a page the creator did not name, and only such
   * pages count towards minSites. False when the creator's pages are all the judge could read.
   */
  requireIndependentSource: boolean;
}): EvidenceCheck {
  const { minSites, requireIndependentSource } = input;
  const byUrl = new Map<string, number>();
  input.pages.forEach((page, index) => {
    if (page.text === '') return;
    for (const url of [page.url, page.finalUrl]) {
      const key = normalizeUrl(url);
      if (key !== null && !byUrl.has(key)) byUrl.set(key, index);
    }
  });
  const folded = new Map<number, string>();
  const citations = input.citations.map((claim): CitationCheck => {
    const key = normalizeUrl(claim.url);
    const pageIndex = key === null ? null : (byUrl.get(key) ?? null);
    const quote = foldText(claim.quote);
    if (pageIndex === null) {
      return { ...claim, pageIndex, verified: false, problem: 'not a page read for this attempt' };
    }
    if (quote.length < MIN_QUOTE_LENGTH) {
      return {
        ...claim,
        pageIndex,
        verified: false,
        problem: `quote shorter than ${MIN_QUOTE_LENGTH} characters`,
      };
    }
    let text = folded.get(pageIndex);
    if (text === undefined) {
      text = foldText(input.pages[pageIndex]?.text ?? '');
      folded.set(pageIndex, text);
    }
    return text.includes(quote)
      ? { ...claim, pageIndex, verified: true, problem: null }
      : { ...claim, pageIndex, verified: false, problem: 'quote not found in the page' };
  });
  const counted = citations.flatMap((check) => {
    const page = check.verified && check.pageIndex !== null ? input.pages[check.pageIndex] : undefined;
    return page && !(requireIndependentSource && page.namedByCreator) ? [page] : [];
  });
  const distinctSites = new Set(counted.map((page) => page.site)).size;
  const failed = citations.filter((check) => !check.verified);
  let reason: string | null = null;
  if (citations.length === 0) reason = 'The verdict cites no quote.';
  else if (failed.length > 0) {
    reason = `${failed.length} of ${citations.length} citations could not be verified: ${failed
      .slice(0, 5)
      .map((check) => `${check.url.slice(0, 200)} (${check.problem})`)
      .join('; ')}`;
  } else if (requireIndependentSource && counted.length === 0) {
    reason =
      'Every verified quote comes from a page the creator named; at least one must come from a page the creator did not name.';
  } else if (distinctSites < minSites) {
    const which = requireIndependentSource ? ' the creator did not name' : '';
    reason = `Verified quotes come from ${distinctSites} site${distinctSites === 1 ? '' : 's'}${which}; at least ${minSites} are required.`;
  }
  return { status: reason === null ? 'verified' : 'failed', reason, citations, distinctSites, minSites };
}

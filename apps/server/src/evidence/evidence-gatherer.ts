import { creatorPageSlots, type EvidenceSettings, resolveEvidenceSettings } from './evidence-settings.ts';
import type { EvidenceBundle, EvidenceQuestion, FetchedPage } from './evidence-types.ts';
import { limitConcurrency } from './limit-concurrency.ts';
import { createPageReaders, PageReadError, type PageReaders } from './page-readers.ts';
import { creatorUrls, normaliseUrl, questionText, searchQueries } from './question-sources.ts';
import { siteOf } from './read-page.ts';
import { defaultResolver, type Resolver, safeFetch } from './safe-fetch.ts';
import { createSearchProvider, type SearchProvider, type SearchResult } from './search-providers.ts';

// What the judge reads before it decides (docs/decisions/018). The creator's URLs first (the sources
// the bettors were promised), then the search engine's results for queries made from the market's own
// text, deduplicated, at most maxPages, read a few at a time through the SSRF-safe fetch, their
// article text ranked against the question within a token budget. The creator's URLs are capped
// (maxCreatorPages, and half the pages when a search engine is asked), so a market naming many links
// cannot leave the search results unread (docs/decisions/019, "What remains"). Reading and ranking
// run in reader threads, each page within its own time budget (page-readers.ts), so no page holds the
// event loop. One bad page is a value on its FetchedPage; the gather fails (to be retried) only when
// search failed AND nothing could be read, or when the passages could not be ranked.

/**
 * The attempt could not run: the search engine failed and no page could be read, or the pages
 * read could not be ranked. Retry later.
 */
export class EvidenceUnavailableError extends Error {
  override name = 'EvidenceUnavailableError';
  readonly code = 'EVIDENCE_UNAVAILABLE';
}

export type EvidenceGathererDeps = {
  /** Name → addresses; tests inject one so no real DNS is asked. */
  lookup?: Resolver;
  /** For the search engine's API only (pages go through safeFetch). */
  fetchImpl?: typeof fetch;
  /** Replaces the provider made from settings.search (tests). */
  searchProvider?: SearchProvider | null;
  /** Replaces the reader threads made from settings.pageParseMs and parseThreads (tests). */
  pageReaders?: PageReaders;
  now?: () => Date;
};

/** The bundle also says what went wrong with the search engine, when something did. */
export type GatheredEvidence = EvidenceBundle & { searchErrors: string[] };

/** An EvidenceGatherer (it is assignable to one) whose bundles also carry the search errors. */
export type GatheredEvidenceGatherer = {
  gather(question: EvidenceQuestion): Promise<GatheredEvidence>;
};

export function createEvidenceGatherer(
  input: EvidenceSettings,
  deps: EvidenceGathererDeps = {},
): GatheredEvidenceGatherer {
  const settings = resolveEvidenceSettings(input);
  const lookup = deps.lookup ?? defaultResolver;
  const now = deps.now ?? (() => new Date());
  const provider =
    deps.searchProvider !== undefined
      ? deps.searchProvider
      : settings.search
        ? createSearchProvider(settings.search, deps.fetchImpl)
        : null;
  const readers =
    deps.pageReaders ?? createPageReaders({ budgetMs: settings.pageParseMs, threads: settings.parseThreads });

  return {
    async gather(question) {
      const limit = limitConcurrency(settings.concurrency);
      const deadline = AbortSignal.timeout(settings.gatherTimeoutMs);
      // Every URL the creator wrote counts as theirs, also when a search returns it past the cap.
      const named = new Set(creatorUrls(question).flatMap((url) => normaliseUrl(url) ?? []));
      const isNamed = (url: string) => named.has(normaliseUrl(url) ?? '');
      const creatorSlots = creatorPageSlots(settings, provider !== null);
      const seen = new Set<string>();
      /** Plans a URL not planned yet while fewer than `cap` pages are planned. */
      const plan = (url: string, cap: number) => {
        const key = normaliseUrl(url);
        if (key === null || seen.has(key) || seen.size >= cap) return false;
        seen.add(key);
        return true;
      };
      const read = (url: string, fromCreator: boolean) => limit(() => readOne(url, fromCreator));
      const readOne = async (url: string, fromCreator: boolean): Promise<FetchedPage> => {
        const result = await safeFetch(url, {
          lookup,
          allowHosts: settings.allowHosts,
          userAgent: settings.userAgent,
          timeoutMs: settings.pageTimeoutMs,
          maxBytes: settings.maxBodyBytes,
          maxRedirects: settings.maxRedirects,
          signal: deadline,
        });
        let title: string | null = null;
        let text = '';
        let error = result.error;
        if (result.body !== null) {
          try {
            ({ title, text } = await readers.read(result.body, result.contentType, deadline));
            if (text === '') error = 'NO_TEXT';
          } catch (failure) {
            error = failure instanceof PageReadError ? failure.code : 'UNREADABLE';
          }
        }
        return {
          url: result.url,
          finalUrl: result.finalUrl,
          site: siteOf(result.finalUrl),
          title,
          httpStatus: result.httpStatus,
          fetchedAt: now(),
          bytes: result.bytes,
          contentSha256: result.contentSha256,
          text,
          error,
          // A search result that redirects to a page the creator named is the creator's page.
          fromCreator: fromCreator || isNamed(result.finalUrl),
        };
      };

      // The creator's pages start at once; the search runs beside them.
      const creatorReads = creatorUrls(question)
        .filter((url) => plan(url, creatorSlots))
        .map((url) => read(url, true));
      const queries = provider ? searchQueries(question) : [];
      const search = provider?.search.bind(provider);
      const searchErrors: string[] = [];
      const resultLists = await Promise.all(
        queries.map(async (query) => {
          try {
            // The engine gets the same time as one page.
            if (!search) return [];
            return await search(query, {
              signal: AbortSignal.any([AbortSignal.timeout(settings.pageTimeoutMs), deadline]),
            });
          } catch (error) {
            searchErrors.push(searchErrorText(error));
            return [] as SearchResult[];
          }
        }),
      );
      // Interleaved: each query's first result, then each one's second, and so on.
      const searchReads: Array<Promise<FetchedPage>> = [];
      const longest = Math.max(0, ...resultLists.map((list) => list.length));
      for (let rank = 0; rank < longest; rank++) {
        for (const list of resultLists) {
          const result = list[rank];
          if (result && plan(result.url, settings.maxPages)) {
            searchReads.push(read(result.url, isNamed(result.url)));
          }
        }
      }
      const pages = await Promise.all([...creatorReads, ...searchReads]);

      const searchFailed = queries.length > 0 && searchErrors.length === queries.length;
      if (searchFailed && !pages.some((page) => page.error === null)) {
        throw new EvidenceUnavailableError(
          `search failed (${searchErrors.join('; ')}) and no page could be read`,
        );
      }
      const passages = await rankRead(pages, questionText(question));
      return { searchProvider: provider?.name ?? null, queries, pages, passages, searchErrors };
    },
  };

  /**
   * The read pages' passages, ranked in a reader thread with the page budget for each page read, at
   * most a gather's time, after waiting for a thread at most as long. Failing, the attempt is
   * retried: the judge is never shown a bundle without its passages.
   */
  async function rankRead(pages: FetchedPage[], question: string) {
    const read = pages.filter((page) => page.error === null).length;
    if (read === 0) return [];
    try {
      return await readers.rank(
        pages.map((page) => ({ text: page.error === null ? page.text : '', fromCreator: page.fromCreator })),
        question,
        { tokenBudget: settings.passageTokenBudget, maxPassagesPerPage: settings.maxPassagesPerPage },
        Math.min(settings.pageParseMs * read, settings.gatherTimeoutMs),
        AbortSignal.timeout(settings.gatherTimeoutMs),
      );
    } catch (failure) {
      const code = failure instanceof PageReadError ? failure.code : 'UNREADABLE';
      throw new EvidenceUnavailableError(`the passages of ${read} pages could not be ranked (${code})`);
    }
  }
}

function searchErrorText(error: unknown): string {
  if (error instanceof Error && error.name === 'SearchFailedError') return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'SEARCH_TIMEOUT';
  return `SEARCH_FAILED: ${error instanceof Error ? error.message : String(error)}`;
}

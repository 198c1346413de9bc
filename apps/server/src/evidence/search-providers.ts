import { z } from 'zod';
import type { SearchProviderName } from './evidence-types.ts';

// The search engines the gatherer can ask (docs/decisions/018): a self-hosted SearXNG, Brave Search's
// API or Tavily's, all behind one small interface. The operator configures the endpoint, so it is
// trusted as an address (a SearXNG on the private network is fine); its answer is not: every response
// is size-capped and zod-parsed, and the URLs it names go through the same SSRF-safe fetch as any
// page.

export type SearchResult = { url: string; title: string; snippet: string };

export type SearchProvider = {
  name: SearchProviderName;
  search(query: string, options: { signal: AbortSignal }): Promise<SearchResult[]>;
};

export type SearchSettings = {
  provider: SearchProviderName;
  /** SearXNG's base URL (required for it); for Brave and Tavily an override of the public API's. */
  url?: string | undefined;
  apiKey?: string | undefined;
};

/** The search engine answered badly (HTTP error, malformed JSON, too large): recorded, not fatal. */
export class SearchFailedError extends Error {
  override name = 'SearchFailedError';
}

/** A page of results is a few tens of kB; a broken or hostile endpoint must not make us buffer more. */
export const MAX_SEARCH_RESPONSE_BYTES = 1024 * 1024;
/** Results asked of Brave and Tavily per query (SearXNG returns its own page of about 20). */
const RESULTS_PER_QUERY = 10;

const BRAVE_URL = 'https://api.search.brave.com/res/v1/web/search';
const TAVILY_URL = 'https://api.tavily.com/search';

const SearxngSchema = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().nullish(), content: z.string().nullish() })),
});
const BraveSchema = z.object({
  web: z
    .object({
      results: z.array(
        z.object({ url: z.string(), title: z.string().nullish(), description: z.string().nullish() }),
      ),
    })
    .nullish(),
});
const TavilySchema = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().nullish(), content: z.string().nullish() })),
});

export function createSearchProvider(
  settings: SearchSettings,
  fetchImpl: typeof fetch = fetch,
): SearchProvider {
  const getJson = async (url: string, init: RequestInit): Promise<unknown> => {
    // Never follow a redirect (security review 2): fetch would re-send the key, Brave's header or
    // Tavily's body on a 307/308, to wherever it points. A 3xx fails as SEARCH_HTTP_3xx below.
    const response = await fetchImpl(url, { ...init, redirect: 'manual' });
    if (!response.ok) {
      await response.body?.cancel();
      throw new SearchFailedError(`SEARCH_HTTP_${response.status}`);
    }
    const text = await readCapped(response);
    try {
      return JSON.parse(text);
    } catch {
      throw new SearchFailedError('SEARCH_BAD_JSON');
    }
  };
  const parse = <T>(schema: z.ZodType<T>, json: unknown): T => {
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new SearchFailedError('SEARCH_BAD_RESPONSE');
    return parsed.data;
  };

  switch (settings.provider) {
    case 'searxng': {
      const base = settings.url?.replace(/\/+$/, '');
      if (!base) throw new Error('SearXNG needs its URL');
      return {
        name: 'searxng',
        async search(query, { signal }) {
          const url = `${base}/search?${new URLSearchParams({ q: query, format: 'json' })}`;
          const json = await getJson(url, { signal, headers: { accept: 'application/json' } });
          return parse(SearxngSchema, json).results.map((result) => ({
            url: result.url,
            title: result.title ?? '',
            snippet: result.content ?? '',
          }));
        },
      };
    }
    case 'brave': {
      const base = settings.url ?? BRAVE_URL;
      return {
        name: 'brave',
        async search(query, { signal }) {
          const url = `${base}?${new URLSearchParams({ q: query, count: String(RESULTS_PER_QUERY) })}`;
          const json = await getJson(url, {
            signal,
            headers: { accept: 'application/json', 'x-subscription-token': settings.apiKey ?? '' },
          });
          return (parse(BraveSchema, json).web?.results ?? []).map((result) => ({
            url: result.url,
            title: result.title ?? '',
            snippet: result.description ?? '',
          }));
        },
      };
    }
    case 'tavily': {
      const base = settings.url ?? TAVILY_URL;
      return {
        name: 'tavily',
        async search(query, { signal }) {
          const json = await getJson(base, {
            method: 'POST',
            signal,
            headers: {
              accept: 'application/json',
              'content-type': 'application/json',
              authorization: `Bearer ${settings.apiKey ?? ''}`,
            },
            body: JSON.stringify({ query, max_results: RESULTS_PER_QUERY, search_depth: 'basic' }),
          });
          return parse(TavilySchema, json).results.map((result) => ({
            url: result.url,
            title: result.title ?? '',
            snippet: result.content ?? '',
          }));
        },
      };
    }
  }
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (bytes > MAX_SEARCH_RESPONSE_BYTES) {
      await reader.cancel();
      throw new SearchFailedError('SEARCH_TOO_LARGE');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

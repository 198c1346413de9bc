import { SearchFailedError, type SearchProvider } from '../evidence/search-providers.ts';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

// The search provider answers (docs/operations.md "Preflight"): one query, through the same client
// the evidence gatherer uses.

const QUERY = 'BNB Chain';

export async function checkSearchProvider(
  provider: SearchProvider,
  timeoutMs: number,
): Promise<CheckOutcome> {
  try {
    const results = await provider.search(QUERY, { signal: AbortSignal.timeout(timeoutMs) });
    return passed(`${results.length} result${results.length === 1 ? '' : 's'} for "${QUERY}"`);
  } catch (error) {
    if (!(error instanceof SearchFailedError)) throw error;
    // SearXNG answers 403 to format=json unless its settings.yml enables it.
    const hint =
      provider.name === 'searxng' && error.message === 'SEARCH_HTTP_403'
        ? ': enable JSON output in its settings.yml (search: formats: [html, json])'
        : '';
    return failed(`${error.message}${hint}`);
  }
}

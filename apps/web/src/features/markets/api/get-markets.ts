import { type MarketCategory, REFRESH_MS, SETTLED_MARKETS_LIMIT } from '@pm/core/constants';
import { ListMarketsResponseSchema } from '@pm/core/contract/markets';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { OPEN_MARKETS_QUERY_KEY, SETTLED_MARKETS_QUERY_KEY } from '#api/market-query-keys.ts';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

export type CategoryFilter = 'all' | MarketCategory;
/** The board's chips: a category, or 'price' for Price Oracle markets only. */
export type BoardFilter = CategoryFilter | 'price';

/**
 * docs/product.md §7 "Read markets": open (active + settling), newest first, by category; refetched on realtime
 * `markets`/`bets`, every 30 s only while the socket is down (decision 015).
 */
export function openMarketsQueryOptions(filter: BoardFilter, cursor: string | null = null) {
  const query = filter === 'price' ? 'betType=price_prediction' : `category=${filter}`;
  const after = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
  return queryOptions({
    // One page (the server's default size) after `cursor`; null is the first.
    queryKey: [...OPEN_MARKETS_QUERY_KEY, filter, cursor],
    queryFn: ({ signal }) =>
      apiGet(`/api/markets?status=open&${query}${after}`, ListMarketsResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.markets,
  });
}

/** docs/product.md §7 "Read settled markets": newest-updated first, limit 10, every 30 s. */
export function settledMarketsQueryOptions() {
  return queryOptions({
    queryKey: SETTLED_MARKETS_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiGet(`/api/markets?status=settled&limit=${SETTLED_MARKETS_LIMIT}`, ListMarketsResponseSchema, {
        signal,
      }),
    refetchInterval: REFRESH_MS.settledMarkets,
  });
}

/** Settled markets shown per page of the Settled filter. */
const SETTLED_PAGE_SIZE = 20;

/** One page of every settled market, newest settled first, after `cursor` (null: the first). */
export function settledMarketsPageQueryOptions(cursor: string | null) {
  const after = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
  return queryOptions({
    queryKey: [...SETTLED_MARKETS_QUERY_KEY, 'page', cursor],
    queryFn: ({ signal }) =>
      apiGet(`/api/markets?status=settled&limit=${SETTLED_PAGE_SIZE}${after}`, ListMarketsResponseSchema, {
        signal,
      }),
    refetchInterval: REFRESH_MS.settledMarkets,
  });
}

export const useSettledMarketsPage = (cursor: string | null) =>
  useQuery({
    ...settledMarketsPageQueryOptions(cursor),
    refetchInterval: usePollingFallback(REFRESH_MS.settledMarkets),
  });
export const useOpenMarkets = (filter: BoardFilter, cursor: string | null = null) =>
  useQuery({
    ...openMarketsQueryOptions(filter, cursor),
    refetchInterval: usePollingFallback(REFRESH_MS.markets),
  });
export const useSettledMarkets = () =>
  useQuery({
    ...settledMarketsQueryOptions(),
    refetchInterval: usePollingFallback(REFRESH_MS.settledMarkets),
  });

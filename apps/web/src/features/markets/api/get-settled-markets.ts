import { REFRESH_MS } from '@pm/core/constants';
import { ListMarketsResponseSchema } from '@pm/core/contract/markets';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { MARKETS_QUERY_KEY } from './get-markets.ts';

/** Settled markets shown per page of the Settled filter. */
export const SETTLED_PAGE_SIZE = 20;

/** Issue 11: every settled market, newest settled first, page after page by the list's cursor. */
export function settledMarketPagesQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...MARKETS_QUERY_KEY, 'settled', 'pages'],
    queryFn: ({ signal, pageParam }) =>
      apiGet(
        `/api/markets?status=settled&limit=${SETTLED_PAGE_SIZE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
        ListMarketsResponseSchema,
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: REFRESH_MS.settledMarkets,
  });
}

export const useSettledMarketPages = () => useInfiniteQuery(settledMarketPagesQueryOptions());

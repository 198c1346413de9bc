import { REFRESH_MS } from '@pm/core/constants';
import { MarketOddsResponseSchema } from '@pm/core/contract/market-odds';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { marketQueryKey } from '#api/market-query-keys.ts';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

/**
 * GET /api/markets/:id/odds: the YES share after each bet (decision 013). Under the market's own key, so
 * the realtime `markets`/`bets` events of that market refetch it with the market (decision 015).
 */
export function marketOddsQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...marketQueryKey(id), 'odds'],
    queryFn: ({ signal }) => apiGet(`/api/markets/${id}/odds`, MarketOddsResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.markets,
  });
}

export const useMarketOdds = (id: number) =>
  useQuery({ ...marketOddsQueryOptions(id), refetchInterval: usePollingFallback(REFRESH_MS.markets) });

import { REFRESH_MS } from '@pm/core/constants';
import { MarketOddsResponseSchema } from '@pm/core/contract/market-odds';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { MARKETS_QUERY_KEY } from './get-markets.ts';

/**
 * GET /api/markets/:id/odds: the YES share after each bet (issue 11). Under the markets key, so a
 * realtime `markets` event refreshes it with the market.
 */
export function marketOddsQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...MARKETS_QUERY_KEY, 'odds', id],
    queryFn: ({ signal }) => apiGet(`/api/markets/${id}/odds`, MarketOddsResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.markets,
  });
}

export const useMarketOdds = (id: number) => useQuery(marketOddsQueryOptions(id));

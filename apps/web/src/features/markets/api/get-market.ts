import { REFRESH_MS } from '@pm/core/constants';
import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { marketQueryKey } from '#api/market-query-keys.ts';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

/** docs/product.md §7 "Read one market": the market and its bets, newest first. */
export function marketQueryOptions(id: number) {
  return queryOptions({
    queryKey: marketQueryKey(id),
    queryFn: ({ signal }) => apiGet(`/api/markets/${id}`, MarketDetailResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.markets,
  });
}

/** Refetched on realtime `markets`/`bets` of this market; every 30 s only while the socket is down. */
export const useMarket = (id: number) =>
  useQuery({ ...marketQueryOptions(id), refetchInterval: usePollingFallback(REFRESH_MS.markets) });

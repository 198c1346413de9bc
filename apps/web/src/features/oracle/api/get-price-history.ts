import { type PriceHistoryResponse, PriceHistoryResponseSchema } from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

/** GET /api/prices/BNB/history: the last hour, one point per 30 s, for the chart. */
export function getPriceHistory(options: { signal?: AbortSignal } = {}): Promise<PriceHistoryResponse> {
  return apiGet('/api/prices/BNB/history', PriceHistoryResponseSchema, options);
}

const HISTORY_REFRESH_MS = 30_000;

export const PRICE_HISTORY_QUERY_KEY = ['oracle', 'price-history'] as const;

/** Every 30 s while the socket is down; while it is up each pushed sample is added in place. */
export function priceHistoryQueryOptions() {
  return queryOptions({
    queryKey: PRICE_HISTORY_QUERY_KEY,
    queryFn: ({ signal }) => getPriceHistory({ signal }),
    refetchInterval: HISTORY_REFRESH_MS,
  });
}

export function usePriceHistory() {
  return useQuery({ ...priceHistoryQueryOptions(), refetchInterval: usePollingFallback(HISTORY_REFRESH_MS) });
}

import { REFRESH_MS } from '@pm/core/constants';
import {
  type PriceHistoryResponse,
  PriceHistoryResponseSchema,
  type PriceResponse,
  PriceResponseSchema,
} from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { usePollingFallback } from '../../../lib/realtime.ts';

/** GET /api/prices/BNB: the server's latest sample (one upstream read serves every client). */
export function getPrice(options: { signal?: AbortSignal } = {}): Promise<PriceResponse> {
  return apiGet('/api/prices/BNB', PriceResponseSchema, options);
}

export const PRICE_QUERY_KEY = ['oracle', 'price'] as const;

/**
 * Spec §9: the price every 3 s while the realtime socket is down; while it is up each `prices` push
 * carries the new sample (use-oracle-realtime.ts), and a refetch once a minute only brings the
 * `stale` flag (no sample is pushed while the feed fails).
 */
export function priceQueryOptions() {
  return queryOptions({
    queryKey: PRICE_QUERY_KEY,
    queryFn: ({ signal }) => getPrice({ signal }),
    refetchInterval: REFRESH_MS.price,
  });
}

/** While the socket is up: only to learn that the feed went quiet (the "delayed" badge). */
const STALE_CHECK_MS = 60_000;

export function usePrice() {
  const fallback = usePollingFallback(REFRESH_MS.price);
  return useQuery({
    ...priceQueryOptions(),
    refetchInterval: fallback === false ? STALE_CHECK_MS : fallback,
  });
}

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

import { REFRESH_MS } from '@pm/core/constants';
import {
  type PriceHistoryResponse,
  PriceHistoryResponseSchema,
  type PriceResponse,
  PriceResponseSchema,
} from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/** GET /api/prices/BNB: the server's latest sample (one upstream read serves every client). */
export function getPrice(options: { signal?: AbortSignal } = {}): Promise<PriceResponse> {
  return apiGet('/api/prices/BNB', PriceResponseSchema, options);
}

export const PRICE_QUERY_KEY = ['oracle', 'price'] as const;

/** Spec §9: the price refreshes every 3 s (and on realtime `prices`). */
export function priceQueryOptions() {
  return queryOptions({
    queryKey: PRICE_QUERY_KEY,
    queryFn: ({ signal }) => getPrice({ signal }),
    refetchInterval: REFRESH_MS.price,
  });
}

export function usePrice() {
  return useQuery(priceQueryOptions());
}

/** GET /api/prices/BNB/history: the last hour, one point per 30 s, for the chart. */
export function getPriceHistory(options: { signal?: AbortSignal } = {}): Promise<PriceHistoryResponse> {
  return apiGet('/api/prices/BNB/history', PriceHistoryResponseSchema, options);
}

const HISTORY_REFRESH_MS = 30_000;

export function priceHistoryQueryOptions() {
  return queryOptions({
    queryKey: ['oracle', 'price-history'],
    queryFn: ({ signal }) => getPriceHistory({ signal }),
    refetchInterval: HISTORY_REFRESH_MS,
  });
}

export function usePriceHistory() {
  return useQuery(priceHistoryQueryOptions());
}

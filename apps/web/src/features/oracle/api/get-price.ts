import { REFRESH_MS } from '@pm/core/constants';
import {
  type PriceHistoryResponse,
  PriceHistoryResponseSchema,
  type PriceResponse,
  PriceResponseSchema,
} from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiGet } from '../../../lib/api-client.ts';
import { usePollingFallback, useRealtimeConnected } from '../../../lib/realtime-queries.ts';

/** GET /api/prices/BNB: the server's latest sample (one upstream read serves every client). */
export function getPrice(options: { signal?: AbortSignal } = {}): Promise<PriceResponse> {
  return apiGet('/api/prices/BNB', PriceResponseSchema, options);
}

export const PRICE_QUERY_KEY = ['oracle', 'price'] as const;

/**
 * Spec §9: the price every 3 s while the realtime socket is down; while it is up each `prices` push
 * carries the new sample (use-oracle-realtime.ts) and nothing is polled (decision 015).
 */
export function priceQueryOptions() {
  return queryOptions({
    queryKey: PRICE_QUERY_KEY,
    queryFn: ({ signal }) => getPrice({ signal }),
    refetchInterval: REFRESH_MS.price,
  });
}

/**
 * No push for this long while the socket is up: the feed went quiet (the sampler stores nothing
 * then), so the price shown is flagged stale as the server would (it says so after 6 s).
 */
const QUIET_AFTER_MS = 10_000;

export function usePrice() {
  const connected = useRealtimeConnected();
  const query = useQuery({ ...priceQueryOptions(), refetchInterval: connected ? false : REFRESH_MS.price });
  const quiet = useQuietSince(query.dataUpdatedAt, QUIET_AFTER_MS);
  const data =
    query.data && connected && quiet && !query.data.stale ? { ...query.data, stale: true } : query.data;
  return { ...query, data };
}

/**
 * True once `sinceMs` (a Date.now() instant, 0 for never) is `afterMs` old. Only the elapsed time
 * of the browser's clock is used, so a browser clock set wrong does not matter.
 */
function useQuietSince(sinceMs: number, afterMs: number): boolean {
  const [quietSince, setQuietSince] = useState(0);
  useEffect(() => {
    if (sinceMs === 0) return;
    const timer = setTimeout(() => setQuietSince(sinceMs), Math.max(0, sinceMs + afterMs - Date.now()));
    return () => clearTimeout(timer);
  }, [sinceMs, afterMs]);
  return sinceMs !== 0 && quietSince === sinceMs;
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

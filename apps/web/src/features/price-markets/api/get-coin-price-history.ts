import type { PriceSymbol } from '@pm/core/constants';
import { type PriceHistoryResponse, PriceHistoryResponseSchema } from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';

/** GET /api/prices/:symbol/history?since=: one coin's samples since a time (at most 24 h back). */
export function getCoinPriceHistory(
  symbol: PriceSymbol,
  since: string,
  options: { signal?: AbortSignal } = {},
): Promise<PriceHistoryResponse> {
  return apiGet(
    `/api/prices/${symbol}/history?since=${encodeURIComponent(since)}`,
    PriceHistoryResponseSchema,
    options,
  );
}

const HISTORY_REFRESH_MS = 30_000;

const coinPriceHistoryQueryKey = (symbol: PriceSymbol, since: string) =>
  ['price-history', symbol, since] as const;

export function coinPriceHistoryQueryOptions(symbol: PriceSymbol, since: string) {
  return queryOptions({
    queryKey: coinPriceHistoryQueryKey(symbol, since),
    queryFn: ({ signal }) => getCoinPriceHistory(symbol, since, { signal }),
    refetchInterval: HISTORY_REFRESH_MS,
  });
}

/**
 * A price market's chart: refetched every 30 s while `live` (the market still open), so
 * the line grows toward the deadline; a settled market's history no longer changes.
 */
export function useCoinPriceHistory(symbol: PriceSymbol, since: string, live: boolean) {
  return useQuery({
    ...coinPriceHistoryQueryOptions(symbol, since),
    refetchInterval: live && HISTORY_REFRESH_MS,
  });
}

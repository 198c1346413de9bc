import { type PriceSymbol, REFRESH_MS } from '@pm/core/constants';
import type { PriceSampleMessage } from '@pm/core/contract/realtime';
import { type PriceResponse, PriceResponseSchema } from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

/** GET /api/prices/BNB: the server's latest sample (one upstream read serves every client). */
export function getPrice(options: { signal?: AbortSignal } = {}): Promise<PriceResponse> {
  return apiGet('/api/prices/BNB', PriceResponseSchema, options);
}

/**
 * Its own root: under ['markets'] every market event refetched it. One entry per coin, which the realtime `prices` pushes of that coin write; a push without a sample
 * invalidates them all.
 */
export const PRICES_QUERY_KEY = ['price'] as const;
/** One coin's price; a price market's parts read theirs (features/price-markets/api/get-coin-price.ts). */
export const coinPriceQueryKey = (symbol: PriceSymbol | null) => [...PRICES_QUERY_KEY, symbol] as const;
/** BNB's: the vault panel and the oracle price card read the same query. */
export const PRICE_QUERY_KEY = coinPriceQueryKey('BNB');

/**
 * docs/product.md §9: the price every 3 s while the realtime socket is down; while it is up each `prices` push
 * carries the new sample (the realtime hooks write `priceFromSample`) and nothing is polled
 * (decision 015).
 */
export function priceQueryOptions() {
  return queryOptions({
    queryKey: PRICE_QUERY_KEY,
    queryFn: ({ signal }) => getPrice({ signal }),
    refetchInterval: REFRESH_MS.price,
  });
}

/** GET /api/prices/BNB as it stands right after the server stored `sample` (fresh, so not stale). */
export function priceFromSample(sample: PriceSampleMessage): PriceResponse {
  return {
    symbol: sample.symbol,
    usd: sample.usd,
    source: sample.source,
    updatedAt: sample.updatedAt,
    stale: false,
  };
}

/** Refetched on realtime `prices` without a sample; every 3 s only while the socket is down. */
export const usePrice = () =>
  useQuery({ ...priceQueryOptions(), refetchInterval: usePollingFallback(REFRESH_MS.price) });

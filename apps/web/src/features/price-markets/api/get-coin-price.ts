import { type PriceSymbol, REFRESH_MS } from '@pm/core/constants';
import { type PriceResponse, PriceResponseSchema } from '@pm/core/contract/vault';
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { coinPriceQueryKey } from '#api/get-price.ts';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

/** GET /api/prices/:symbol: the server's latest sample of one coin. */
export function getCoinPrice(
  symbol: PriceSymbol,
  options: { signal?: AbortSignal } = {},
): Promise<PriceResponse> {
  return apiGet(`/api/prices/${symbol}`, PriceResponseSchema, options);
}

/**
 * Under the BNB price's root (api/get-price.ts, coinPriceQueryKey): one cache entry per coin, written by
 * the realtime `prices` pushes of that coin (use-markets-realtime.ts).
 */
export function coinPriceQueryOptions(symbol: PriceSymbol) {
  return queryOptions({
    queryKey: coinPriceQueryKey(symbol),
    queryFn: ({ signal }) => getCoinPrice(symbol, { signal }),
    refetchInterval: REFRESH_MS.price,
  });
}

/**
 * docs/product.md §9: pushed while the socket is up, every 3 s while it is down. Null asks for no
 * coin and reads no coin's entry: a disabled query under BNB's key would show BNB's pushed price
 * on a settled BTC market's chart.
 */
export function useCoinPrice(symbol: PriceSymbol | null) {
  const refetchInterval = usePollingFallback(REFRESH_MS.price);
  return useQuery({
    queryKey: coinPriceQueryKey(symbol),
    queryFn: symbol === null ? skipToken : ({ signal }) => getCoinPrice(symbol, { signal }),
    refetchInterval,
  });
}

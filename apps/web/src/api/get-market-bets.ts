import { REFRESH_MS } from '@pm/core/constants';
import { type MarketBetsResponse, MarketBetsResponseSchema } from '@pm/core/contract/market-bets';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';
import { marketQueryKey } from './market-query-keys.ts';

// Shared: a market's page shows its older bets, and its review window asks whether the wallet bet.

/** GET /api/markets/:id/bets: a page of a market's bets, newest first, after a cursor or of one address. */
export function getMarketBets(
  marketId: number,
  query: { cursor: string } | { address: string; limit: number },
  options: { signal?: AbortSignal } = {},
): Promise<MarketBetsResponse> {
  const search =
    'cursor' in query
      ? `cursor=${encodeURIComponent(query.cursor)}`
      : `address=${query.address}&limit=${query.limit}`;
  return apiGet(`/api/markets/${marketId}/bets?${search}`, MarketBetsResponseSchema, options);
}

/**
 * A page of a market's older bets, newest first, after `cursor` (the market's
 * `betsNextCursor` or the page before's `nextCursor`). Under the market's query key, so the
 * realtime events that refetch the market refetch its pages too.
 */
export function marketBetsPageQueryOptions(marketId: number, cursor: string) {
  return queryOptions({
    queryKey: [...marketQueryKey(marketId), 'bets', cursor],
    queryFn: ({ signal }) => getMarketBets(marketId, { cursor }, { signal }),
    refetchInterval: REFRESH_MS.markets,
  });
}

export const useMarketBetsPage = (marketId: number, cursor: string) =>
  useQuery({
    ...marketBetsPageQueryOptions(marketId, cursor),
    refetchInterval: usePollingFallback(REFRESH_MS.markets),
  });

/**
 * Did `address` bet on this market: its own bets there, asked of the server (a private read,
 * never from a shared cache), whatever page of the market's bets is shown.
 */
export function hasBetQueryOptions(marketId: number, address: string | undefined) {
  return queryOptions({
    queryKey: [...marketQueryKey(marketId), 'bets', 'of', address],
    queryFn: ({ signal }) =>
      getMarketBets(marketId, { address: address ?? '', limit: 1 }, { signal }).then(
        (page) => page.bets.length > 0,
      ),
    enabled: address !== undefined,
  });
}

export const useHasBet = (marketId: number, address: string | undefined) =>
  useQuery(hasBetQueryOptions(marketId, address));

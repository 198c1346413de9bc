import { REFRESH_MS } from '@pm/core/constants';
import { MarketBetsResponseSchema } from '@pm/core/contract/market-bets';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

/**
 * Under `marketQueryKey(id)` (['markets', 'detail', id]), written out: importing it would tie this
 * lazy file's chunk to the board's (docs/decisions/006: shared code fragments).
 */
const marketKey = (marketId: number) => ['markets', 'detail', marketId] as const;

/**
 * Issue 21: a page of a market's older bets, newest first, after `cursor` (the market's
 * `betsNextCursor` or the page before's `nextCursor`). Under the market's query key, so the
 * realtime events that refetch the market refetch its pages too.
 */
export const useMarketBetsPage = (marketId: number, cursor: string) =>
  useQuery({
    queryKey: [...marketKey(marketId), 'bets', cursor],
    queryFn: ({ signal }) =>
      apiGet(`/api/markets/${marketId}/bets?cursor=${encodeURIComponent(cursor)}`, MarketBetsResponseSchema, {
        signal,
      }),
    refetchInterval: usePollingFallback(REFRESH_MS.markets),
  });

/**
 * Did `address` bet on this market: its own bets there, asked of the server (a private read,
 * never from a shared cache), whatever page of the market's bets is shown.
 */
export const useHasBet = (marketId: number, address: string | undefined) =>
  useQuery({
    queryKey: [...marketKey(marketId), 'bets', 'of', address],
    queryFn: ({ signal }) =>
      apiGet(`/api/markets/${marketId}/bets?address=${address}&limit=1`, MarketBetsResponseSchema, {
        signal,
      }).then((page) => page.bets.length > 0),
    enabled: address !== undefined,
  });

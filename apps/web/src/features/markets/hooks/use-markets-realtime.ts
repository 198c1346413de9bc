import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import { coinPriceQueryKey, PRICES_QUERY_KEY, priceFromSample } from '#api/get-price.ts';
import { VAULT_QUERY_KEY } from '#api/get-vault.ts';
import {
  MARKET_DETAILS_QUERY_KEY,
  marketQueryKey,
  OPEN_MARKETS_QUERY_KEY,
  SETTLED_MARKETS_QUERY_KEY,
} from '#api/market-query-keys.ts';
import { useRealtimeInvalidation } from '#lib/realtime-queries.ts';

/**
 * Refetches what the market pages show when the server commits a change, and only what that change
 * touches (decision 015): a bet on market 7 refetches the lists and market 7, not every market
 * page; `prices` carries its sample. Polling is only the fallback while the socket is down.
 */
export function useMarketsRealtime(): void {
  useRealtimeInvalidation((message, invalidate, queryClient) => {
    switch (message.topic) {
      case 'markets':
        invalidate(OPEN_MARKETS_QUERY_KEY);
        invalidate(SETTLED_MARKETS_QUERY_KEY);
        invalidate(message.id === undefined ? MARKET_DETAILS_QUERY_KEY : marketQueryKey(message.id));
        invalidate(CLAIMABLE_QUERY_KEY);
        break;
      case 'bets':
        invalidate(OPEN_MARKETS_QUERY_KEY);
        invalidate(
          message.marketId === undefined ? MARKET_DETAILS_QUERY_KEY : marketQueryKey(message.marketId),
        );
        invalidate(VAULT_QUERY_KEY);
        break;
      case 'payouts':
        invalidate(CLAIMABLE_QUERY_KEY);
        invalidate(VAULT_QUERY_KEY);
        break;
      case 'vault':
        invalidate(VAULT_QUERY_KEY);
        break;
      case 'prices':
        // Every coin is pushed: each sample is its coin's price, under its coin's key.
        if (!message.sample) invalidate(PRICES_QUERY_KEY);
        else
          queryClient.setQueryData(coinPriceQueryKey(message.sample.symbol), priceFromSample(message.sample));
        break;
      default:
        break;
    }
  });
}

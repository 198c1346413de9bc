import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import { priceFromSample } from '#api/get-price.ts';
import { VAULT_QUERY_KEY } from '#api/get-vault.ts';
import { useRealtimeInvalidation } from '#lib/realtime-queries.ts';
import { marketQueryKey } from '../api/get-market.ts';
import { MARKETS_QUERY_KEY } from '../api/get-markets.ts';

const OPEN_KEY = [...MARKETS_QUERY_KEY, 'open'] as const;
const SETTLED_KEY = [...MARKETS_QUERY_KEY, 'settled'] as const;
const DETAILS_KEY = [...MARKETS_QUERY_KEY, 'detail'] as const;

/**
 * Refetches what the market pages show when the server commits a change, and only what that change
 * touches (decision 015): a bet on market 7 refetches the lists and market 7, not every market
 * page; `prices` carries its sample. Polling is only the fallback while the socket is down.
 */
export function useMarketsRealtime(): void {
  useRealtimeInvalidation((message, invalidate, queryClient) => {
    switch (message.topic) {
      case 'markets':
        invalidate(OPEN_KEY);
        invalidate(SETTLED_KEY);
        invalidate(message.id === undefined ? DETAILS_KEY : marketQueryKey(message.id));
        invalidate(CLAIMABLE_QUERY_KEY);
        break;
      case 'bets':
        invalidate(OPEN_KEY);
        invalidate(message.marketId === undefined ? DETAILS_KEY : marketQueryKey(message.marketId));
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
        // Every coin is pushed (issue 19): each sample is its coin's price, ['price', symbol] as in
        // get-coin-price.ts (BNB's is PRICE_QUERY_KEY); written inline so that file stays lazy.
        if (!message.sample) invalidate(['price']);
        else queryClient.setQueryData(['price', message.sample.symbol], priceFromSample(message.sample));
        break;
      default:
        break;
    }
  });
}

import type { PriceHistoryResponse } from '@pm/core/contract/vault';
import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import { PRICE_QUERY_KEY, priceFromSample } from '#api/get-price.ts';
import { useRealtimeInvalidation } from '#lib/realtime-queries.ts';
import { PRICE_HISTORY_QUERY_KEY } from '../api/get-price-history.ts';
import { ROUNDS_QUERY_KEY } from '../api/get-rounds.ts';
import { addSampleToHistory } from '../utils/price-push.ts';

/**
 * Keeps what this page shows fresh from the page's one shared WebSocket (docs/product.md §7 realtime,
 * decision 015): a `rounds` event refetches the rounds (and the wallet's claimable), a `prices`
 * event carries its sample and costs no request. Polling is only the fallback while it is down.
 */
export function useOracleRealtime(): void {
  useRealtimeInvalidation((message, invalidate, queryClient) => {
    switch (message.topic) {
      case 'rounds':
        invalidate(ROUNDS_QUERY_KEY);
        invalidate(CLAIMABLE_QUERY_KEY);
        break;
      case 'prices': {
        const { sample } = message;
        if (!sample) {
          invalidate(PRICE_QUERY_KEY);
          invalidate(PRICE_HISTORY_QUERY_KEY);
          break;
        }
        // Every coin is pushed; the oracle game is BNB's.
        if (sample.symbol !== 'BNB') break;
        queryClient.setQueryData(PRICE_QUERY_KEY, priceFromSample(sample));
        queryClient.setQueryData<PriceHistoryResponse>(PRICE_HISTORY_QUERY_KEY, (history) =>
          history ? addSampleToHistory(history, sample) : history,
        );
        break;
      }
      case 'payouts':
        invalidate(CLAIMABLE_QUERY_KEY);
        break;
      default:
        break;
    }
  });
}

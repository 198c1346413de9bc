import { useQueryClient } from '@tanstack/react-query';
import { useRealtime } from '../../../lib/realtime.ts';
import { PRICE_QUERY_KEY } from '../api/get-price.ts';
import { ROUNDS_QUERY_KEY } from '../api/get-rounds.ts';

/**
 * Refetches what this page shows as soon as the server says it changed (spec §7 realtime),
 * through the page's one shared WebSocket; polling stays as the fallback.
 */
export function useOracleRealtime(): void {
  const queryClient = useQueryClient();
  useRealtime((message) => {
    switch (message.topic) {
      case 'rounds':
        void queryClient.invalidateQueries({ queryKey: ROUNDS_QUERY_KEY });
        void queryClient.invalidateQueries({ queryKey: ['oracle', 'claimable'] });
        break;
      case 'prices':
        void queryClient.invalidateQueries({ queryKey: PRICE_QUERY_KEY });
        break;
      case 'payouts':
        void queryClient.invalidateQueries({ queryKey: ['oracle', 'claimable'] });
        break;
      default:
        break;
    }
  });
}

import { useQueryClient } from '@tanstack/react-query';
import { useRealtime } from '../../../lib/realtime.ts';
import { MARKETS_QUERY_KEY } from '../api/get-markets.ts';
import { VAULT_QUERY_KEY } from '../api/get-vault.ts';

/** Refetch markets, bets, the vault and claimables as soon as the server commits a change. */
export function useMarketsRealtime(): void {
  const queryClient = useQueryClient();
  useRealtime((message) => {
    if (message.topic === 'markets' || message.topic === 'bets' || message.topic === 'payouts') {
      void queryClient.invalidateQueries({ queryKey: MARKETS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['my-bets'] });
    }
    if (message.topic === 'vault' || message.topic === 'bets' || message.topic === 'payouts') {
      void queryClient.invalidateQueries({ queryKey: VAULT_QUERY_KEY });
    }
  });
}

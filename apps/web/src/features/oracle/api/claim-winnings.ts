import { type ClaimResponse, ClaimResponseSchema } from '@pm/core/contract/claims';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client.ts';

/** POST /api/claims with scope 'oracle': pays every claimable round payout from the vault. */
export function claimOracleWinnings(userAddress: string): Promise<ClaimResponse> {
  return apiPost('/api/claims', { userAddress, scope: 'oracle' }, ClaimResponseSchema);
}

export function useClaimOracleWinnings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: claimOracleWinnings,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['oracle', 'claimable'] }),
  });
}

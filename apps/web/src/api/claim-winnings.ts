import { type ClaimBody, type ClaimResponse, ClaimResponseSchema } from '@pm/core/contract/claims';
import { type QueryKey, type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '#lib/api-client.ts';

/**
 * POST /api/claims: pays every claimable bet in scope (or one bet): from the vault for bets staked
 * into it, relayed on the escrow contract for the rest (decision 026).
 */
export function claimWinnings(body: ClaimBody): Promise<ClaimResponse> {
  return apiPost('/api/claims', body, ClaimResponseSchema);
}

type ClaimCallbacks = Pick<UseMutationOptions<ClaimResponse, Error, ClaimBody>, 'onSuccess' | 'onError'>;

/**
 * Claims, then refetches `invalidates`: what the caller's page shows that a claim changes (the
 * claimable, the markets, the history); the claim stays pending until then. The keys are the
 * caller's (docs/decisions/006). My Bets reads the claimable list too: its escrow
 * claims are what the wallet's own claim needs; both load with its lazy part, for a connected wallet.
 */
export function useClaimWinnings(invalidates: readonly QueryKey[], callbacks: ClaimCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...callbacks,
    mutationFn: claimWinnings,
    onSettled: () => Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

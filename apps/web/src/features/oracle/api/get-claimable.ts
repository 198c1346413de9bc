import { REFRESH_MS } from '@pm/core/constants';
import { type ClaimableResponse, ClaimableResponseSchema } from '@pm/core/contract/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { usePollingFallback } from '../../../lib/realtime-queries.ts';

/** GET /api/users/:address/claimable (the oracle part is what this page shows). */
export function getClaimable(
  address: string,
  options: { signal?: AbortSignal } = {},
): Promise<ClaimableResponse> {
  return apiGet(`/api/users/${encodeURIComponent(address)}/claimable`, ClaimableResponseSchema, options);
}

export const claimableQueryKey = (address: string) => ['oracle', 'claimable', address.toLowerCase()] as const;

/**
 * Spec §7/§9: claimable oracle winnings, only for a connected wallet; refetched on realtime `rounds`
 * and `payouts`, every 5 s only while the socket is down (decision 015).
 */
export function claimableQueryOptions(address: string | undefined) {
  return queryOptions({
    queryKey: claimableQueryKey(address ?? ''),
    queryFn: ({ signal }) => getClaimable(address ?? '', { signal }),
    enabled: address !== undefined,
    refetchInterval: REFRESH_MS.claimableOracle,
  });
}

export function useClaimable(address: string | undefined) {
  return useQuery({
    ...claimableQueryOptions(address),
    refetchInterval: usePollingFallback(REFRESH_MS.claimableOracle),
  });
}

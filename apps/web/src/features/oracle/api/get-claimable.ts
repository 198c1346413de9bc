import { REFRESH_MS } from '@pm/core/constants';
import { type ClaimableResponse, ClaimableResponseSchema } from '@pm/core/contract/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/** GET /api/users/:address/claimable (the oracle part is what this page shows). */
export function getClaimable(
  address: string,
  options: { signal?: AbortSignal } = {},
): Promise<ClaimableResponse> {
  return apiGet(`/api/users/${encodeURIComponent(address)}/claimable`, ClaimableResponseSchema, options);
}

export const claimableQueryKey = (address: string) => ['oracle', 'claimable', address.toLowerCase()] as const;

/** Spec §7/§9: claimable oracle winnings every 5 s, only for a connected wallet. */
export function claimableQueryOptions(address: string | undefined) {
  return queryOptions({
    queryKey: claimableQueryKey(address ?? ''),
    queryFn: ({ signal }) => getClaimable(address ?? '', { signal }),
    enabled: address !== undefined,
    refetchInterval: REFRESH_MS.claimableOracle,
  });
}

export function useClaimable(address: string | undefined) {
  return useQuery(claimableQueryOptions(address));
}

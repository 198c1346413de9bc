import { REFRESH_MS } from '@pm/core/constants';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { usePollingFallback } from '../../../lib/realtime-queries.ts';

export const claimableQueryKey = (address: string) =>
  ['markets', 'claimable', address.toLowerCase()] as const;

/** Spec §7 "Claimable market winnings", case-insensitive address, refresh 10 s. */
export function claimableQueryOptions(address: string) {
  return queryOptions({
    queryKey: claimableQueryKey(address),
    queryFn: ({ signal }) => apiGet(`/api/users/${address}/claimable`, ClaimableResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.claimableMarkets,
  });
}

/** Refetched on realtime `markets` and `payouts`; every 10 s only while the socket is down. */
export const useClaimable = (address: string | undefined) =>
  useQuery({
    ...claimableQueryOptions(address ?? ''),
    enabled: Boolean(address),
    refetchInterval: usePollingFallback(REFRESH_MS.claimableMarkets),
  });

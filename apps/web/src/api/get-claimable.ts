import { REFRESH_MS } from '@pm/core/constants';
import { type ClaimableResponse, ClaimableResponseSchema } from '@pm/core/contract/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';
import { claimableQueryKey } from './claimable-query-key.ts';

/** GET /api/users/:address/claimable: a wallet's claimable market and round winnings and refunds. */
export function getClaimable(
  address: string,
  options: { signal?: AbortSignal } = {},
): Promise<ClaimableResponse> {
  return apiGet(`/api/users/${encodeURIComponent(address)}/claimable`, ClaimableResponseSchema, options);
}

/** docs/product.md §7/§9: claimable market winnings every 10 s, oracle winnings every 5 s. */
const REFRESH_BY_GAME = { markets: REFRESH_MS.claimableMarkets, oracle: REFRESH_MS.claimableOracle };

export function claimableQueryOptions(address: string, game: keyof typeof REFRESH_BY_GAME) {
  return queryOptions({
    queryKey: claimableQueryKey(address),
    queryFn: ({ signal }) => getClaimable(address, { signal }),
    refetchInterval: REFRESH_BY_GAME[game],
  });
}

/**
 * Only for a connected wallet. Refetched on realtime `payouts` and on the events of the page's game
 * (`markets` or `rounds`); at the game's interval only while the socket is down (decision 015).
 */
export const useClaimable = (address: string | undefined, game: keyof typeof REFRESH_BY_GAME) =>
  useQuery({
    ...claimableQueryOptions(address ?? '', game),
    enabled: Boolean(address),
    refetchInterval: usePollingFallback(REFRESH_BY_GAME[game]),
  });

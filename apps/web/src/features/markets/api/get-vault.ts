import { REFRESH_MS } from '@pm/core/constants';
import { PriceResponseSchema, VaultResponseSchema } from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { usePollingFallback } from '../../../lib/realtime-queries.ts';

export const VAULT_QUERY_KEY = ['vault'] as const;

/** Spec §7: vault balance every 10 s and on bets change. */
export function vaultQueryOptions() {
  return queryOptions({
    queryKey: VAULT_QUERY_KEY,
    queryFn: ({ signal }) => apiGet('/api/vault', VaultResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.vaultBalance,
  });
}

/**
 * The price has its own key: under ['markets'] every market event refetched it. Realtime `prices`
 * carries each new sample (use-markets-realtime.ts), so with the socket up it is never polled.
 */
export const BNB_PRICE_QUERY_KEY = ['price', 'BNB'] as const;

/** The BNB price from our server (spec §7 ticker every 3 s; one upstream call for all clients). */
export function bnbPriceQueryOptions() {
  return queryOptions({
    queryKey: BNB_PRICE_QUERY_KEY,
    queryFn: ({ signal }) => apiGet('/api/prices/BNB', PriceResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.price,
    retry: false,
  });
}

export const useVault = () =>
  useQuery({ ...vaultQueryOptions(), refetchInterval: usePollingFallback(REFRESH_MS.vaultBalance) });
export const useBnbPrice = () =>
  useQuery({ ...bnbPriceQueryOptions(), refetchInterval: usePollingFallback(REFRESH_MS.price) });

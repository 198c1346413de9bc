import { REFRESH_MS } from '@pm/core/constants';
import { PriceResponseSchema, VaultResponseSchema } from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

export const VAULT_QUERY_KEY = ['vault'] as const;

/** Spec §7: vault balance every 10 s and on bets change. */
export function vaultQueryOptions() {
  return queryOptions({
    queryKey: VAULT_QUERY_KEY,
    queryFn: ({ signal }) => apiGet('/api/vault', VaultResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.vaultBalance,
  });
}

/** The BNB price from our server (spec §7 ticker every 3 s; one upstream call for all clients). */
export function bnbPriceQueryOptions() {
  return queryOptions({
    queryKey: ['markets', 'bnb-price'],
    queryFn: ({ signal }) => apiGet('/api/prices/BNB', PriceResponseSchema, { signal }),
    refetchInterval: REFRESH_MS.price,
    retry: false,
  });
}

export const useVault = () => useQuery(vaultQueryOptions());
export const useBnbPrice = () => useQuery(bnbPriceQueryOptions());

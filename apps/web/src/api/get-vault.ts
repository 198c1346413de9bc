import { REFRESH_MS } from '@pm/core/constants';
import { type VaultResponse, VaultResponseSchema } from '@pm/core/contract/vault';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

/** GET /api/vault: the vault's address and balance. */
export function getVault(options: { signal?: AbortSignal } = {}): Promise<VaultResponse> {
  return apiGet('/api/vault', VaultResponseSchema, options);
}

export const VAULT_QUERY_KEY = ['vault'] as const;

/** docs/product.md §7: vault balance every 10 s and on bets change. */
export function vaultQueryOptions() {
  return queryOptions({
    queryKey: VAULT_QUERY_KEY,
    queryFn: ({ signal }) => getVault({ signal }),
    refetchInterval: REFRESH_MS.vaultBalance,
  });
}

/** Refetched on realtime `bets`, `payouts` and `vault`; every 10 s only while the socket is down. */
export const useVault = () =>
  useQuery({ ...vaultQueryOptions(), refetchInterval: usePollingFallback(REFRESH_MS.vaultBalance) });

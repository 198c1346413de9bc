import { REFRESH_MS } from '@pm/core/constants';
import { type RoundsResponse, RoundsResponseSchema } from '@pm/core/contract/oracle';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';
import { usePollingFallback } from '#lib/realtime-queries.ts';

/** GET /api/oracle/rounds: current, next and previous round by the docs/product.md §4 rules, plus server time. */
export function getRounds(options: { signal?: AbortSignal } = {}): Promise<RoundsResponse> {
  return apiGet('/api/oracle/rounds', RoundsResponseSchema, options);
}

export const ROUNDS_QUERY_KEY = ['oracle', 'rounds'] as const;

/** Refetched on realtime `rounds`; docs/product.md §9's every 1 s only while the socket is down (decision 015). */
export function roundsQueryOptions() {
  return queryOptions({
    queryKey: ROUNDS_QUERY_KEY,
    queryFn: ({ signal }) => getRounds({ signal }),
    refetchInterval: REFRESH_MS.oracleRounds,
  });
}

export function useRounds() {
  return useQuery({ ...roundsQueryOptions(), refetchInterval: usePollingFallback(REFRESH_MS.oracleRounds) });
}

import { UserBetsResponseSchema } from '@pm/core/contract/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/** Spec §7 "My bets": the wallet's bets with their market's title, status, result, category, deadline. */
export function userBetsQueryOptions(address: string) {
  return queryOptions({
    queryKey: ['my-bets', address.toLowerCase()],
    queryFn: ({ signal }) => apiGet(`/api/users/${address}/bets`, UserBetsResponseSchema, { signal }),
  });
}

export const useUserBets = (address: string | undefined) =>
  useQuery({ ...userBetsQueryOptions(address ?? ''), enabled: Boolean(address) });

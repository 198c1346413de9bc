import { UserBetsResponseSchema } from '@pm/core/contract/users';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/**
 * Spec §7 "My bets": the wallet's bets with their market's title, status, result, category,
 * deadline; newest first, a page at a time (the server caps a page, `nextCursor` continues).
 */
export function userBetsQueryOptions(address: string) {
  return infiniteQueryOptions({
    queryKey: ['my-bets', address.toLowerCase()],
    queryFn: ({ signal, pageParam }) =>
      apiGet(
        `/api/users/${address}/bets${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        UserBetsResponseSchema,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export const useUserBets = (address: string | undefined) =>
  useInfiniteQuery({ ...userBetsQueryOptions(address ?? ''), enabled: Boolean(address) });

import { LEADERBOARD_LIMIT, REFRESH_MS } from '@pm/core/constants';
import { type LeaderboardResponse, LeaderboardResponseSchema } from '@pm/core/contract/leaderboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';

/** GET /api/leaderboard: top winners over market and oracle wins, winnings descending. */
export function getLeaderboard({
  limit = LEADERBOARD_LIMIT,
  signal,
}: {
  limit?: number;
  signal?: AbortSignal;
}): Promise<LeaderboardResponse> {
  return apiGet(
    `/api/leaderboard?${new URLSearchParams({ limit: String(limit) })}`,
    LeaderboardResponseSchema,
    {
      signal,
    },
  );
}

/** docs/product.md §7/§9: top 100, refreshed every 30 s. */
export function leaderboardQueryOptions(limit: number = LEADERBOARD_LIMIT) {
  return queryOptions({
    queryKey: ['leaderboard', { limit }],
    queryFn: ({ signal }) => getLeaderboard({ limit, signal }),
    refetchInterval: REFRESH_MS.leaderboard,
  });
}

export function useLeaderboard(limit?: number) {
  return useQuery(leaderboardQueryOptions(limit));
}

import {
  type HistoryGameFilter,
  HistoryResponseSchema,
  type HistoryStatusFilter,
  HistorySummarySchema,
} from '@pm/core/contract/history';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

// A wallet's bets in both games and its P&L (GET /api/users/:address/history and /summary).
// Both keys start with 'history' so one invalidation refreshes the list and the summary.

export type HistoryFilters = { game: HistoryGameFilter; status: HistoryStatusFilter };

export function historyQueryOptions(address: string, filters: HistoryFilters) {
  return infiniteQueryOptions({
    queryKey: ['history', address.toLowerCase(), 'list', filters.game, filters.status],
    queryFn: ({ signal, pageParam }) => {
      const query = new URLSearchParams();
      if (filters.game !== 'all') query.set('game', filters.game);
      if (filters.status !== 'all') query.set('status', filters.status);
      if (pageParam) query.set('cursor', pageParam);
      const search = query.toString();
      return apiGet(`/api/users/${address}/history${search ? `?${search}` : ''}`, HistoryResponseSchema, {
        signal,
      });
    },
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export const useHistory = (address: string | undefined, filters: HistoryFilters) =>
  useInfiniteQuery({ ...historyQueryOptions(address ?? '', filters), enabled: Boolean(address) });

export function historySummaryQueryOptions(address: string) {
  return queryOptions({
    queryKey: ['history', address.toLowerCase(), 'summary'],
    queryFn: ({ signal }) => apiGet(`/api/users/${address}/summary`, HistorySummarySchema, { signal }),
  });
}

export const useHistorySummary = (address: string | undefined) =>
  useQuery({ ...historySummaryQueryOptions(address ?? ''), enabled: Boolean(address) });

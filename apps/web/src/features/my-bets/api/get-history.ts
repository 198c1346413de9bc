import {
  type HistoryGameFilter,
  HistoryResponseSchema,
  type HistoryStatusFilter,
  HistorySummarySchema,
} from '@pm/core/contract/history';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '#lib/api-client.ts';

// A wallet's bets in both games and its P&L (GET /api/users/:address/history and /summary).

export type HistoryFilters = { game: HistoryGameFilter; status: HistoryStatusFilter };

/** Every wallet's list pages and summary: what a claim invalidates. */
export const HISTORY_QUERY_KEY = ['history'] as const;

/** One wallet's list pages and summary, so one invalidation refreshes both. */
export const historyQueryKey = (address: string) => [...HISTORY_QUERY_KEY, address.toLowerCase()] as const;

/**
 * One page of the history: the first (`cursor` null) or the one after `cursor`. Each page is its
 * own query, as the settled markets list does (an infinite query's observer split TanStack Query's
 * chunk and cost every app route ~0.7 kB, decision 012); "Load more" adds the next page's cursor.
 */
export function historyPageQueryOptions(address: string, filters: HistoryFilters, cursor: string | null) {
  return queryOptions({
    queryKey: [...historyQueryKey(address), 'list', filters.game, filters.status, cursor],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams();
      if (filters.game !== 'all') query.set('game', filters.game);
      if (filters.status !== 'all') query.set('status', filters.status);
      if (cursor) query.set('cursor', cursor);
      const search = query.toString();
      const path = `/api/users/${address}/history` as const;
      return apiGet(search ? `${path}?${search}` : path, HistoryResponseSchema, { signal });
    },
  });
}

export const useHistoryPage = (address: string, filters: HistoryFilters, cursor: string | null) =>
  useQuery(historyPageQueryOptions(address, filters, cursor));

export function historySummaryQueryOptions(address: string) {
  return queryOptions({
    queryKey: [...historyQueryKey(address), 'summary'],
    queryFn: ({ signal }) => apiGet(`/api/users/${address}/summary`, HistorySummarySchema, { signal }),
  });
}

export const useHistorySummary = (address: string | undefined) =>
  useQuery({ ...historySummaryQueryOptions(address ?? ''), enabled: Boolean(address) });

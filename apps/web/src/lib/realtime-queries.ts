import type { RealtimeMessage } from '@pm/core/contract/realtime';
import { type Query, type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useRef, useSyncExternalStore } from 'react';
import { isRealtimeConnected, subscribeRealtimeConnection, useRealtime } from './realtime.ts';

// What TanStack Query needs from the realtime socket (decision 015): its state, to poll only while
// it is down, and refetches coalesced per event burst.

/** True while this page's realtime socket is open (and so pushes keep it fresh). */
export function useRealtimeConnected(): boolean {
  return useSyncExternalStore(subscribeRealtimeConnection, isRealtimeConnected, () => false);
}

/**
 * A query's `refetchInterval`: none while the socket is open (events and reconnects refetch), the
 * docs/product.md §9 interval while it is down.
 */
export function usePollingFallback(intervalMs: number): number | false {
  return useRealtimeConnected() ? false : intervalMs;
}

/**
 * Collects the query keys events ask to invalidate and invalidates each once, 50 ms later: a
 * round transition announces three epochs in one commit, and three refetches would be waste.
 *
 * A query's first fetch still in flight is not restarted by an invalidation: TanStack Query joins
 * it (the query has no data to show meanwhile). That fetch may have read the server before the
 * change the event announces, as when a page's first read of a market is under way while its
 * verdict is proposed, or while the socket's opening resync arrives. So once such a fetch is in,
 * its query is invalidated again; without that the page would show the old state until the next
 * event, however long that is.
 */
export function createInvalidator(queryClient: QueryClient): (queryKey: QueryKey) => void {
  const pending = new Map<string, QueryKey>();
  /** First fetches already awaited, so that a burst of events refetches them once. */
  const awaited = new Set<Query>();
  const flush = () => {
    for (const queryKey of pending.values()) {
      for (const query of queryClient.getQueryCache().findAll({ queryKey })) {
        if (query.state.data !== undefined || query.state.fetchStatus === 'idle' || awaited.has(query))
          continue;
        awaited.add(query);
        // The fetch in flight (joined, not started): again once it has data, not after a failure.
        void query.fetch().then(
          () => {
            awaited.delete(query);
            invalidate(query.queryKey);
          },
          () => awaited.delete(query),
        );
      }
      void queryClient.invalidateQueries({ queryKey });
    }
    pending.clear();
  };
  const invalidate = (queryKey: QueryKey) => {
    if (pending.size === 0) setTimeout(flush, 50);
    pending.set(JSON.stringify(queryKey), queryKey);
  };
  return invalidate;
}

/**
 * Calls `onMessage` for every realtime event with an `invalidate` that coalesces refetches; each
 * feature's hook says which of its queries an event touches.
 */
export function useRealtimeInvalidation(
  onMessage: (
    message: RealtimeMessage,
    invalidate: (queryKey: QueryKey) => void,
    queryClient: QueryClient,
  ) => void,
): void {
  const queryClient = useQueryClient();
  const invalidate = useRef<(queryKey: QueryKey) => void>(undefined);
  invalidate.current ??= createInvalidator(queryClient);
  const run = invalidate.current;
  useRealtime((message) => onMessage(message, run, queryClient));
}

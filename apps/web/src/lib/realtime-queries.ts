import type { RealtimeMessage } from '@pm/core/contract/realtime';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
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
 */
export function createInvalidator(queryClient: QueryClient): (queryKey: QueryKey) => void {
  const pending = new Map<string, QueryKey>();
  const flush = () => {
    for (const queryKey of pending.values()) void queryClient.invalidateQueries({ queryKey });
    pending.clear();
  };
  return (queryKey) => {
    if (pending.size === 0) setTimeout(flush, 50);
    pending.set(JSON.stringify(queryKey), queryKey);
  };
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

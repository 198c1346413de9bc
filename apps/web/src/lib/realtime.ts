import { type RealtimeMessage, RealtimeMessageSchema } from '@pm/core/contract/realtime';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';

// One WebSocket to /api/realtime for the whole page, shared by every feature. The server pushes
// `{topic, id?}` after each committed change; features refetch what they show, and only then
// (decision 015). While the socket is down, queries poll at the spec §9 intervals as a fallback
// (`usePollingFallback`); on each (re)connect every topic is announced without an id, so each
// page refetches what it may have missed.

type Listener = (message: RealtimeMessage) => void;

const listeners = new Set<Listener>();
const stateListeners = new Set<() => void>();
let socket: WebSocket | undefined;
let connected = false;
let retryMs = 1_000;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
/** A socket that stayed open this long was a good one: the next reconnect starts fast again. */
const STABLE_MS = 10_000;

/** What a client may have missed while it was not listening: everything of every topic. */
const RESYNC: RealtimeMessage[] = [
  { topic: 'markets' },
  { topic: 'bets' },
  { topic: 'rounds' },
  { topic: 'prices' },
  { topic: 'vault' },
  { topic: 'payouts' },
];

function realtimeUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/api/realtime`;
}

function setConnected(next: boolean): void {
  if (connected === next) return;
  connected = next;
  for (const listener of stateListeners) listener();
}

function dispatch(message: RealtimeMessage): void {
  for (const listener of listeners) listener(message);
}

function connect(): void {
  if (socket || listeners.size === 0 || typeof WebSocket === 'undefined') return;
  const current = new WebSocket(realtimeUrl());
  socket = current;
  let openedAt: number | undefined;
  current.onopen = () => {
    openedAt = Date.now();
    setConnected(true);
    // Whatever changed before this socket listened (the page's first fetch raced it, or the
    // socket was down, or this is another instance behind the load balancer) is fetched now.
    for (const message of RESYNC) dispatch(message);
  };
  current.onmessage = (event) => {
    if (typeof event.data !== 'string') return;
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    const parsed = RealtimeMessageSchema.safeParse(data);
    if (parsed.success) dispatch(parsed.data);
  };
  current.onclose = () => {
    if (socket !== current) return;
    socket = undefined;
    setConnected(false);
    if (listeners.size === 0) return;
    // A socket the server closes at once (full: 1013) must not make the page resync every second.
    if (openedAt !== undefined && Date.now() - openedAt > STABLE_MS) retryMs = 1_000;
    // Back off up to 30 s; the polling fallback keeps the page fresh meanwhile.
    reconnectTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };
}

export function subscribeRealtime(listener: Listener): () => void {
  listeners.add(listener);
  connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearTimeout(reconnectTimer);
      const current = socket;
      socket = undefined;
      current?.close();
      setConnected(false);
    }
  };
}

function subscribeConnected(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** True while this page's realtime socket is open (and so pushes keep it fresh). */
export function useRealtimeConnected(): boolean {
  return useSyncExternalStore(
    subscribeConnected,
    () => connected,
    () => false,
  );
}

/**
 * A query's `refetchInterval`: none while the socket is open (events and reconnects refetch), the
 * spec §9 interval while it is down.
 */
export function usePollingFallback(intervalMs: number): number | false {
  return useRealtimeConnected() ? false : intervalMs;
}

/** Calls `onMessage` for every realtime event while the component is mounted. */
export function useRealtime(onMessage: Listener): void {
  const latest = useRef(onMessage);
  latest.current = onMessage;
  useEffect(() => subscribeRealtime((message) => latest.current(message)), []);
}

/** Events that arrive together (one commit announces several rows) refetch a query once. */
const COALESCE_MS = 50;

/**
 * Collects the query keys events ask to invalidate and invalidates each once, shortly after: a
 * round transition announces three epochs, and three refetches of the same list would be waste.
 */
export function createInvalidator(queryClient: QueryClient): (queryKey: QueryKey) => void {
  const pending = new Map<string, QueryKey>();
  const flush = () => {
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  return (queryKey) => {
    if (pending.size === 0) setTimeout(flush, COALESCE_MS);
    pending.set(JSON.stringify(queryKey), queryKey);
  };
}

/**
 * Calls `onMessage` for every realtime event with an `invalidate` that coalesces refetches; the
 * hooks of each feature say which of their queries an event touches.
 */
export function useRealtimeInvalidation(
  onMessage: (
    message: RealtimeMessage,
    invalidate: (queryKey: QueryKey) => void,
    queryClient: QueryClient,
  ) => void,
): void {
  const queryClient = useQueryClient();
  const invalidate = useRef<((queryKey: QueryKey) => void) | undefined>(undefined);
  invalidate.current ??= createInvalidator(queryClient);
  const run = invalidate.current;
  useRealtime((message) => onMessage(message, run, queryClient));
}

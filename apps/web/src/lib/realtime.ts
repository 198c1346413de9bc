import { type RealtimeMessage, RealtimeMessageSchema } from '@pm/core/contract/realtime';
import { useEffect, useRef } from 'react';

// One WebSocket to /api/realtime for the whole page, shared by every feature. The server pushes
// `{topic, id?}` after each committed change; features refetch what they show, and only then
// (decision 015). While the socket is down, queries poll at the docs/product.md §9 intervals as a fallback
// (realtime-queries.ts); on each (re)connect every topic is announced without an id, so each page
// refetches what it may have missed (before its socket listened, while it was down, or on another
// instance behind the load balancer).

type Listener = (message: RealtimeMessage) => void;

const listeners = new Set<Listener>();
const connectionListeners = new Set<() => void>();
const TOPICS = ['markets', 'bets', 'rounds', 'prices', 'vault', 'payouts'] as const;
let socket: WebSocket | undefined;
let connected = false;
let retryMs = 1_000;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

function setConnected(next: boolean): void {
  connected = next;
  for (const listener of connectionListeners) listener();
}

function dispatch(message: RealtimeMessage): void {
  for (const listener of listeners) listener(message);
}

function connect(): void {
  if (socket || listeners.size === 0 || typeof WebSocket === 'undefined') return;
  const { protocol, host } = window.location;
  const current = new WebSocket(`${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/api/realtime`);
  socket = current;
  let openedAt = 0;
  current.onopen = () => {
    openedAt = Date.now();
    setConnected(true);
    for (const topic of TOPICS) dispatch({ topic });
  };
  current.onmessage = (event) => {
    let data: unknown;
    try {
      data = JSON.parse(String(event.data));
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
    // Back off up to 30 s, and start again at 1 s only after a socket that stayed open: one the
    // server closes at once (full: 1013) must not make the page refetch everything every second.
    if (openedAt && Date.now() - openedAt > 10_000) retryMs = 1_000;
    reconnectTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };
}

function subscribeRealtime(listener: Listener): () => void {
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

/** Calls `listener` whenever the socket opens or closes; `isRealtimeConnected` says which. */
export function subscribeRealtimeConnection(listener: () => void): () => void {
  connectionListeners.add(listener);
  return () => connectionListeners.delete(listener);
}

export const isRealtimeConnected = (): boolean => connected;

/** Calls `onMessage` for every realtime event while the component is mounted. */
export function useRealtime(onMessage: Listener): void {
  const latest = useRef(onMessage);
  latest.current = onMessage;
  useEffect(() => subscribeRealtime((message) => latest.current(message)), []);
}

import { type RealtimeMessage, RealtimeMessageSchema } from '@pm/core/contract/realtime';
import { useEffect, useRef } from 'react';

// One WebSocket to /api/realtime for the whole page, shared by every feature. The server pushes
// `{topic, id?}` after each committed change; features refetch what they show. Refetch intervals
// (spec §9) stay as the fallback while the socket is down.

type Listener = (message: RealtimeMessage) => void;

const listeners = new Set<Listener>();
let socket: WebSocket | undefined;
let retryMs = 1_000;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

function realtimeUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/api/realtime`;
}

function connect(): void {
  if (socket || listeners.size === 0 || typeof WebSocket === 'undefined') return;
  const current = new WebSocket(realtimeUrl());
  socket = current;
  current.onopen = () => {
    retryMs = 1_000;
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
    if (!parsed.success) return;
    for (const listener of listeners) listener(parsed.data);
  };
  current.onclose = () => {
    socket = undefined;
    if (listeners.size === 0) return;
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
      socket?.close();
      socket = undefined;
    }
  };
}

/** Calls `onMessage` for every realtime event while the component is mounted. */
export function useRealtime(onMessage: Listener): void {
  const latest = useRef(onMessage);
  latest.current = onMessage;
  useEffect(() => subscribeRealtime((message) => latest.current(message)), []);
}

import { RealtimeMessageSchema } from '@pm/core/contract/realtime';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { PRICE_QUERY_KEY } from '../api/get-price.ts';
import { ROUNDS_QUERY_KEY } from '../api/get-rounds.ts';

const MAX_BACKOFF_MS = 30_000;

/**
 * WS /api/realtime: the server pushes `{topic}` after each commit; this page refetches what
 * changed at once instead of waiting for its polling interval (spec §7 realtime, DESIGN).
 */
export function useOracleRealtime(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof WebSocket === 'undefined') return;
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let stopped = false;

    const onMessage = (event: MessageEvent) => {
      const parsed = RealtimeMessageSchema.safeParse(parseJson(event.data));
      if (!parsed.success) return;
      switch (parsed.data.topic) {
        case 'rounds':
          void queryClient.invalidateQueries({ queryKey: ROUNDS_QUERY_KEY });
          void queryClient.invalidateQueries({ queryKey: ['oracle', 'claimable'] });
          break;
        case 'prices':
          void queryClient.invalidateQueries({ queryKey: PRICE_QUERY_KEY });
          break;
        case 'payouts':
          void queryClient.invalidateQueries({ queryKey: ['oracle', 'claimable'] });
          break;
        default:
          break;
      }
    };

    const connect = () => {
      const url = new URL('/api/realtime', document.baseURI);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(url);
      socket.addEventListener('open', () => {
        attempts = 0;
      });
      socket.addEventListener('message', onMessage);
      socket.addEventListener('close', () => {
        if (stopped) return;
        retry = setTimeout(connect, Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempts));
        attempts += 1;
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [queryClient]);
}

function parseJson(data: unknown): unknown {
  if (typeof data !== 'string') return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

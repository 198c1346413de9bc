import { useEffect, useState } from 'react';
import { usePrice } from '#api/get-price.ts';
import { useRealtimeConnected } from '#lib/realtime-queries.ts';

/**
 * No push for this long while the socket is up: the feed went quiet (the sampler stores nothing
 * then), so the price shown is flagged stale as the server would (it says so after 6 s).
 */
const QUIET_AFTER_MS = 10_000;

/** The price of the price card: the shared price query, flagged stale once the pushes stop. */
export function useLivePrice() {
  const connected = useRealtimeConnected();
  const query = usePrice();
  const quiet = useQuietSince(query.dataUpdatedAt, QUIET_AFTER_MS);
  const data =
    query.data && connected && quiet && !query.data.stale ? { ...query.data, stale: true } : query.data;
  return { ...query, data };
}

/**
 * True once `sinceMs` (a Date.now() instant, 0 for never) is `afterMs` old. Only the elapsed time
 * of the browser's clock is used, so a browser clock set wrong does not matter.
 */
function useQuietSince(sinceMs: number, afterMs: number): boolean {
  const [quietSince, setQuietSince] = useState(0);
  useEffect(() => {
    if (sinceMs === 0) return;
    const timer = setTimeout(() => setQuietSince(sinceMs), Math.max(0, sinceMs + afterMs - Date.now()));
    return () => clearTimeout(timer);
  }, [sinceMs, afterMs]);
  return sinceMs !== 0 && quietSince === sinceMs;
}

/**
 * Wraps `load` so it runs at most once per `ttlMs`; callers in between share the last answer (or
 * failure), and concurrent callers share one call in flight. For checks that must stay cheap
 * however often they are asked, like /api/health's RPC round trip.
 */
export function cacheFor<T>(ttlMs: number, load: () => Promise<T>): () => Promise<T> {
  let cached: { value: Promise<T>; at: number } | undefined;
  return () => {
    const now = performance.now();
    if (!cached || now - cached.at >= ttlMs) {
      const value = load();
      // A failure is kept for the ttl too (a down RPC is not hammered); mark it handled here.
      value.catch(() => {});
      cached = { value, at: now };
    }
    return cached.value;
  };
}

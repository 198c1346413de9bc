import type { RealtimeTopic } from '@pm/core/contract/realtime';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

/**
 * A short in-process cache for the public hot reads (docs/decisions/017). Each store holds the
 * answers of one kind of read and is dropped whole when a realtime event of one of its topics
 * arrives (the hub hears every commit of every instance), when this instance answers a write, and
 * in any case `ttlMs` after the read began. Per-user reads are never cached.
 */
export type ResponseCache = ReturnType<typeof createResponseCache>;

type RequestHeaders = Pick<FastifyRequest, 'headers'>;

export type CachedStore<T> = {
  /**
   * The value of `key`: one whose read began less than the TTL ago and after the last invalidation
   * of the store, or a fresh `load()`. Concurrent misses of a key share one load. A request that
   * carries the fresh-read cookie (its client has just written) always loads.
   */
  read(key: string, load: () => Promise<T>, request?: RequestHeaders): Promise<T>;
};

/** Set on every successful write this instance answers; see decision 017. */
export const FRESH_READ_COOKIE = 'pm_fresh';
const FRESH_READ_PATTERN = new RegExp(`(?:^|;\\s*)${FRESH_READ_COOKIE}=`);

/** The request carries the fresh-read cookie: its client has just written (decision 017). */
export function wantsFreshRead(request: RequestHeaders): boolean {
  const cookie = request.headers.cookie;
  return cookie !== undefined && FRESH_READ_PATTERN.test(cookie);
}

type Store = { topics: readonly RealtimeTopic[]; clear(): void };

export function createResponseCache(options: { ttlMs: number }) {
  const { ttlMs } = options;
  const stores: Store[] = [];

  return {
    ttlMs,

    /**
     * A store for one kind of read. `maxEntries` bounds the keys (cursors and ids are open-ended);
     * `sizeOf` with `maxSize` bounds the memory of large answers (a market with its 1,000 bets is
     * about 350 kB).
     */
    store<T extends NonNullable<unknown>>(storeOptions: {
      topics: readonly RealtimeTopic[];
      maxEntries: number;
      maxSize?: number;
      sizeOf?: (value: T) => number;
    }): CachedStore<T> {
      if (ttlMs === 0) return { read: (_key, load) => load() };
      const entries = new LRUCache<string, T>({
        max: storeOptions.maxEntries,
        ttl: ttlMs,
        ...(storeOptions.sizeOf && storeOptions.maxSize
          ? { maxSize: storeOptions.maxSize, sizeCalculation: storeOptions.sizeOf }
          : {}),
      });
      const inFlight = new Map<string, { value: Promise<T>; startedAt: number; generation: number }>();
      // Bumped by every invalidation: a read that began before it must neither be kept nor shared,
      // even if it ends after it (it may have read the rows before the commit that invalidated).
      let generation = 0;
      stores.push({
        topics: storeOptions.topics,
        clear() {
          generation += 1;
          entries.clear();
          inFlight.clear();
        },
      });

      return {
        read(key, load, request) {
          const fresh = request !== undefined && wantsFreshRead(request);
          const now = performance.now();
          if (!fresh) {
            const hit = entries.get(key);
            if (hit !== undefined) return Promise.resolve(hit);
            const pending = inFlight.get(key);
            if (pending && pending.generation === generation && now - pending.startedAt < ttlMs)
              return pending.value;
          }
          const startedAt = now;
          const startedIn = generation;
          const value = load();
          const flight = { value, startedAt, generation: startedIn };
          if (!fresh) inFlight.set(key, flight);
          value.then(
            (loaded) => {
              if (inFlight.get(key) === flight) inFlight.delete(key);
              // The TTL counts from when the read began, not from when it ended.
              if (generation === startedIn) entries.set(key, loaded, { start: startedAt });
            },
            () => {
              if (inFlight.get(key) === flight) inFlight.delete(key);
            },
          );
          return value;
        },
      };
    },

    /** A realtime event of `topic` was committed: drop every store that depends on it. */
    invalidate(topic: RealtimeTopic): void {
      for (const store of stores) if (store.topics.includes(topic)) store.clear();
    },

    /** This instance has just committed a write: nothing read before it may be served after it. */
    invalidateAll(): void {
      for (const store of stores) store.clear();
    },
  };
}

import { createHash } from 'node:crypto';
import fastifyEtag from '@fastify/etag';
import type { RealtimeMessage } from '@pm/core/contract/realtime';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { WalletChangeSchema } from '../wallet-reads/wallet-changes.ts';
import {
  createWalletReadCache,
  type WalletReadCache,
  type WalletReadCacheOptions,
} from '../wallet-reads/wallet-read-cache.ts';
import { createResponseCache, FRESH_READ_COOKIE, type ResponseCache } from './response-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The in-process cache of the public hot reads (decision 017). */
    responseCache: ResponseCache;
    /** The answers of each wallet's own reads, until its events drop them (decision 032). */
    walletReads: WalletReadCache<SerializedResponse>;
  }
}

const MB = 1024 * 1024;
/** Wallets kept at most, whatever their size: each costs its maps beside its answers. */
const WALLET_READ_CACHE_WALLETS = 50_000;

/**
 * Weak: the bytes are ours, but a proxy that compresses them must not keep a strong validator
 * (nginx weakens it anyway), and the API serves no byte ranges, the only use of a strong one.
 */
function etagOf(body: string): string {
  return `W/"${hashBody(body)}"`;
}

/** @fastify/etag's own default hash; the plugin adds the quotes and, with `weak`, the W/. */
function hashBody(payload: string | Buffer): string {
  return createHash('sha1').update(payload).digest('base64');
}

/** An answer as it goes on the wire, kept by the response cache. */
export type SerializedResponse = { status: number; body: string; etag: string };

export function serializeResponse(status: number, body: unknown): SerializedResponse {
  // What Fastify's default serializer sends for a route without a response schema.
  const text = JSON.stringify(body);
  return { status, body: text, etag: etagOf(text) };
}

export function sendSerialized(reply: FastifyReply, response: SerializedResponse): FastifyReply {
  // A string with its content type set goes out as it is; @fastify/etag keeps the ETag it finds.
  return reply
    .code(response.status)
    .header('etag', response.etag)
    .type('application/json; charset=utf-8')
    .send(response.body);
}

/**
 * HTTP caching for the API (docs/decisions/017):
 * - an ETag on every answer and `304 Not Modified` to a matching `If-None-Match` (@fastify/etag);
 * - `Cache-Control: no-cache` on reads, so browsers keep the answer but ask again every time (and
 *   get a 304 when nothing changed); `private, no-cache` on per-user reads (/api/users/…), which
 *   shared caches must not keep;
 * - the response cache, dropped by the realtime events of every instance, and by every write this
 *   instance answers before the answer leaves (so the writer's next read sees its write), which
 *   also gives the writer's browser the short fresh-read cookie for the other instances.
 */
export async function registerHttpCaching(
  app: FastifyInstance,
  /**
   * The realtime events (the realtime hub, wired in app.ts): each drops the cached reads of its
   * topic; and the changes to wallets' rows, which drop the wallet reads they touch.
   */
  hub: {
    subscribe(subscriber: (message: RealtimeMessage) => void): unknown;
    subscribeWalletChanges(subscriber: {
      change(payload: unknown): void;
      resync(listening: boolean): void;
    }): unknown;
  },
  options: {
    ttlMs: number;
    /** The wallet read cache (decision 032): its backstop TTL (0: off), memory, stakes and counts. */
    wallets: { ttlMs: number; maxMb: number } & Pick<
      WalletReadCacheOptions<SerializedResponse>,
      'loadStakes' | 'onRead' | 'onDrop'
    >;
  },
): Promise<void> {
  const cache = createResponseCache({ ttlMs: options.ttlMs });
  app.decorate('responseCache', cache);
  // Subscribed before any socket: the hub calls subscribers in order, so this instance drops its
  // copies before any of its clients hears the event and asks again.
  hub.subscribe((message) => cache.invalidate(message.topic));

  const { ttlMs: walletTtlMs, maxMb, ...walletHooks } = options.wallets;
  const walletReads = createWalletReadCache<SerializedResponse>({
    ...walletHooks,
    ttlMs: walletTtlMs,
    maxBytes: maxMb * MB,
    maxWallets: WALLET_READ_CACHE_WALLETS,
    sizeOf: (response) => response.body.length + response.etag.length,
    listening: false,
  });
  app.decorate('walletReads', walletReads);
  hub.subscribeWalletChanges({
    change(payload) {
      const change = WalletChangeSchema.safeParse(payload);
      if (change.success) walletReads.change(change.data);
      else {
        // Not understood: whose reads it drops is unknown, so every wallet's are.
        app.log.warn({ payload }, 'dropped every wallet read on a malformed wallet change');
        walletReads.resync(true);
      }
    },
    resync: (listening) => walletReads.resync(listening),
  });

  // The cookie must outlive any copy read before the write, on any instance: TTL plus a second.
  const freshCookieS = Math.ceil(options.ttlMs / 1000) + 1;
  app.addHook('onSend', async (request, reply) => {
    // The route that matched, not the raw URL: `/%61pi/…` reaches /api/… and must count like it.
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/')) return;
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (!reply.hasHeader('cache-control')) {
        reply.header('cache-control', route.startsWith('/api/users/') ? 'private, no-cache' : 'no-cache');
      }
      return;
    }
    if (request.method === 'OPTIONS' || reply.statusCode < 200 || reply.statusCode >= 300) return;
    cache.invalidateAll();
    if (options.ttlMs > 0) {
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header(
        'set-cookie',
        `${FRESH_READ_COOKIE}=1; Max-Age=${freshCookieS}; Path=/api; HttpOnly; SameSite=Strict${secure}`,
      );
    }
  });
  // After the hook above, so a 304 carries the Cache-Control of the answer it stands for.
  await app.register(fastifyEtag, { weak: true, hashFn: hashBody });
}

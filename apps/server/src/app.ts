import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppDeps, AppFeature } from './app-deps.ts';
import { answerFrameworkError, registerErrorHandling } from './http/error-handler.ts';
import { registerHttpCaching } from './http/http-caching.ts';
import { registerRateLimits } from './http/rate-limits.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { serveWebApp } from './http/serve-web-app.ts';
import { watchUntrustedForwardedFor } from './http/untrusted-forwarded-for.ts';
import { registerHttpMetrics } from './metrics/http-metrics.ts';
import { noteUntrustedForwardedFor } from './operators/operators-repository.ts';
import { createRealtimeHub } from './realtime/realtime-hub.ts';
import { registerRealtimeRoutes } from './realtime/realtime-routes.ts';
import { readWalletStakes } from './wallet-reads/wallet-stakes-repository.ts';

const REALTIME_MAX_PAYLOAD = 4 * 1024;

/**
 * TRUST_PROXY hops: the socket's peer and the next hops-1 X-Forwarded-For entries (from the right)
 * are our own proxies, so request.ip is the address the outermost proxy saw. Never `true`: then the
 * client's own leftmost X-Forwarded-For entry is request.ip, and every made-up address gets a fresh
 * rate-limit bucket. Not Fastify's numeric form either: Fastify 5.12 reads a
 * number as "trust nothing".
 */
function trustProxyHops(hops: number) {
  return hops > 0 ? (_address: string, hop: number) => hop < hops : false;
}

/**
 * Builds the HTTP app from its dependencies; never listens (server.ts does). Feature modules
 * register their routes through `features`, so tests can build the app with the real pieces.
 */
export async function createApp(
  deps: AppDeps,
  options: { logger?: FastifyBaseLogger; features?: AppFeature[]; rateLimitPerMinute?: number } = {},
) {
  const { config } = deps;
  const app: FastifyInstance = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    trustProxy: trustProxyHops(config.http.trustProxy),
    bodyLimit: 64 * 1024,
    frameworkErrors: answerFrameworkError,
  });
  registerHttpMetrics(app, deps.metrics);
  registerErrorHandling(app);
  watchUntrustedForwardedFor(app, {
    trustProxy: config.http.trustProxy,
    note: () => noteUntrustedForwardedFor(deps.database.db),
  });
  await registerSecurityHeaders(app, config);
  await registerRateLimits(app, options.rateLimitPerMinute ?? config.http.rateLimitPerMinute);
  // Clients never need to send anything on /api/realtime; 4 KiB bounds what ws buffers of a client
  // that sends anyway. No permessage-deflate (ws's default, said here so it stays so): one event goes
  // to every socket, and compressing a 30-byte message per socket would cost far more than it saves.
  await app.register(fastifyWebsocket, {
    options: { maxPayload: REALTIME_MAX_PAYLOAD, perMessageDeflate: false },
  });

  const hub = createRealtimeHub(deps.database, app.log);
  await hub.start();
  app.addHook('onClose', () => hub.stop());
  await registerHttpCaching(app, hub, {
    ttlMs: config.http.responseCacheMs,
    wallets: {
      ttlMs: config.http.walletReadCacheMs,
      maxMb: config.http.walletReadCacheMb,
      loadStakes: (address) => readWalletStakes(deps.database.db, address),
      onRead: (read, outcome) => deps.metrics.countWalletRead(read, outcome),
      onDrop: (cause, wallets) => deps.metrics.countWalletReadDrops(cause, wallets),
    },
  });
  deps.metrics.observeWalletReadCache(() => app.walletReads.size());
  deps.metrics.observeRealtimeListening(() => hub.listening);

  const realtime = registerRealtimeRoutes(app, hub, {
    allowedOrigins: config.http.corsOrigins,
    maxConnections: config.realtime.maxConnections,
    maxConnectionsPerIp: config.realtime.maxConnectionsPerIp,
  });
  deps.metrics.observeRealtimeConnections(realtime.connections);
  for (const feature of options.features ?? []) await feature(app, deps);

  await serveWebApp(app, config.webDist);
  return app;
}

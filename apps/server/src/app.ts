import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { ErrorBody } from '@pm/core/contract/errors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { PublicClient } from 'viem';
import type { Clock } from './chain/clock.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/client.ts';
import { answerFrameworkError, registerErrorHandling } from './http/error-handler.ts';
import { registerLeaderboardRoutes } from './leaderboard/leaderboard-routes.ts';
import { createRealtimeHub } from './realtime/realtime-hub.ts';
import { registerRealtimeRoutes } from './realtime/realtime-routes.ts';
import { registerSystemRoutes } from './system/system-routes.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  chain: PublicClient;
  clock: Clock;
};

export type AppFeature = (app: FastifyInstance, deps: AppDeps) => void | Promise<void>;

/**
 * Builds the HTTP app from its dependencies; never listens (server.ts does). Feature modules
 * register their routes through `features`, so tests can build the app with the real pieces.
 */
export async function createApp(
  deps: AppDeps,
  options: { logger?: FastifyBaseLogger; features?: AppFeature[]; rateLimitPerMinute?: number } = {},
) {
  const app: FastifyInstance = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // Behind one reverse proxy in production; rate limits then key on the client's address.
    trustProxy: true,
    bodyLimit: 64 * 1024,
    frameworkErrors: answerFrameworkError,
  });
  registerErrorHandling(app);
  await app.register(fastifyRateLimit, {
    max: options.rateLimitPerMinute ?? 600,
    timeWindow: '1 minute',
    allowList: (request) => !request.url.startsWith('/api/') || request.url === '/api/health',
    errorResponseBuilder: (_request, context) => {
      const body: ErrorBody = {
        error: { code: 'RATE_LIMITED', message: `Too many requests. Try again in ${context.after}.` },
      };
      return Object.assign(body, { statusCode: 429 });
    },
  });
  await app.register(fastifyWebsocket);

  const hub = createRealtimeHub(deps.database, app.log);
  await hub.start();
  app.addHook('onClose', () => hub.stop());

  registerSystemRoutes(app, deps);
  registerLeaderboardRoutes(app, deps);
  registerRealtimeRoutes(app, hub);
  for (const feature of options.features ?? []) await feature(app, deps);

  await serveWebApp(app, deps.config.webDist);
  return app;
}

// Vite names every file under assets/ by its content hash: it never changes, so browsers may keep
// it for good. Everything else (index.html above all) is revalidated, so a deploy is seen at once.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Serves the built web app (same origin as the API) with the SPA fallback to index.html. The web
 * build writes .br and .gz copies beside each file (apps/web/compress-assets.ts); they are sent to
 * clients that accept them.
 */
async function serveWebApp(app: FastifyInstance, webDist: string | undefined) {
  const root = webDist ? resolve(webDist) : undefined;
  const indexFile = root ? join(root, 'index.html') : undefined;
  const hasWeb = Boolean(indexFile && existsSync(indexFile));
  if (root && hasWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        const hashed = path.startsWith(join(root, 'assets'));
        reply.header('cache-control', hashed ? IMMUTABLE : REVALIDATE);
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method === 'GET' && indexFile && hasWeb && !request.url.startsWith('/api/')) {
      return reply
        .type('text/html')
        .header('cache-control', REVALIDATE)
        .send(await readFile(indexFile));
    }
    const body: ErrorBody = {
      error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${request.url}` },
    };
    return reply.code(404).send(body);
  });
}

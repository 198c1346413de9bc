import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { ErrorBody } from '@pm/core/contract/errors';
import type { FastifyInstance } from 'fastify';

// Vite names every file under assets/ by its content hash: it never changes, so browsers may keep
// it for good. Everything else (index.html above all) is revalidated, so a deploy is seen at once.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Serves the built web app (same origin as the API) with the SPA fallback to index.html. The web
 * build writes .br and .gz copies beside each file (apps/web/compress-assets.ts); they are sent to
 * clients that accept them. index.html is read once at start: a deploy restarts the server, and a
 * flood of unknown paths costs no disk read each.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const root = webDist ? resolve(webDist) : undefined;
  const indexFile = root ? join(root, 'index.html') : undefined;
  const indexHtml = indexFile && existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  if (root && indexHtml) {
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
    if (request.method === 'GET' && indexHtml && !request.url.startsWith('/api/')) {
      return reply.type('text/html').header('cache-control', REVALIDATE).send(indexHtml);
    }
    const body: ErrorBody = {
      error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${request.url}` },
    };
    return reply.code(404).send(body);
  });
}

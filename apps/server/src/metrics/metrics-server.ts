import { createHash, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from './metrics.ts';

export type MetricsListener = { url: string; close(): Promise<void> };

/**
 * GET /metrics on its own listener (METRICS_HOST:METRICS_PORT), apart from the public API port so
 * that a load balancer or the internet never reaches it. Port 0 turns it off: null. A plain
 * node:http server, since it serves one read-only path. With a token (METRICS_TOKEN), a scrape
 * without `Authorization: Bearer <token>` gets 401 (security review 2: the figures show the
 * escrow's balance and the business's volume, and a scrape runs ~9 queries).
 */
export async function startMetricsListener(
  settings: { host: string; port: number; token?: string | undefined },
  metrics: Pick<Metrics, 'scrape' | 'contentType'>,
  logger?: Pick<FastifyBaseLogger, 'error'>,
): Promise<MetricsListener | null> {
  if (settings.port === 0) return null;
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: try /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    if (settings.token !== undefined && !bearerMatches(request, settings.token)) {
      response
        .writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain; charset=utf-8' })
        .end('Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
      return;
    }
    metrics.scrape().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger?.error({ err: error }, 'metrics scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
      },
    );
  });
  // A scraper that keeps its connection open must not hold a shutdown.
  server.keepAliveTimeout = 5_000;
  server.listen({ host: settings.host, port: settings.port });
  // Rejects with the listen error (EADDRINUSE…): once() rejects on 'error'.
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/metrics`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Compares digests, so neither the token's length nor its first differing byte shows in the timing. */
function bearerMatches(request: IncomingMessage, token: string): boolean {
  const match = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '');
  if (!match?.[1]) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from './metrics.ts';

export type MetricsListener = { url: string; close(): Promise<void> };

/**
 * GET /metrics on its own listener (METRICS_HOST:METRICS_PORT), apart from the public API port so
 * that a load balancer or the internet never reaches it. Port 0 turns it off: null. A plain
 * node:http server, since it serves one read-only path.
 */
export async function startMetricsListener(
  settings: { host: string; port: number },
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

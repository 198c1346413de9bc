import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

/**
 * Times every answered request into http_request_duration_seconds, labelled by the route's
 * template (`/api/markets/:id`), never the URL: a request that matched no route (a 404, a page of
 * the web app served by the not-found handler) counts as `unmatched`.
 */
export function registerHttpMetrics(
  app: FastifyInstance,
  metrics: Pick<Metrics, 'observeHttpRequest'>,
): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeHttpRequest({
      route: request.is404 ? undefined : request.routeOptions.url,
      method: request.method,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
  });
}

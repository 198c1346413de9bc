import fastifyRateLimit from '@fastify/rate-limit';
import type { ErrorBody } from '@pm/core/contract/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Per client address (request.ip: the socket's peer, or the address TRUST_PROXY hops back in
 * X-Forwarded-For), across the whole API. Which requests count is decided by the route that
 * matched, never the raw URL: `/%61pi/claims` reaches /api/claims and must count like it
 * (docs/security.md "Rate limits, limits on input, HTTP headers"). The web app's files and
 * /api/health (cached, no RPC call) are free.
 */
export async function registerRateLimits(app: FastifyInstance, perMinute: number): Promise<void> {
  if (perMinute === 0) return;
  await app.register(fastifyRateLimit, {
    max: perMinute,
    timeWindow: '1 minute',
    allowList: (request) => !isLimitedRoute(request),
    errorResponseBuilder: (_request, context) => {
      const body: ErrorBody = {
        error: { code: 'RATE_LIMITED', message: `Too many requests. Try again in ${context.after}.` },
      };
      return Object.assign(body, { statusCode: 429 });
    },
  });
}

function isLimitedRoute(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route?.startsWith('/api/') === true && route !== '/api/health';
}

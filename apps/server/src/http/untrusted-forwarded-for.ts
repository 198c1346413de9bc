import type { FastifyInstance } from 'fastify';

// Behind a reverse proxy with TRUST_PROXY=0, request.ip is the proxy's
// address for every client, so the rate limit, the WebSocket cap and the Analyze budget become one
// bucket that everyone shares, and nothing said so. A request carrying X-Forwarded-For while
// TRUST_PROXY=0 is the sign: the instance logs a warning once, and leaves a note in the database
// (a row of `server_secrets`, the one table of deployment-wide facts; not a secret) that
// `npm run ops -- doctor` reads, since the doctor runs in a process of its own.

/**
 * Watches for X-Forwarded-For while no proxy is trusted: the first one is logged (warn) and noted
 * for the doctor (`note`: the operators' repository, wired in app.ts); the header is never acted on
 * (request.ip stays the socket's peer).
 */
export function watchUntrustedForwardedFor(
  app: FastifyInstance,
  options: { trustProxy: number; note: () => Promise<void> },
): void {
  if (options.trustProxy > 0) return;
  let seen = false;
  app.addHook('onRequest', async (request) => {
    if (seen || request.headers['x-forwarded-for'] === undefined) return;
    seen = true;
    request.log.warn(
      { peer: request.ip },
      'a request came with X-Forwarded-For while TRUST_PROXY=0: behind a reverse proxy every client shares the proxy address for rate limits and caps; set TRUST_PROXY to the number of proxies (docs/operations.md). Logged once.',
    );
    await options
      .note()
      .catch((error: unknown) =>
        request.log.warn({ err: error }, 'the X-Forwarded-For note could not be written'),
      );
  });
}

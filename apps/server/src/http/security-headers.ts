import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config/config.ts';

/** Two years, the HSTS preload list's floor. */
const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * Security headers on every response, API and web app alike (docs/security.md "Rate limits, limits on
 * input, HTTP headers"), and CORS only for the configured origins. The built web app has no inline
 * script, so scripts are 'self' only; the wallet talks to the chain through PUBLIC_RPC_URL (from
 * /api/config), so that origin is the one outside connect-src allows.
 *
 * Helmet itself, built once: @fastify/helmet builds a new helmet, parsing the whole policy, on every
 * request (7% of the server's CPU on the cached first page of markets, docs/benchmarks.md).
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const rpcOrigin = new URL(config.chain.publicRpcUrl).origin;
  const applyHelmet = helmet({
    contentSecurityPolicy: {
      // Listed in full: helmet's defaults add upgrade-insecure-requests, which breaks plain-HTTP dev.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        // Radix's dialogs lock page scroll by inserting a <style> element (react-remove-scroll)
        // whose rules depend on the scrollbar width, so no hash fits. Style elements only: style
        // attributes and every script stay 'self'. CSS cannot run code.
        styleSrcElem: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        // 'self' covers the same-origin WebSocket (/api/realtime) in CSP level 3.
        connectSrc: ["'self'", rpcOrigin],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Sent below, only when the request came over TLS: HSTS on plain HTTP is meaningless, and on
    // a dev host it would pin the browser to HTTPS.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    applyHelmet(request.raw, reply.raw, (error) => {
      if (error === undefined) done();
      else done(error instanceof Error ? error : new Error(String(error)));
    });
  });
  // request.protocol reads X-Forwarded-Proto only from a trusted proxy (TRUST_PROXY).
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
  // No origin configured: no CORS headers, so browsers keep the API same-origin.
  await app.register(fastifyCors, {
    origin: config.http.corsOrigins.length > 0 ? config.http.corsOrigins : false,
    methods: ['GET', 'POST'],
  });
}

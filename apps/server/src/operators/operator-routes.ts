import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { issueOperatorNonce } from './operator-auth.ts';

/**
 * Nonces issued to one client address per minute. An operator signs one per action; the limit and
 * the cap on outstanding nonces keep the public endpoint from filling the table (review F17).
 */
export const NONCE_RATE_LIMIT = { max: 10, timeWindow: '1 minute' };

/** GET /api/admin/nonce: the single-use nonce every signed operator action needs. */
export function registerOperatorRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(
    app,
    ROUTES.operatorNonce,
    async () => {
      const { nonce, expiresAt, expiry } = await issueOperatorNonce(deps.database.db, deps.clock);
      return { status: 200, body: { nonce, expiresAt: expiresAt.toISOString(), expiry } };
    },
    { rateLimit: NONCE_RATE_LIMIT },
  );
}

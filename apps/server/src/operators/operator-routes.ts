import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { issueOperatorNonce } from './operator-auth.ts';

/**
 * Nonces issued to one client address per minute: load control only. Issuing stores nothing and
 * has no shared cap, so strangers asking from many addresses cannot lock operators out.
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

import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { readClaimable } from './claimable.ts';
import { type ClaimsDeps, claimWinnings } from './claims-service.ts';

export function registerClaimsRoutes(app: FastifyInstance, deps: AppDeps, claims: ClaimsDeps): void {
  defineRoute(app, ROUTES.userClaimable, async ({ params }) => ({
    status: 200,
    body: await readClaimable(deps.database.db, params.address),
  }));
  defineRoute(app, ROUTES.claim, async ({ body }) => ({
    status: 200,
    body: await claimWinnings(claims, body),
  }));
}

import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { defineRoute } from '../../http/define-route.ts';
import { type ClaimableBetViews, readClaimable } from './claimable.ts';
import { claimWinnings } from './claims-service.ts';
import type { EscrowClaimsDeps } from './escrow-claims.ts';

/**
 * GET claimable (its bets shown through `views`) and POST /api/claims; claims relay through the escrow
 * module's operator key (null: none).
 */
export function registerClaimsRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  claims: EscrowClaimsDeps | null,
  views: ClaimableBetViews,
): void {
  // Kept per wallet until its events drop it (decision 032).
  defineRoute(
    app,
    ROUTES.userClaimable,
    async ({ params }) => ({
      status: 200,
      body: await readClaimable(deps.database.db, params.address, views),
    }),
    { walletRead: { read: 'claimable', address: ({ params }) => params.address } },
  );
  defineRoute(
    app,
    ROUTES.claim,
    async ({ body }) => ({
      status: 200,
      body: await claimWinnings(claims, body),
    }),
    { writesWallet: ({ body }) => body.userAddress },
  );
}

import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../http/define-route.ts';
import { type FlagMarketDeps, flagMarket } from './flag-market.ts';
import { toResolutionEventDto } from './resolution-events-repository.ts';

/**
 * A bettor flags a proposed verdict during its review window (docs/decisions/011), with a bond
 * deposited into the escrow (docs/decisions/026): 201 flagged, 202 while the bond is not final yet.
 */
export function registerMarketReviewRoutes(app: FastifyInstance, deps: FlagMarketDeps): void {
  defineRoute(
    app,
    ROUTES.flagMarket,
    async ({ params, body }, request) => {
      const outcome = await flagMarket(deps, params.id, body);
      if (outcome.status === 'pending') {
        return { status: 202, body: { status: 'pending', txHash: outcome.txHash } };
      }
      const event = outcome.value;
      request.log.info({ marketId: params.id, address: event.actor }, 'market verdict flagged');
      return { status: 201, body: { event: toResolutionEventDto(event) } };
    },
    { writesWallet: ({ body }) => body.address },
  );
}

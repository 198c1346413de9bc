import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { flagMarket } from './flag-market.ts';
import { toResolutionEventDto } from './resolution-events.ts';

/** A bettor flags a proposed verdict during its review window (issue 11, decision 011). */
export function registerMarketReviewRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, ROUTES.flagMarket, async ({ params, body }, request) => {
    const event = await flagMarket(deps.database.db, {
      marketId: params.id,
      body,
      chainId: deps.config.chain.id,
      now: deps.clock.now(),
    });
    request.log.info({ marketId: params.id, address: event.actor }, 'market verdict flagged');
    return { status: 201, body: { event: toResolutionEventDto(event) } };
  });
}

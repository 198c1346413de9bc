import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../http/define-route.ts';
import { type AnalyzeMarketDeps, analyzeMarket } from './analyze-market.ts';

/** POST /api/markets/analyze (docs/api.md): never cached, limited per client address. */
export function registerMarketAnalyzeRoutes(app: FastifyInstance, deps: AnalyzeMarketDeps): void {
  defineRoute(app, ROUTES.analyzeMarket, async ({ body }, request) => ({
    status: 200,
    body: await analyzeMarket(deps, body, request.ip),
  }));
}

import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { escrowTargetOf } from '../escrow/escrow-target.ts';
import { defineRoute } from '../http/define-route.ts';
import { authorizeOperator } from '../operators/operator-auth.ts';
import { resolveMarketByOperator, voidMarketByOperator } from './operator-actions.ts';

/**
 * Resolve or void a market from the operator's page: the same signed shape as the oracle's
 * operator actions (EIP-712, docs/decisions/007), the same functions as the ops CLI.
 */
export function registerMarketOperatorRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config, clock } = deps;
  const db = deps.database.db;
  const operatorDeps = { db, clock, operators: config.operators, chainId: config.chain.id };
  const escrow = escrowTargetOf(config);

  defineRoute(app, ROUTES.resolveMarket, async ({ params, body }, request) => {
    const operator = await authorizeOperator(
      operatorDeps,
      { action: 'market.resolve', marketId: params.id, result: body.result, reason: body.reason },
      body,
    );
    const summary = await resolveMarketByOperator(db, {
      marketId: params.id,
      result: body.result,
      analysis: body.reason,
      feeBps: config.fees.marketBps,
      now: clock.now(),
      actor: operator,
      escrow,
    });
    deps.metrics.countResolution(summary.outcome);
    request.log.info({ operator, marketId: params.id, result: body.result }, 'operator resolved a market');
    return {
      status: 200,
      body: {
        action: 'resolve',
        marketId: params.id,
        result: summary.outcome,
        message: `Market #${params.id} settled ${summary.outcome}`,
      },
    };
  });

  defineRoute(app, ROUTES.voidMarket, async ({ params, body }, request) => {
    const operator = await authorizeOperator(
      operatorDeps,
      { action: 'market.void', marketId: params.id, result: 'VOID', reason: body.reason },
      body,
    );
    const summary = await voidMarketByOperator(db, {
      marketId: params.id,
      reason: body.reason,
      feeBps: config.fees.marketBps,
      now: clock.now(),
      actor: operator,
      escrow,
    });
    deps.metrics.countResolution(summary.outcome);
    request.log.info({ operator, marketId: params.id }, 'operator voided a market');
    return {
      status: 200,
      body: {
        action: 'void',
        marketId: params.id,
        result: summary.outcome,
        message: `Market #${params.id} voided: ${summary.refundedBets} bet(s) refunded`,
      },
    };
  });
}

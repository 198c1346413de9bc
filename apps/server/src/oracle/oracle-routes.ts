import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { authorizeOperator } from '../operators/operator-auth.ts';
import type { OracleService, RoundsForDisplay } from './oracle-service.ts';
import type { RoundEngine } from './round-engine.ts';

/** The oracle endpoints of docs/api.md: rounds and bets through the service, operator actions on the engine. */
export function registerOracleRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  oracle: { service: OracleService; engine: RoundEngine },
): void {
  const { database, clock, config } = deps;

  // The rows, not the answer, are cached: which round is current and serverTime follow the clock.
  const roundRows = app.responseCache.store<RoundsForDisplay>({ topics: ['rounds'], maxEntries: 1 });

  defineRoute(app, ROUTES.rounds, async (_input, request) => ({
    status: 200,
    body: await oracle.service.listRounds((load) => roundRows.read('rounds', load, request)),
  }));

  defineRoute(
    app,
    ROUTES.placeOracleBet,
    async ({ body }) => {
      const outcome = await oracle.service.placeBet(body);
      if (outcome.status === 'pending') {
        return { status: 202, body: { status: 'pending', txHash: outcome.txHash } };
      }
      return { status: 201, body: outcome.value };
    },
    { writesWallet: ({ body }) => body.userAddress },
  );

  const operatorDeps = { db: database.db, clock, operators: config.operators, chainId: config.chain.id };

  defineRoute(app, ROUTES.oracleGenesis, async ({ body }, request) => {
    const operator = await authorizeOperator(operatorDeps, { action: 'oracle.genesis' }, body);
    const report = await oracle.engine.genesis();
    request.log.info({ operator, created: report.created }, 'operator started the genesis round');
    return {
      status: 200,
      body: { action: 'genesis', epochs: report.created, message: 'Genesis round started' },
    };
  });

  defineRoute(app, ROUTES.oracleReset, async ({ body }, request) => {
    const operator = await authorizeOperator(operatorDeps, { action: 'oracle.reset' }, body);
    const report = await oracle.engine.reset();
    const epochs = report.ended.map((ended) => ended.epoch);
    request.log.info({ operator, cancelled: epochs }, 'operator reset the rounds');
    return {
      status: 200,
      body: {
        action: 'reset',
        epochs,
        message: `Rounds reset: ${epochs.length} open round(s) cancelled and refunded`,
      },
    };
  });
}

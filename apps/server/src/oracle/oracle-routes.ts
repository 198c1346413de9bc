import type { Round } from '@pm/core/contract/oracle';
import { ROUTES } from '@pm/core/contract/routes';
import { pickDisplayedRounds } from '@pm/core/rounds';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { authorizeOperator } from '../operators/operator-auth.ts';
import type { PaymentContext } from '../payments/accept-payment.ts';
import { listRoundsForDisplay } from './list-rounds-for-display.ts';
import { parseRoundStatus, toWireRound } from './oracle-rounds.ts';
import { placeOracleBet } from './place-oracle-bet.ts';
import type { RoundEngine } from './round-engine.ts';

export function registerOracleRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  oracle: { payments: PaymentContext; engine: RoundEngine },
): void {
  const { database, clock, config } = deps;
  const db = database.db;

  // Spec §7: the open rounds by start time and the latest ended ones (5 each), shown by the §4 rules.
  defineRoute(app, ROUTES.rounds, async () => {
    const now = clock.now();
    const { open, ended } = await listRoundsForDisplay(db);
    const candidates = [...open, ...ended].map((row) => ({
      epoch: row.epoch,
      status: parseRoundStatus(row.status),
      startTime: row.startTime.getTime() / 1000,
      wire: toWireRound(row),
    }));
    const shown = pickDisplayedRounds(candidates, now.getTime() / 1000);
    const wire = (round: { wire: Round } | null) => round?.wire ?? null;
    return {
      status: 200,
      body: {
        current: wire(shown.current),
        next: wire(shown.next),
        previous: wire(shown.previous),
        recent: ended.map(toWireRound),
        started: open.length > 0,
        serverTime: now.toISOString(),
      },
    };
  });

  defineRoute(app, ROUTES.placeOracleBet, async ({ body }) => {
    const outcome = await placeOracleBet(oracle.payments, body);
    if (outcome.status === 'pending') {
      return { status: 202, body: { status: 'pending', txHash: outcome.txHash } };
    }
    return { status: 201, body: outcome.value };
  });

  const operatorDeps = { db, clock, operators: config.operators, chainId: config.chain.id };

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

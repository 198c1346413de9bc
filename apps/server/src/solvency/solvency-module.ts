import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createLatestReserves } from './latest-reserves.ts';
import { createReservesJob } from './reserves-job.ts';
import { registerSolvencyRoutes } from './solvency-routes.ts';

/** Proof of reserves (issue 20): GET /api/solvency and the periodic check of the vault's reserves. */
export function createSolvencyModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
): { routes: AppFeature; jobs: Job[] } {
  // The job writes each reading here and the route serves the last one (security review 2, S1).
  const latest = createLatestReserves();
  return {
    routes: (app) => registerSolvencyRoutes(app, deps, latest),
    jobs: [
      createReservesJob({
        db: deps.database.db,
        chain: deps.chain,
        vaultAddress: deps.config.vault.address,
        logger,
        latest: { store: latest, clock: deps.clock },
        // Every reading feeds the gauges (bnbpredict_vault_balance_wei, bnbpredict_liabilities_wei),
        // then whoever else listens (tests).
        onReserves: (reading) => {
          deps.metrics.recordReserves(reading);
          deps.onReserves?.(reading);
        },
      }),
    ],
  };
}

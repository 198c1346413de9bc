import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createReservesJob } from './reserves-job.ts';
import { registerSolvencyRoutes } from './solvency-routes.ts';

/** Proof of reserves (issue 20): GET /api/solvency and the periodic check of the vault's reserves. */
export function createSolvencyModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
): { routes: AppFeature; jobs: Job[] } {
  return {
    routes: registerSolvencyRoutes,
    jobs: [
      createReservesJob({
        db: deps.database.db,
        chain: deps.chain,
        vaultAddress: deps.config.vault.address,
        logger,
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

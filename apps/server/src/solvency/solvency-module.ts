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
        onReserves: deps.onReserves,
      }),
    ],
  };
}

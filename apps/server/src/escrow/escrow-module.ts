import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createEscrowWatchJob } from './escrow-watch-job.ts';
import { registerVaultRoutes } from './vault-routes.ts';

/**
 * The escrow contract (issue 29, decisions 025 and 026): GET /api/vault, its public description, and,
 * once ESCROW_ADDRESS is set, the escrow-watch job that feeds the metrics' gauges.
 */
export function createEscrowModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
): { routes: AppFeature; jobs: Job[] } {
  const address = deps.config.escrow.address;
  return {
    routes: (app) => registerVaultRoutes(app, deps),
    jobs: address
      ? [
          createEscrowWatchJob({
            chain: deps.chain,
            address,
            logger,
            onLevels: (levels) => deps.metrics.recordEscrow(levels),
          }),
        ]
      : [],
  };
}

import type { FastifyBaseLogger } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createLatestReserves } from './latest-reserves.ts';
import { createReservesJob } from './reserves-job.ts';
import { registerSolvencyRoutes } from './solvency-routes.ts';

/**
 * Proof of reserves (docs/architecture.md "Proof of reserves"): GET /api/solvency, and the periodic
 * read of the escrow contract (balance, liabilities, bucket, pause, and the operator key's gas) that
 * feeds it and the metrics. Without ESCROW_ADDRESS there is nothing to read: the route answers
 * 503 RESERVES_NOT_CHECKED.
 */
export function createSolvencyModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
): { routes: AppFeature; jobs: Job[] } {
  // The job writes each reading here and the route serves the last one: no request calls the RPC.
  const latest = createLatestReserves();
  const routes: AppFeature = (app) => registerSolvencyRoutes(app, latest);
  const escrowAddress = deps.config.escrow.address;
  if (!escrowAddress) return { routes, jobs: [] };
  const operatorKey = deps.config.operator.privateKey;
  return {
    routes,
    jobs: [
      createReservesJob({
        chain: deps.chain,
        escrowAddress,
        operatorAddress: operatorKey ? privateKeyToAccount(operatorKey).address : null,
        logger,
        latest: { store: latest, clock: deps.clock },
        // Every reading feeds the gauges (bnbpredict_escrow_*, bnbpredict_reserves_covered,
        // bnbpredict_operator_balance_wei), then whoever else listens (tests).
        onReserves: (reading) => {
          deps.metrics.recordEscrow(reading.levels);
          deps.metrics.recordReserves({
            covered: reading.report.covered,
            operatorBalanceWei: reading.operatorBalanceWei,
          });
          deps.onReserves?.(reading);
        },
      }),
    ],
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Job } from '../jobs/job-runner.ts';
import type { LatestReserves } from './latest-reserves.ts';
import { type ReservesDeps, type ReservesReading, readReserves } from './read-reserves.ts';

export type OnReserves = (reading: ReservesReading) => void;

export type ReservesJobDeps = ReservesDeps & {
  logger: FastifyBaseLogger;
  onReserves?: OnReserves | undefined;
  /** Where GET /api/solvency finds the last reading, stamped with `clock`. */
  latest?: { store: LatestReserves; clock: Clock };
  intervalMs?: number;
};

/** How often the escrow's balance is checked against its liabilities. */
export const RESERVES_CHECK_INTERVAL_MS = 15_000;

/**
 * Reads the escrow contract at one block on every instance (read-only: safe to run everywhere at
 * once): its balance against its liabilities, its settlement bucket and pause, and the operator key's
 * gas balance. Hands each reading to `onReserves` (the metrics' gauges), logs an error with the figures
 * on every check while the contract's balance is below what it owes (the contract forbids it:
 * docs/operations.md alerts on it), and logs a pause when it is first seen, and its end. A failing RPC
 * is the job runner's to log; the next check comes anyway.
 */
export function createReservesJob(deps: ReservesJobDeps): Job {
  let wasPaused: boolean | undefined;
  return {
    name: 'reserves-check',
    intervalMs: deps.intervalMs ?? RESERVES_CHECK_INTERVAL_MS,
    async run() {
      const reading = await readReserves(deps);
      const { report, levels } = reading;
      deps.latest?.store.record({
        escrowAddress: deps.escrowAddress,
        report,
        readAt: deps.latest.clock.now(),
      });
      if (levels.paused !== wasPaused && (levels.paused || wasPaused !== undefined)) {
        const fields = { escrowAddress: levels.address, blockNumber: levels.blockNumber.toString() };
        if (levels.paused)
          deps.logger.warn(fields, 'the escrow contract is paused: deposits and settlements are refused');
        else deps.logger.info(fields, 'the escrow contract is unpaused');
      }
      wasPaused = levels.paused;
      if (!report.covered) {
        deps.logger.error(
          {
            escrowAddress: deps.escrowAddress,
            blockNumber: report.blockNumber.toString(),
            balanceWei: report.balanceWei.toString(),
            liabilitiesWei: report.liabilitiesWei.toString(),
            shortfallWei: report.shortfallWei.toString(),
            reserveRatioBps: report.reserveRatioBps?.toString() ?? null,
          },
          'ALERT: the escrow holds less than it owes (balance below liabilities)',
        );
      }
      try {
        deps.onReserves?.(reading);
      } catch (error) {
        // A watcher's bug must not stop the check (nor its error log above).
        deps.logger.error({ err: error }, 'the reserves callback failed');
      }
    },
  };
}

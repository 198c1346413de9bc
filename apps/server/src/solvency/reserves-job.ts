import { LIABILITY_PARTS } from '@pm/core/liabilities';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Job } from '../jobs/job-runner.ts';
import type { LatestReserves } from './latest-reserves.ts';
import { type ReservesDeps, readReserves } from './read-reserves.ts';

/** What each check reports to whoever watches the reserves (the metrics' gauges). */
export type ReservesReading = {
  blockNumber: bigint;
  vaultBalanceWei: bigint;
  liabilitiesWei: bigint;
  /** Core's verdict (reservesReport): balance ≥ liabilities, in bigint wei. */
  covered: boolean;
};
export type OnReserves = (reading: ReservesReading) => void;

export type ReservesJobDeps = ReservesDeps & {
  logger: FastifyBaseLogger;
  onReserves?: OnReserves | undefined;
  /** Where GET /api/solvency finds the last reading (security review 2, S1), stamped with `clock`. */
  latest?: { store: LatestReserves; clock: Clock };
  intervalMs?: number;
};

/** How often the vault's balance is checked against its liabilities. */
export const RESERVES_CHECK_INTERVAL_MS = 15_000;

/**
 * Checks the reserves on every instance (read-only: safe to run everywhere at once), hands each
 * reading to `onReserves`, and logs an error with the figures on every check while the vault's
 * balance is below what it owes (docs/operations.md alerts on it). A failing RPC or database is the
 * job runner's to log; the next check comes anyway.
 */
export function createReservesJob(deps: ReservesJobDeps): Job {
  return {
    name: 'reserves-check',
    intervalMs: deps.intervalMs ?? RESERVES_CHECK_INTERVAL_MS,
    async run() {
      const report = await readReserves(deps);
      deps.latest?.store.record({ report, readAt: deps.latest.clock.now() });
      if (!report.covered) {
        const { parts } = report.liabilities;
        deps.logger.error(
          {
            blockNumber: report.blockNumber.toString(),
            vaultBalanceWei: report.vaultBalanceWei.toString(),
            liabilitiesWei: report.liabilities.totalWei.toString(),
            shortfallWei: report.shortfallWei.toString(),
            reserveRatioBps: report.reserveRatioBps?.toString() ?? null,
            parts: Object.fromEntries(LIABILITY_PARTS.map((part) => [part, parts[part].toString()])),
          },
          'ALERT: the vault holds less than it owes (balance below liabilities)',
        );
      }
      try {
        deps.onReserves?.({
          blockNumber: report.blockNumber,
          vaultBalanceWei: report.vaultBalanceWei,
          liabilitiesWei: report.liabilities.totalWei,
          covered: report.covered,
        });
      } catch (error) {
        // A watcher's bug must not stop the check (nor its error log above).
        deps.logger.error({ err: error }, 'the reserves callback failed');
      }
    },
  };
}

import { ROUTES } from '@pm/core/contract/routes';
import type { SolvencyResponse } from '@pm/core/contract/solvency';
import type { ReservesReport } from '@pm/core/liabilities';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { AppError } from '../errors/app-error.ts';
import { defineRoute } from '../http/define-route.ts';
import type { LatestReserves } from './latest-reserves.ts';

/** The report on the wire: wei and the block as decimal strings (docs/api.md "Proof of reserves"). */
export function toSolvencyDto(
  report: ReservesReport,
  vaultAddress: string,
  checkedAt: Date,
): SolvencyResponse {
  const { parts } = report.liabilities;
  return {
    vaultAddress,
    blockNumber: report.blockNumber.toString(),
    vaultBalanceWei: report.vaultBalanceWei.toString(),
    liabilitiesWei: report.liabilities.totalWei.toString(),
    parts: {
      openMarketStakesWei: parts.openMarketStakesWei.toString(),
      openRoundStakesWei: parts.openRoundStakesWei.toString(),
      unclaimedMarketWei: parts.unclaimedMarketWei.toString(),
      unclaimedRoundWei: parts.unclaimedRoundWei.toString(),
      refundsOwedWei: parts.refundsOwedWei.toString(),
      flagBondsHeldWei: parts.flagBondsHeldWei.toString(),
      payoutsQueuedWei: parts.payoutsQueuedWei.toString(),
      unrecordedTransfersWei: parts.unrecordedTransfersWei.toString(),
    },
    reserveRatioBps: report.reserveRatioBps?.toString() ?? null,
    covered: report.covered,
    shortfallWei: report.shortfallWei.toString(),
    checkedAt: checkedAt.toISOString(),
  };
}

/**
 * GET /api/solvency: public proof of reserves, as the reserves job last read it (its block, its
 * figures, and `checkedAt`, when it read them). A request never computes (security review 2, S1:
 * each miss summed `bets` and made two RPC calls, and a query string or a `pm_fresh` cookie made
 * every request a miss); before the first reading of this instance it answers 503
 * RESERVES_NOT_CHECKED.
 */
export function registerSolvencyRoutes(app: FastifyInstance, deps: AppDeps, latest: LatestReserves): void {
  const { config } = deps;
  defineRoute(app, ROUTES.solvency, async () => {
    const reading = latest.read();
    if (!reading) throw new AppError('RESERVES_NOT_CHECKED');
    return { status: 200, body: toSolvencyDto(reading.report, config.vault.address, reading.readAt) };
  });
}

import { ROUTES } from '@pm/core/contract/routes';
import type { SolvencyResponse } from '@pm/core/contract/solvency';
import type { ReservesReport } from '@pm/core/reserves';
import type { FastifyInstance } from 'fastify';
import { getAddress } from 'viem';
import { AppError } from '../errors/app-error.ts';
import { defineRoute } from '../http/define-route.ts';
import type { LatestReserves } from './latest-reserves.ts';

/** The report on the wire: wei and the block as decimal strings (docs/api.md "Proof of reserves"). */
export function toSolvencyDto(
  report: ReservesReport,
  escrowAddress: string,
  checkedAt: Date,
): SolvencyResponse {
  return {
    escrowAddress: getAddress(escrowAddress),
    blockNumber: report.blockNumber.toString(),
    balanceWei: report.balanceWei.toString(),
    liabilitiesWei: report.liabilitiesWei.toString(),
    excessWei: report.excessWei.toString(),
    reserveRatioBps: report.reserveRatioBps?.toString() ?? null,
    covered: report.covered,
    shortfallWei: report.shortfallWei.toString(),
    checkedAt: checkedAt.toISOString(),
  };
}

/**
 * GET /api/solvency: public proof of reserves, as the reserves job last read the escrow contract (its
 * block, its figures, and `checkedAt`, when it read them). A request never computes or calls the
 * RPC; before the first reading of this instance it answers 503 RESERVES_NOT_CHECKED.
 */
export function registerSolvencyRoutes(app: FastifyInstance, latest: LatestReserves): void {
  defineRoute(app, ROUTES.solvency, async () => {
    const reading = latest.read();
    if (!reading) throw new AppError('RESERVES_NOT_CHECKED');
    return { status: 200, body: toSolvencyDto(reading.report, reading.escrowAddress, reading.readAt) };
  });
}

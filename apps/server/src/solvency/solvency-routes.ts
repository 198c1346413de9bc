import { ROUTES } from '@pm/core/contract/routes';
import type { SolvencyResponse } from '@pm/core/contract/solvency';
import type { ReservesReport } from '@pm/core/liabilities';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import type { SerializedResponse } from '../http/http-caching.ts';
import { readReserves } from './read-reserves.ts';

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
 * GET /api/solvency: public proof of reserves. Public data, so one answer is shared for the
 * response cache's short TTL (decision 017), dropped by any change of bets, rounds, payouts or the
 * vault; a faulty RPC answers 503 CHAIN_UNAVAILABLE.
 */
export function registerSolvencyRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config, database, chain, clock } = deps;
  const answers = app.responseCache.store<SerializedResponse>({
    topics: ['markets', 'bets', 'rounds', 'payouts', 'vault'],
    maxEntries: 1,
  });
  defineRoute(
    app,
    ROUTES.solvency,
    async () => {
      const report = await readReserves({ db: database.db, chain, vaultAddress: config.vault.address });
      return { status: 200, body: toSolvencyDto(report, config.vault.address, clock.now()) };
    },
    { cache: answers },
  );
}

import type { ReservesReport } from '@pm/core/reserves';

/** One reading of the reserves: the escrow read, its report (block, balance, liabilities) and when. */
export type ReservesSnapshot = { escrowAddress: string; report: ReservesReport; readAt: Date };

export type LatestReserves = ReturnType<typeof createLatestReserves>;

/**
 * The reserves job's last reading, which GET /api/solvency serves as it is:
 * a request never calls the RPC, whatever its URL or cookies, so the public endpoint costs nothing
 * to hammer. Per instance: each instance's job reads on its own interval.
 */
export function createLatestReserves() {
  let latest: ReservesSnapshot | undefined;
  return {
    record(snapshot: ReservesSnapshot): void {
      latest = snapshot;
    },
    /** Undefined until the first check of this instance has succeeded. */
    read(): ReservesSnapshot | undefined {
      return latest;
    },
  };
}

import type { DbOrTx } from '../db/client.ts';

/** A deposit into a market the server refused, still in the market's pool on chain. */
export type OpenRefusedDeposit = { stakeId: bigint; owner: string; amount: bigint };

/**
 * HOOK for the intake (branch rintake): the deposits into market `marketKey` the server refused (below
 * the minimum, after the lock, wrong terms, …) and has not refunded yet (`refundStake` not final). A
 * settlement must list each as a leaf paying its full amount back (decision 025: a refused deposit
 * still open at settlement is a leaf of the list at its amount), or `payoutTotal + fee` would not be
 * the pool. Until the intake's table is merged this answers none, and a pool holding such a deposit
 * does not match the server's records: the settlement waits (round-settlement-job.ts says so in its
 * error) rather than sweep that money into the fee. The lead replaces this body with a read of the
 * intake's table when merging.
 */
export async function listOpenRefusedDeposits(
  _db: DbOrTx,
  _marketKey: string,
): Promise<OpenRefusedDeposit[]> {
  return [];
}

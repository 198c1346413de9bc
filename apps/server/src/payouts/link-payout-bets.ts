import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { bets, oracleBets } from '../db/schema.ts';

/** Links the bets a payout pays to it, in the caller's transaction (a claim, or a re-issue). */
export async function linkPayoutBets(
  tx: DbOrTx,
  payoutId: number,
  items: { betIds: number[]; oracleBetIds: number[] },
): Promise<void> {
  if (items.betIds.length) {
    await tx.update(bets).set({ payoutId }).where(inArray(bets.id, items.betIds));
  }
  if (items.oracleBetIds.length) {
    await tx.update(oracleBets).set({ payoutId }).where(inArray(oracleBets.id, items.oracleBetIds));
  }
}

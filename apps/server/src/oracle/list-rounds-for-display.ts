import { ORACLE_RECENT_ROUNDS } from '@pm/core/constants';
import { asc, desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { oracleRounds } from '../db/schema.ts';

export type RoundRow = typeof oracleRounds.$inferSelect;

/**
 * Spec §7: the open rounds by start time and the latest ended ones (5 each). Each is one range of a
 * partial index (migration 0006); the filters are literal SQL so the planner can match them.
 */
export async function listRoundsForDisplay(db: DbOrTx): Promise<{ open: RoundRow[]; ended: RoundRow[] }> {
  const [open, ended] = await Promise.all([
    db
      .select()
      .from(oracleRounds)
      .where(sql`${oracleRounds.status} in ('upcoming', 'live', 'locked')`)
      .orderBy(asc(oracleRounds.startTime))
      .limit(ORACLE_RECENT_ROUNDS),
    db
      .select()
      .from(oracleRounds)
      .where(sql`${oracleRounds.status} = 'ended'`)
      .orderBy(desc(oracleRounds.epoch))
      .limit(ORACLE_RECENT_ROUNDS),
  ]);
  return { open, ended };
}

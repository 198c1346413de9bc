import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/query-rows.ts';
import { bets, escrowMarketFates, marketFlags, markets, oracleBets, payoutLists } from '../../db/schema.ts';
import { writeChainCursor } from '../deposits/escrow-deposits-repository.ts';

// Every read and write of escrow_market_fates (docs/architecture.md "Following the chain"): the
// queue of the escrow's own refunds of a market (`Vetoed`, `Escaped`) and whose market each names.

export type NewMarketFate = typeof escrowMarketFates.$inferInsert;

/** Queues the fates of a scanned range and moves the scan's cursor past it, in one transaction. */
export async function queueMarketFates(
  tx: DbOrTx,
  cursor: { name: string; blockNumber: bigint },
  fates: NewMarketFate[],
): Promise<void> {
  if (fates.length) await tx.insert(escrowMarketFates).values(fates).onConflictDoNothing();
  await writeChainCursor(tx, cursor);
}

const ClaimedFateSchema = z.object({
  id: z.number(),
  market_key: z.string(),
  fate: z.enum(['vetoed', 'escaped']),
  tx_hash: z.string(),
  block_number: z.coerce.bigint(),
  block_time: z.coerce.date(),
  stake_ids: z.array(z.string()),
  attempts: z.number(),
});
export type ClaimedMarketFate = z.infer<typeof ClaimedFateSchema>;

/**
 * Claims the next pending fate of this chain due at `now`, by pushing its next attempt out to
 * `leaseUntil` (FOR UPDATE SKIP LOCKED: safe on every instance). Oldest event first.
 */
export async function claimNextMarketFate(
  db: DbOrTx,
  input: { chainId: number; now: Date; leaseUntil: Date },
): Promise<ClaimedMarketFate | undefined> {
  const [row] = await queryRows(
    db,
    sql`update escrow_market_fates set next_attempt_at = ${input.leaseUntil}, attempts = attempts + 1
        where id = (select id from escrow_market_fates
                    where status = 'pending' and chain_id = ${input.chainId}
                      and next_attempt_at <= ${input.now}
                    order by block_number, log_index limit 1 for update skip locked)
        returning id, market_key, fate, tx_hash, block_number, block_time, stake_ids, attempts`,
    ClaimedFateSchema,
  );
  return row;
}

/** The fate is done: applied (its market or round shows refunded), or unknown (no market of ours). */
export async function endMarketFate(
  db: DbOrTx,
  id: number,
  status: 'applied' | 'unknown',
  note: string | null = null,
): Promise<void> {
  await db
    .update(escrowMarketFates)
    .set({ status, lastError: note, appliedAt: sql`now()` })
    .where(and(eq(escrowMarketFates.id, id), eq(escrowMarketFates.status, 'pending')));
}

/** Why applying it failed; it is tried again at `nextAttemptAt`. */
export async function retryMarketFateAt(
  db: DbOrTx,
  id: number,
  nextAttemptAt: Date,
  lastError: string,
): Promise<void> {
  await db
    .update(escrowMarketFates)
    .set({ lastError: lastError.slice(0, 500), nextAttemptAt })
    .where(eq(escrowMarketFates.id, id));
}

/** Whose market a fate names: a Predictions market or an oracle round. */
export type MarketFateOwner = { kind: 'market'; marketId: number } | { kind: 'round'; epoch: number };

/**
 * The market or round whose escrow key this is: its settlement's row names it; else a market's own
 * key does; else (an escape of a round never settled) a stake the event's transaction refunded,
 * a bet, a round bet or a bond of it. Null: the key is none of ours (deposits the server refused only).
 */
export async function findMarketFateOwner(
  db: DbOrTx,
  input: { marketKey: string; stakeIds: readonly string[] },
): Promise<MarketFateOwner | null> {
  const key = input.marketKey.toLowerCase();
  const [list] = await db
    .select({ epoch: payoutLists.epoch, marketId: payoutLists.predictionMarketId })
    .from(payoutLists)
    .where(eq(payoutLists.marketKey, key));
  if (list?.marketId != null) return { kind: 'market', marketId: list.marketId };
  if (list?.epoch != null) return { kind: 'round', epoch: list.epoch };
  const [market] = await db.select({ id: markets.id }).from(markets).where(eq(markets.escrowKey, key));
  if (market) return { kind: 'market', marketId: market.id };
  if (input.stakeIds.length === 0) return null;
  const ids = input.stakeIds.map((id) => BigInt(id));
  const [round] = await db
    .select({ epoch: oracleBets.epoch })
    .from(oracleBets)
    .where(and(isNotNull(oracleBets.stakeId), inArray(oracleBets.stakeId, ids)))
    .limit(1);
  if (round) return { kind: 'round', epoch: round.epoch };
  const [bet] = await db
    .select({ marketId: bets.marketId })
    .from(bets)
    .where(inArray(bets.stakeId, ids))
    .limit(1);
  if (bet) return { kind: 'market', marketId: bet.marketId };
  const [flag] = await db
    .select({ marketId: marketFlags.marketId })
    .from(marketFlags)
    .where(inArray(marketFlags.stakeId, ids))
    .limit(1);
  return flag ? { kind: 'market', marketId: flag.marketId } : null;
}

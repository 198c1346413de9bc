import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { marketFlags, markets, payoutLists } from '../../db/schema.ts';

// Decision 026, "Flag bonds": a dispute deposit sends a market's pending settlement back on chain (the
// market is open again, past its close). A dispute the server accepts is a flag the operator reviews,
// whose decision settles the market anew. A dispute the server refuses (a second flag, a non-bettor, a
// late one, a dispute deposit nobody posted) is refunded by `refundStake`, and the market must not stay
// unsettled: its settlement is queued again, the same verdict. The escrow settlement job posts a
// market still in review with what is left of its window (at least the contract's minimum), so a
// refused dispute never shortens the window of other bettors; a market already settled here, with the
// contract's minimum delay.

export type DisputeRequeue =
  /** The settlement is due again (the escrow settlement job posts it once the refund is through). */
  | 'queued'
  /** An accepted flag holds the market: the operator's decision settles it. */
  | 'held'
  /** No market under this key, or no settlement of it on record: nothing to queue. */
  | 'none';

/**
 * After a refused dispute of the market under `marketKey`: its payout list (the settlement posted at
 * proposal time) is due again with the same outcome and verdict hash (`payout_delay_s` null: the job
 * reads the delay from the market, above), unless an accepted flag (a bond with a stake still held)
 * holds the market for the operator. A new attempt, so the operator's `settle` is a new
 * action. Idempotent: a row already due only loses its delay.
 */
export async function queueSettlementAfterRefusedDispute(
  db: DbOrTx,
  input: { marketKey: string; now: Date },
): Promise<DisputeRequeue> {
  const [market] = await db
    .select({ id: markets.id })
    .from(markets)
    .where(eq(markets.escrowKey, input.marketKey.toLowerCase()));
  if (!market) return 'none';
  const [held] = await db
    .select({ id: marketFlags.id })
    .from(marketFlags)
    .where(
      and(
        eq(marketFlags.marketId, market.id),
        isNotNull(marketFlags.stakeId),
        eq(marketFlags.bondStatus, 'held'),
      ),
    )
    .limit(1);
  if (held) return 'held';
  const again = await db
    .update(payoutLists)
    .set({
      status: 'due',
      payoutDelayS: null,
      attempts: sql`${payoutLists.attempts} + 1`,
      nextAttemptAt: input.now,
      lastError: 'a dispute the server refused sent the settlement back: posted again, same verdict',
      // The disputed settlement's payouts never open: nothing of it is claimable.
      settledBlock: null,
      settledAt: null,
      claimableAt: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(payoutLists.predictionMarketId, market.id),
        inArray(payoutLists.status, ['published', 'settled']),
      ),
    )
    .returning({ id: payoutLists.id });
  if (again.length > 0) return 'queued';
  const due = await db
    .update(payoutLists)
    .set({ payoutDelayS: null, updatedAt: sql`now()` })
    .where(and(eq(payoutLists.predictionMarketId, market.id), eq(payoutLists.status, 'due')))
    .returning({ id: payoutLists.id });
  return due.length > 0 ? 'queued' : 'none';
}

/**
 * An accepted flag holds the market for the operator: the settlement its dispute sent back on chain
 * never opens, so its payout list must not look claimable. The row goes back to due with no time of
 * its own (the operator's decision, settleMarket, makes the settlement due with its verdict: the
 * settlement job's part), its claimable time cleared. A market with no list on record is left alone.
 */
export async function holdSettlementForOperator(
  db: DbOrTx,
  input: { marketId: number; now: Date },
): Promise<boolean> {
  const held = await db
    .update(payoutLists)
    .set({
      status: 'due',
      attempts: sql`${payoutLists.attempts} + 1`,
      nextAttemptAt: OPERATOR_DECIDES,
      lastError: 'disputed by an accepted flag: waits for the operator’s decision',
      settledBlock: null,
      settledAt: null,
      claimableAt: null,
      updatedAt: input.now,
    })
    .where(
      and(
        eq(payoutLists.predictionMarketId, input.marketId),
        inArray(payoutLists.status, ['due', 'published', 'settled']),
      ),
    )
    .returning({ id: payoutLists.id });
  return held.length > 0;
}

/** A due time no job reaches: the operator's decision sets the real one. */
export const OPERATOR_DECIDES = new Date('9999-12-31T00:00:00.000Z');

import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { bets, oracleBets, payments, payouts } from '../db/schema.ts';
import type { PayoutMetrics } from '../metrics/metrics.ts';
import { publish } from '../realtime/publish.ts';
import type { PayoutRow } from './payout-processor-deps.ts';

const OPEN = ['created', 'signed', 'broadcast'];

/**
 * The transfer can never succeed (its gas estimate or its mined receipt reverted: the recipient's
 * code refuses it). The payout ends `failed` with the reason, and what it paid for is released: bets
 * are claimable again, refunds are held for an operator. Safe: either no nonce was ever signed, or
 * the nonce was used by the reverted transaction itself, so nothing of this payout can mine any more.
 * The released ids are kept on the row for `payouts:reissue`.
 */
export async function failPayout(
  db: Db,
  payout: PayoutRow,
  reason: string,
  metrics?: PayoutMetrics,
): Promise<PayoutRow> {
  const { row, failedNow } = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payouts).where(eq(payouts.id, payout.id)).for('update');
    if (!locked || !OPEN.includes(locked.status)) return { row: locked ?? payout, failedNow: false };
    const releasedBets = await tx
      .update(bets)
      .set({ payoutId: null })
      .where(eq(bets.payoutId, payout.id))
      .returning({ id: bets.id });
    const releasedRounds = await tx
      .update(oracleBets)
      .set({ payoutId: null })
      .where(eq(oracleBets.payoutId, payout.id))
      .returning({ id: oracleBets.id });
    const releasedPayments = await tx
      .update(payments)
      .set({ status: 'refund_held', refundPayoutId: null, refundLastError: reason })
      .where(eq(payments.refundPayoutId, payout.id))
      .returning({ id: payments.id });
    const [failed] = await tx
      .update(payouts)
      .set({
        status: 'failed',
        lastError: reason,
        failedAt: sql`now()`,
        updatedAt: sql`now()`,
        released: {
          bets: releasedBets.map((row) => row.id),
          oracleBets: releasedRounds.map((row) => row.id),
          payments: releasedPayments.map((row) => row.id),
        },
      })
      .where(eq(payouts.id, payout.id))
      .returning();
    if (!failed) throw new Error(`payout ${payout.id} vanished`);
    await publish(tx, { topic: 'payouts', address: failed.toAddress });
    return { row: failed, failedNow: true };
  });
  if (failedNow) metrics?.countPayout('failed');
  return row;
}

/**
 * The payout's nonce was used on chain by a transaction that is not one of its own (a foreign use
 * of the vault key, or our 0-value self-transfer that freed the nonce). None of its hashes can mine
 * any more, so it goes back to `created` and is signed again at a fresh nonce.
 */
export async function requeuePayout(
  db: Db,
  payout: PayoutRow,
  reason: string,
  metrics?: PayoutMetrics,
): Promise<PayoutRow> {
  const [requeued] = await db
    .update(payouts)
    .set({
      status: 'created',
      nonce: null,
      rawTx: null,
      txHash: null,
      cancelRawTx: null,
      cancelTxHash: null,
      broadcastAt: null,
      lastError: reason,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(payouts.id, payout.id),
        inArray(payouts.status, ['signed', 'broadcast']),
        payout.nonce === null ? sql`false` : eq(payouts.nonce, payout.nonce),
      ),
    )
    .returning();
  if (requeued) metrics?.countPayout('created');
  return requeued ?? payout;
}

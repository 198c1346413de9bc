import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client.ts';
import { payments } from '../db/schema.ts';

// The refund side of a payment (docs/architecture.md: every payment ends as a bet or a refund):
// `refund_due` until a refund payout takes it, `refund_held` for an operator, `refunded` once paid.
// Each function takes the pool or the caller's transaction.

export type PaymentRow = typeof payments.$inferSelect;

/** Refunds due and in no payout whose next try has come, oldest first. */
export async function listDueRefundIds(db: DbOrTx, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'refund_due'),
        isNull(payments.refundPayoutId),
        // A stake on the escrow (a bond, a refused deposit) is the contract's to give back, never the vault's.
        isNull(payments.stakeId),
        or(isNull(payments.refundNextAttemptAt), lte(payments.refundNextAttemptAt, sql`now()`)),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function findPayment(db: DbOrTx, id: number): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

/**
 * The payment, if it is still a refund in this state and in no payout, locked for the caller's
 * transaction; `skipLocked`: undefined when another instance holds it (the payouts job).
 */
export async function lockRefund(
  tx: Tx,
  id: number,
  status: 'refund_due' | 'refund_held',
  options: { skipLocked?: boolean } = {},
): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.status, status), isNull(payments.refundPayoutId)))
    .for('update', options.skipLocked ? { skipLocked: true } : {});
  return row;
}

/** Every held refund in no payout, oldest first (ops payouts:status). */
export async function listHeldRefunds(db: DbOrTx): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'refund_held'), isNull(payments.refundPayoutId), isNull(payments.stakeId)))
    .orderBy(asc(payments.id));
}

/** A refund step failed: one more attempt, the error, and the next try 30 s, 1 min, 2 min … at most an hour later. */
export async function recordRefundFailure(db: DbOrTx, id: number, message: string): Promise<void> {
  await db
    .update(payments)
    .set({
      refundAttempts: sql`${payments.refundAttempts} + 1`,
      refundLastError: message,
      refundNextAttemptAt: sql`now() + least(interval '30 seconds' * power(2, ${payments.refundAttempts}), interval '1 hour')`,
    })
    .where(eq(payments.id, id));
}

/** Holds a refund for an operator, with why. */
export async function holdRefund(tx: DbOrTx, id: number, reason: string): Promise<void> {
  await tx
    .update(payments)
    .set({ status: 'refund_held', refundLastError: reason })
    .where(eq(payments.id, id));
}

/** Links refunds to the payout that pays them: due again, errors cleared. */
export async function linkRefundPayout(tx: DbOrTx, paymentIds: number[], payoutId: number): Promise<void> {
  if (!paymentIds.length) return;
  await tx
    .update(payments)
    .set({ status: 'refund_due', refundPayoutId: payoutId, refundLastError: null })
    .where(inArray(payments.id, paymentIds));
}

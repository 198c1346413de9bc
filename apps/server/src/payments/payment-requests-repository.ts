import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { paymentRequests } from '../db/schema.ts';

// Requests whose payment was valid but not final yet (a 202), kept until the pending-payments job
// records them (escrow reconciliation may record the deposit first, from its event) (docs/architecture.md "Payment verification"). Each
// function takes the pool or the caller's transaction.

export type PaymentRequestRow = typeof paymentRequests.$inferSelect;

/** How many requests of this sender still wait for their payment. */
export async function countOpenPaymentRequests(db: DbOrTx, fromAddress: string): Promise<number> {
  const [open] = await db
    .select({ n: count() })
    .from(paymentRequests)
    .where(and(eq(paymentRequests.fromAddress, fromAddress), isNull(paymentRequests.resolvedAt)));
  return open?.n ?? 0;
}

/** Keeps a request; false when one with this hash is kept already. */
export async function insertPaymentRequest(
  db: DbOrTx,
  values: Pick<
    typeof paymentRequests.$inferInsert,
    'chainId' | 'txHash' | 'fromAddress' | 'purpose' | 'request' | 'createdAt' | 'nextAttemptAt'
  >,
): Promise<boolean> {
  const kept = await db
    .insert(paymentRequests)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: paymentRequests.id });
  return kept.length > 0;
}

/** The request kept for this payment, if any. */
export async function findPaymentRequest(
  db: DbOrTx,
  chainId: number,
  txHash: string,
): Promise<Pick<PaymentRequestRow, 'purpose' | 'request'> | undefined> {
  const [stored] = await db
    .select({ purpose: paymentRequests.purpose, request: paymentRequests.request })
    .from(paymentRequests)
    .where(and(eq(paymentRequests.chainId, chainId), eq(paymentRequests.txHash, txHash)))
    .limit(1);
  return stored;
}

/** Every request still waiting, oldest first (ops payments:status). */
export async function listOpenPaymentRequests(db: DbOrTx): Promise<PaymentRequestRow[]> {
  return db
    .select()
    .from(paymentRequests)
    .where(isNull(paymentRequests.resolvedAt))
    .orderBy(paymentRequests.id);
}

/** Ends the request for this payment (database time), with the refusal if there was one. */
export async function resolvePaymentRequest(
  db: DbOrTx,
  chainId: number,
  txHash: string,
  error: string | null,
): Promise<void> {
  await db
    .update(paymentRequests)
    .set({ resolvedAt: sql`now()`, lastError: error })
    .where(and(eq(paymentRequests.chainId, chainId), eq(paymentRequests.txHash, txHash)));
}

/** Ends a request the job claimed, at `resolvedAt`, unless it was ended meanwhile. */
export async function resolvePaymentRequestById(
  db: DbOrTx,
  id: number,
  resolvedAt: Date,
  lastError: string | null,
): Promise<void> {
  await db
    .update(paymentRequests)
    .set({ resolvedAt, lastError })
    .where(and(eq(paymentRequests.id, id), isNull(paymentRequests.resolvedAt)));
}

export async function retryPaymentRequestAt(
  db: DbOrTx,
  id: number,
  nextAttemptAt: Date,
  lastError: string,
): Promise<void> {
  await db.update(paymentRequests).set({ lastError, nextAttemptAt }).where(eq(paymentRequests.id, id));
}

const ClaimedRequestSchema = z.object({
  id: z.number(),
  chain_id: z.number(),
  purpose: z.enum(['market_create', 'market_bet', 'oracle_bet', 'market_flag']),
  request: z.record(z.string(), z.unknown()),
  attempts: z.number(),
  tx_hash: z.string(),
  created_at: z.coerce.date(),
});
export type ClaimedPaymentRequest = z.infer<typeof ClaimedRequestSchema>;

/**
 * Claims the next request due at `now` by pushing its next attempt out to `leaseUntil` (a lease),
 * in one statement with FOR UPDATE SKIP LOCKED: safe on every instance.
 */
export async function claimNextPaymentRequest(
  db: DbOrTx,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedPaymentRequest | undefined> {
  const [row] = await queryRows(
    db,
    sql`update payment_requests set next_attempt_at = ${leaseUntil}, attempts = attempts + 1
        where id = (select id from payment_requests
                    where resolved_at is null and next_attempt_at <= ${now}
                    order by next_attempt_at limit 1 for update skip locked)
        returning id, chain_id, purpose, request, attempts, tx_hash, created_at`,
    ClaimedRequestSchema,
  );
  return row;
}

import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { paymentRequests } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import type { Job } from '../jobs/job-runner.ts';
import type { PaymentPurpose } from './payments-repository.ts';

/** Replays one stored request through its endpoint's own logic (acceptPayment resolves the row). */
export type PendingPaymentHandler = (request: Record<string, unknown>) => Promise<'recorded' | 'pending'>;

const LEASE_S = 60;

const ClaimedSchema = z.object({
  id: z.number(),
  purpose: z.enum(['market_create', 'market_bet', 'oracle_bet']),
  request: z.record(z.string(), z.unknown()),
  attempts: z.number(),
  tx_hash: z.string(),
});

/**
 * Records payments that were valid but not final when their request came (202), so a closed tab
 * never loses a bet. A row is claimed by pushing its next attempt out (a lease) in one statement
 * with FOR UPDATE SKIP LOCKED, then processed outside any transaction: safe on every instance.
 */
export function createPendingPaymentsJob(deps: {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  handlers: Partial<Record<PaymentPurpose, PendingPaymentHandler>>;
}): Job {
  const claimNext = async () => {
    const now = deps.clock.now();
    const leaseUntil = new Date(now.getTime() + LEASE_S * 1000);
    const [row] = await queryRows(
      deps.db,
      sql`update payment_requests set next_attempt_at = ${leaseUntil}, attempts = attempts + 1
          where id = (select id from payment_requests
                      where resolved_at is null and next_attempt_at <= ${now}
                      order by next_attempt_at limit 1 for update skip locked)
          returning id, purpose, request, attempts, tx_hash`,
      ClaimedSchema,
    );
    return row;
  };

  return {
    name: 'pending-payments',
    intervalMs: 2_000,
    async run() {
      for (let row = await claimNext(); row; row = await claimNext()) {
        const handler = deps.handlers[row.purpose];
        if (!handler) continue;
        try {
          const outcome = await handler(row.request);
          if (outcome === 'pending') await retryLater(row.id, row.attempts, 'pending');
        } catch (error) {
          // A refusal (AppError) already stored the payment as a refund and resolved the row.
          if (error instanceof AppError) continue;
          deps.logger.error({ err: error, txHash: row.tx_hash }, 'recording a pending payment failed');
          await retryLater(row.id, row.attempts, 'error');
        }
      }
    },
  };

  async function retryLater(id: number, attempts: number, reason: string) {
    const backoffS = Math.min(300, 2 ** Math.min(attempts, 8));
    await deps.db
      .update(paymentRequests)
      .set({ lastError: reason, nextAttemptAt: new Date(deps.clock.now().getTime() + backoffS * 1000) })
      .where(eq(paymentRequests.id, id));
  }
}

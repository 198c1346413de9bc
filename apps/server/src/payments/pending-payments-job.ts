import { DEFAULT_PENDING_PAYMENT_EXPIRY_S } from '@pm/core/constants';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { describeError } from '../errors/describe-error.ts';
import { isTransientError } from '../errors/transient-error.ts';
import type { PaymentPurpose } from '../escrow/deposits/verified-payment.ts';
import type { Job } from '../jobs/job-runner.ts';
import {
  type ClaimedPaymentRequest,
  claimNextPaymentRequest,
  resolvePaymentRequestById,
  retryPaymentRequestAt,
} from './payment-requests-repository.ts';
import { isPaymentKnown } from './payments-repository.ts';

/** Replays one stored request through its endpoint's own logic (acceptPayment resolves the row). */
export type PendingPaymentHandler = (request: Record<string, unknown>) => Promise<'recorded' | 'pending'>;

const LEASE_S = 60;

/**
 * Records payments that were valid but not final when their request came (202), so a closed tab
 * never loses a bet. A row is claimed by pushing its next attempt out (a lease) in one statement
 * with FOR UPDATE SKIP LOCKED, then processed outside any transaction: safe on every instance.
 *
 * Every row ends, so unmined transactions cannot fill the job: recorded or refunded (acceptPayment
 * resolves it), reverted (TX_FAILED), or forgotten once its transaction has not mined for `expiryS` —
 * if it mines later, escrow reconciliation still finds its deposit on chain (a bet from its event; a
 * creation, whose terms only its request holds, given back after its grace). A passing fault is
 * retried with backoff and never ends a row.
 */
export function createPendingPaymentsJob(deps: {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  handlers: Partial<Record<PaymentPurpose, PendingPaymentHandler>>;
  /** How long a request whose transaction is not mined and final is kept (PENDING_PAYMENT_EXPIRY_S). */
  expiryS?: number;
  /** Rows processed per run, so one run stays short. */
  maxRows?: number;
}): Job {
  const claimNext = async () => {
    const now = deps.clock.now();
    const leaseUntil = new Date(now.getTime() + LEASE_S * 1000);
    return claimNextPaymentRequest(deps.db, now, leaseUntil);
  };

  return {
    name: 'pending-payments',
    intervalMs: 2_000,
    async run() {
      for (let n = 0; n < (deps.maxRows ?? 50); n++) {
        const row = await claimNext();
        if (!row) break;
        try {
          await replay(row);
        } catch (error) {
          deps.logger.warn({ err: error, txHash: row.tx_hash }, 'a pending payment is retried later');
          await retryLater(row, describeError(error)).catch(() => {});
        }
      }
    },
  };

  async function replay(row: ClaimedPaymentRequest) {
    const handler = deps.handlers[row.purpose];
    if (!handler) return retryLater(row, `no handler for ${row.purpose}`);
    let outcome: 'recorded' | 'pending' | 'failed' = 'failed';
    let failure: unknown = null;
    try {
      outcome = await handler(row.request);
    } catch (error) {
      failure = error;
    }
    if (outcome === 'recorded' || (await isPaymentKnown(deps.db, row.chain_id, row.tx_hash))) {
      // Recorded, or refused and kept as a refund: acceptPayment resolved the row already.
      return resolve(row, null, failure instanceof AppError ? failure.code : null);
    }
    if (failure && isTransientError(failure)) return retryLater(row, describeError(failure));
    if (failure instanceof AppError && failure.code === 'TX_FAILED') return resolve(row, 'TX_FAILED');
    const ageS = (deps.clock.now().getTime() - row.created_at.getTime()) / 1000;
    if (ageS >= (deps.expiryS ?? DEFAULT_PENDING_PAYMENT_EXPIRY_S)) {
      deps.logger.info({ txHash: row.tx_hash, ageS }, 'a payment that never confirmed is forgotten');
      return resolve(row, 'EXPIRED');
    }
    if (failure && !(failure instanceof AppError)) {
      deps.logger.error({ err: failure, txHash: row.tx_hash }, 'recording a pending payment failed');
    }
    // Not mined yet, not found (dropped, or not propagated), or refused before any payment existed.
    return retryLater(row, failure ? describeError(failure) : 'pending');
  }

  async function resolve(row: ClaimedPaymentRequest, error: string | null, refusal: string | null = null) {
    await resolvePaymentRequestById(deps.db, row.id, deps.clock.now(), error ?? refusal);
  }

  async function retryLater(row: ClaimedPaymentRequest, reason: string) {
    const backoffS = Math.min(300, 2 ** Math.min(row.attempts, 8));
    await retryPaymentRequestAt(
      deps.db,
      row.id,
      new Date(deps.clock.now().getTime() + backoffS * 1000),
      reason,
    );
  }
}

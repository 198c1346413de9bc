import { payoutGasLimit, refundHoldReason } from '@pm/core/vault-transfers';
import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { isAddress } from 'viem';
import { payments, payouts } from '../db/schema.ts';
import { describeError } from '../errors/describe-error.ts';
import type { Job } from '../jobs/job-runner.ts';
import { owedBackWei } from '../payments/payments-repository.ts';
import { cappedMarketFees, isExecutionReverted } from './payout-chain.ts';
import { advanceOpenPayouts } from './payout-processor.ts';
import type { PayoutProcessorDeps } from './payout-processor-deps.ts';

export type PayoutsJobDeps = PayoutProcessorDeps & {
  chainId: number;
  /** Refunds below this are held for an operator (REFUND_MIN_WEI). */
  refundMinWei: bigint;
};

/**
 * Keeps every payout moving: refunds owed for payments that never became bets get a payout row
 * (or are held), then every open payout is advanced (signed, sent, replaced when stuck, confirmed
 * when final). The second step runs whatever became of the first. Safe on several instances: nonces
 * are assigned under one advisory lock, and each step locks its row.
 */
export function createPayoutsJob(deps: PayoutsJobDeps): Job {
  return {
    name: 'payouts',
    intervalMs: 3_000,
    async run() {
      try {
        await createRefundPayouts(deps);
      } catch (error) {
        // Only an outage gets here (one row's failure is stored on that row): payouts still move.
        deps.log?.error({ err: error }, 'refund step failed; open payouts are advanced anyway');
      }
      await advanceOpenPayouts(deps);
    },
  };
}

type RefundStepSummary = { created: number; held: number; failed: number };

/**
 * One refund payout per payment owed back to its sender (docs/architecture.md: every payment ends as a bet or a
 * refund), one payment at a time. A refund that would return no more than its gas, or less than
 * REFUND_MIN_WEI, or that cannot be delivered, is held for an operator (`refund_held`). A payment
 * whose step fails gets the error, an attempt and a later next try on its own row; the job moves on.
 */
async function createRefundPayouts(deps: PayoutsJobDeps): Promise<RefundStepSummary> {
  const summary: RefundStepSummary = { created: 0, held: 0, failed: 0 };
  const due = await deps.db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'refund_due'),
        isNull(payments.refundPayoutId),
        or(isNull(payments.refundNextAttemptAt), lte(payments.refundNextAttemptAt, sql`now()`)),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(50);
  if (!due.length) return summary;
  const fees = await cappedMarketFees(deps.chain, deps.maxFeePerGas);
  for (const { id } of due) {
    try {
      const outcome = await refundOne(deps, id, fees.maxFeePerGas);
      if (outcome === 'created') {
        summary.created += 1;
        deps.metrics?.countPayout('created');
      }
      if (outcome === 'held') summary.held += 1;
    } catch (error) {
      summary.failed += 1;
      deps.log?.error({ err: error, paymentId: id }, 'refund failed; retried later');
      await deps.db
        .update(payments)
        .set({
          refundAttempts: sql`${payments.refundAttempts} + 1`,
          refundLastError: describeError(error),
          // 30 s, 1 min, 2 min … at most an hour between tries.
          refundNextAttemptAt: sql`now() + least(interval '30 seconds' * power(2, ${payments.refundAttempts}), interval '1 hour')`,
        })
        .where(eq(payments.id, id));
    }
  }
  return summary;
}

async function refundOne(
  deps: PayoutsJobDeps,
  paymentId: number,
  maxFeePerGas: bigint,
): Promise<'created' | 'held' | 'skipped'> {
  const [payment] = await deps.db.select().from(payments).where(eq(payments.id, paymentId));
  if (payment?.status !== 'refund_due' || payment.refundPayoutId !== null) return 'skipped';
  const to = payment.fromAddress;
  if (!isAddress(to, { strict: false })) throw new Error(`the payer ${JSON.stringify(to)} is not an address`);

  const owedWei = owedBackWei(payment);
  let holdReason: string | null = null;
  if (owedWei <= 0n) {
    holdReason = refundHoldReason({ amountWei: owedWei, gasCostWei: 0n, minWei: deps.refundMinWei });
  } else {
    try {
      const estimate = await deps.chain.estimateGas({
        account: deps.signer.address,
        to,
        value: owedWei,
      });
      holdReason = refundHoldReason({
        amountWei: owedWei,
        gasCostWei: payoutGasLimit(estimate) * maxFeePerGas,
        minWei: deps.refundMinWei,
      });
    } catch (error) {
      if (!isExecutionReverted(error)) throw error;
      holdReason = `a transfer to ${to} reverts (${describeError(error)})`;
    }
  }

  return deps.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(payments)
      .where(
        and(eq(payments.id, paymentId), eq(payments.status, 'refund_due'), isNull(payments.refundPayoutId)),
      )
      .for('update', { skipLocked: true });
    if (!locked) return 'skipped';
    if (holdReason) {
      await tx
        .update(payments)
        .set({ status: 'refund_held', refundLastError: holdReason })
        .where(eq(payments.id, paymentId));
      deps.log?.warn({ paymentId, reason: holdReason }, 'refund held for an operator');
      return 'held';
    }
    const [payout] = await tx
      .insert(payouts)
      .values({
        chainId: deps.chainId,
        fromAddress: deps.signer.address,
        toAddress: to.toLowerCase(),
        amount: owedBackWei(locked),
        nonce: null,
        kind: 'refund',
      })
      .returning({ id: payouts.id });
    if (!payout) throw new Error('refund payout insert returned nothing');
    await tx
      .update(payments)
      .set({ refundPayoutId: payout.id, refundLastError: null })
      .where(eq(payments.id, paymentId));
    return 'created';
  });
}

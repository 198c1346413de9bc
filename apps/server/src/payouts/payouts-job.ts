import { payoutGasLimit, refundHoldReason } from '@pm/core/vault-transfers';
import { isAddress } from 'viem';
import { describeError } from '../errors/describe-error.ts';
import type { Job } from '../jobs/job-runner.ts';
import { owedBackWei } from '../payments/payments-repository.ts';
import { cappedMarketFees, isExecutionReverted } from './payout-chain.ts';
import { advanceOpenPayouts } from './payout-processor.ts';
import type { PayoutProcessorDeps } from './payout-processor-deps.ts';
import { insertPayout } from './payouts-repository.ts';
import {
  findPayment,
  holdRefund,
  linkRefundPayout,
  listDueRefundIds,
  lockRefund,
  recordRefundFailure,
} from './refunds-repository.ts';

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
  const due = await listDueRefundIds(deps.db, 50);
  if (!due.length) return summary;
  const fees = await cappedMarketFees(deps.chain, deps.maxFeePerGas);
  for (const id of due) {
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
      await recordRefundFailure(deps.db, id, describeError(error));
    }
  }
  return summary;
}

async function refundOne(
  deps: PayoutsJobDeps,
  paymentId: number,
  maxFeePerGas: bigint,
): Promise<'created' | 'held' | 'skipped'> {
  const payment = await findPayment(deps.db, paymentId);
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
    const locked = await lockRefund(tx, paymentId, 'refund_due', { skipLocked: true });
    if (!locked) return 'skipped';
    if (holdReason) {
      await holdRefund(tx, paymentId, holdReason);
      deps.log?.warn({ paymentId, reason: holdReason }, 'refund held for an operator');
      return 'held';
    }
    const payout = await insertPayout(tx, {
      chainId: deps.chainId,
      fromAddress: deps.signer.address,
      toAddress: to.toLowerCase(),
      amount: owedBackWei(locked),
      kind: 'refund',
    });
    await linkRefundPayout(tx, [paymentId], payout.id);
    return 'created';
  });
}

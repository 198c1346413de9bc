import { MAX_PENDING_PAYMENTS_PER_SENDER } from '@pm/core/constants';
import { intentText, isSameClaim } from '@pm/core/intent';
import type { DepositTerms } from '@pm/escrow/deposit-terms';
import type { Clock } from '../chain/clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { isTransientError } from '../errors/transient-error.ts';
import { insertEscrowRefund } from '../escrow/deposits/escrow-refunds-repository.ts';
import type {
  PaymentClaim,
  PaymentPurpose,
  VerifiedPayment,
  VerifyResult,
} from '../escrow/deposits/verified-payment.ts';
import { type DepositVerifierDeps, verifyDeposit } from '../escrow/deposits/verify-deposit.ts';
import { queueSettlementAfterRefusedDispute } from '../escrow/settlements/dispute-settlement-repository.ts';
import type { Metrics, PaymentOutcome } from '../metrics/metrics.ts';
import {
  countOpenPaymentRequests,
  insertPaymentRequest,
  resolvePaymentRequest,
} from './payment-requests-repository.ts';
import { findKnownPayments, insertRecordedPayment, type KnownPayment } from './payments-repository.ts';

export type PaymentContext = {
  db: Db;
  /** The escrow's deposits: how every stake is checked (decision 026); absent without an escrow. */
  escrow?: DepositVerifierDeps;
  /** The server's clock: a kept request's age is measured by it, as the jobs measure it. */
  clock: Clock;
  /** Counts each decision (bnbpredict_payments_total); absent in tests that build a context. */
  metrics?: Pick<Metrics, 'countPayment'>;
};

export type AcceptPaymentInput<T> = {
  claim: PaymentClaim;
  /**
   * Where the money is: a deposit into the escrow (`escrow`, the context's) for `terms` (a creation, a
   * bet, a round bet, a flag's bond); `stakeId` pins the one stake reconciliation records from its own
   * event.
   */
  deposit: { escrow: DepositVerifierDeps; terms: DepositTerms; stakeId?: bigint };
  purpose: PaymentPurpose;
  /** The request as received, replayed by the pending-payments job if the payment is not final yet. */
  request: Record<string, unknown>;
  /**
   * Writes the bet, inside the same transaction as the payment row. Throwing an AppError refuses
   * the bet: nothing of it is written, and the paid BNB is kept as a refund owed to the payer.
   */
  record: (tx: Tx, payment: VerifiedPayment & { paymentId: number }) => Promise<T>;
  /**
   * What `record` wrote for this payment, read back: the answer to the same request sent again
   * after the payment was recorded (the client's retry, or escrow reconciliation recording the
   * deposit from its event before the browser's request arrived).
   */
  findRecorded?: (db: Db, paymentId: number) => Promise<T | undefined>;
};

export type AcceptPaymentResult<T> = { status: 'recorded'; value: T } | { status: 'pending'; txHash: string };

/**
 * The one way a payment becomes a bet (docs/architecture.md "Payment verification"): verified on chain first
 * (an escrow deposit: `input.deposit`), then payment + bet + totals + outbox in one transaction. A valid
 * payment is never dropped: if the bet is refused, the payment is kept as owed back by the escrow
 * (escrow_refund); if it is not final yet, the request is kept
 * and recorded by a job once it is. Each decision is counted: accepted, pending, or the refusal's
 * code (bnbpredict_payments_total, docs/operations.md "Metrics").
 */
export async function acceptPayment<T>(
  context: PaymentContext,
  input: AcceptPaymentInput<T>,
): Promise<AcceptPaymentResult<T>> {
  try {
    const { result, fresh } = await decidePayment(context, input);
    // A request answered again from what was recorded before is no new decision.
    if (fresh) context.metrics?.countPayment(result.status === 'pending' ? 'pending' : 'accepted');
    return result;
  } catch (error) {
    context.metrics?.countPayment(refusalOutcome(error));
    throw error;
  }
}

/** The refusal's error code; a passing fault, or the RECORD_FAILED refund of an unexpected error. */
function refusalOutcome(error: unknown): PaymentOutcome {
  if (error instanceof AppError) return error.code;
  return isTransientError(error) ? 'UNAVAILABLE' : 'RECORD_FAILED';
}

async function decidePayment<T>(
  context: PaymentContext,
  input: AcceptPaymentInput<T>,
): Promise<{ result: AcceptPaymentResult<T>; fresh: boolean }> {
  const { db } = context;
  const { chainId } = input.deposit.escrow;
  const txHash = input.claim.txHash.toLowerCase();
  // A transaction may hold several deposits (a batch): the stakes already taken are left out.
  const known = await findKnownPayments(db, chainId, txHash);

  let verified: VerifyResult;
  try {
    verified = await verifyClaim(
      input,
      known.flatMap((payment) => (payment.stakeId === null ? [] : [payment.stakeId])),
    );
  } catch (error) {
    // A deposit transaction already used, with no deposit left that this request can be: answered
    // as a used transfer is (the same request again, or TX_ALREADY_USED). A passing fault is retried.
    if (known.length > 0 && error instanceof AppError && !isTransientError(error)) {
      return { result: await answerKnown(context, input, known), fresh: false };
    }
    throw error;
  }
  if (verified.status === 'pending') {
    // A request replayed while its payment is still not final is not a new decision.
    const kept = await keepPendingRequest(context, input, txHash);
    return { result: { status: 'pending', txHash }, fresh: kept };
  }

  const payment = verified.payment;
  try {
    const value = await db.transaction(async (tx) => {
      const paymentId = await insertRecordedPayment(tx, {
        chainId,
        payment,
        purpose: input.purpose,
      });
      // Before `record`, which may lock a row every payment of that market or round waits on.
      await resolvePaymentRequest(tx, chainId, txHash, null);
      return input.record(tx, { ...payment, paymentId });
    });
    return { result: { status: 'recorded', value }, fresh: true };
  } catch (error) {
    if (error instanceof AppError && error.code === 'TX_ALREADY_USED') {
      // Another request (the same one sent twice, or reconciliation) recorded it first; its
      // record is the answer.
      const recorded = await findKnownPayments(db, chainId, txHash);
      if (recorded.length > 0) {
        return { result: await answerKnown(context, input, recorded), fresh: false };
      }
      throw error;
    }
    // The database or the chain failed us, not the bet: nothing was written, and the request is
    // retried (by the client, the pending-payments job or reconciliation), never turned into a refund.
    if (isTransientError(error)) throw error;
    // Whatever refused the bet, the money is real: keep it as owed back to the payer, by the escrow.
    const reason = error instanceof AppError ? error.code : 'RECORD_FAILED';
    await keepRefused(context, { chainId, payment, purpose: input.purpose, reason });
    await resolvePaymentRequest(db, chainId, txHash, reason).catch(() => {});
    throw error;
  }
}

/**
 * The deposit the claim states, verified on chain (final and canonical), or pending. `taken`: the
 * stakes of this transaction already stored, which the claim may not take again. The payment keeps
 * the claim's intent, so the same request sent again is recognised.
 */
async function verifyClaim<T>(input: AcceptPaymentInput<T>, taken: readonly bigint[]): Promise<VerifyResult> {
  const { claim, deposit } = input;
  const verified = await verifyDeposit(deposit.escrow, {
    txHash: claim.txHash,
    from: claim.from,
    amountWei: claim.amountWei,
    terms: deposit.terms,
    taken,
    ...(deposit.stakeId === undefined ? {} : { stakeId: deposit.stakeId }),
  });
  if (verified.status === 'pending') return verified;
  const found = verified.deposit;
  return {
    status: 'verified',
    payment: {
      txHash: found.txHash,
      from: claim.from,
      amountWei: found.amountWei,
      intentText: intentText(claim.intent),
      blockNumber: found.blockNumber,
      blockTime: found.blockTime,
      deposit: {
        stakeId: found.stakeId,
        logIndex: found.logIndex,
        marketKey: found.key,
        disputes: found.disputes,
      },
    },
  };
}

/**
 * Keeps a verified payment that could not become a bet as money owed back to its payer, by the escrow
 * itself (escrow_refunds: refundStake, or its market's payout list), never by a server key. A refused
 * deposit that disputed its market's pending settlement (a flag's bond) also queues that settlement
 * again (decision 026).
 */
async function keepRefused(
  context: PaymentContext,
  input: { chainId: number; payment: VerifiedPayment; purpose: PaymentPurpose; reason: string },
): Promise<void> {
  const { deposit } = input.payment;
  await insertEscrowRefund(context.db, { ...input, now: context.clock.now() });
  if (deposit.disputes != null) {
    await queueSettlementAfterRefusedDispute(context.db, {
      marketKey: deposit.marketKey,
      now: context.clock.now(),
    });
  }
}

/**
 * The same request again answers as the first one did; any other use of the hash is refused. Of a
 * transaction's several deposits, the one this request is: the same payer, amount and intent.
 */
async function answerKnown<T>(
  context: PaymentContext,
  input: AcceptPaymentInput<T>,
  known: KnownPayment[],
): Promise<AcceptPaymentResult<T>> {
  const { db } = context;
  const txHash = input.claim.txHash.toLowerCase();
  const same = known.find(
    (payment) =>
      payment.status === 'recorded' &&
      isSameClaim(
        { fromAddress: payment.fromAddress, amountWei: payment.amount, intentText: payment.intent },
        input.claim,
      ),
  );
  const value = same && input.findRecorded ? await input.findRecorded(db, same.id) : undefined;
  await resolvePaymentRequest(
    db,
    input.deposit.escrow.chainId,
    txHash,
    value === undefined ? 'TX_ALREADY_USED' : null,
  );
  if (value === undefined) throw new AppError('TX_ALREADY_USED');
  return { status: 'recorded', value };
}

/**
 * Keeps a valid request whose payment is not final yet, for the pending-payments job. Each sender
 * may have only so many waiting (unmined transactions cost nothing to make); past that
 * the request is refused for now — if the payment ever mines, reconciliation still finds it.
 */
async function keepPendingRequest<T>(
  context: PaymentContext,
  input: AcceptPaymentInput<T>,
  txHash: string,
): Promise<boolean> {
  const { db } = context;
  const from = input.claim.from.toLowerCase();
  if ((await countOpenPaymentRequests(db, from)) >= MAX_PENDING_PAYMENTS_PER_SENDER) {
    throw new AppError(
      'RATE_LIMITED',
      'Too many payments are still waiting to confirm. Please wait a moment.',
    );
  }
  return insertPaymentRequest(db, {
    chainId: input.deposit.escrow.chainId,
    txHash,
    fromAddress: from,
    purpose: input.purpose,
    request: input.request,
    createdAt: context.clock.now(),
    nextAttemptAt: context.clock.now(),
  });
}

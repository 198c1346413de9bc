import type { AppError } from '../errors/app-error.ts';
import { isTransientError } from '../errors/transient-error.ts';
import { type AcceptPaymentInput, acceptPayment, type PaymentContext } from './accept-payment.ts';

/**
 * Answers a request we refuse (blank description, amount below the minimum, unknown market or
 * round) with its refusal, and still keeps the money if a real payment stands behind it:
 * acceptPayment stores a verified payment whose record throws as escrow_refund, given back by the
 * escrow (docs/architecture.md "Payment verification": a valid payment is never dropped). Whatever
 * the payment check says, the client hears the refusal. Both games refuse through here.
 */
export async function refusePayment(
  context: PaymentContext,
  input: Omit<AcceptPaymentInput<never>, 'record'>,
  refusal: AppError,
): Promise<never> {
  try {
    await acceptPayment(context, {
      ...input,
      record: async () => {
        throw refusal;
      },
    });
  } catch (error) {
    // The chain or database failed us: the caller must not read the refusal as "kept as a refund"
    // (docs/decisions/010). It retries; reconciliation finds the money on chain either way.
    if (isTransientError(error)) throw error;
    // TX_NOT_FOUND, WRONG_SENDER…: no money of this request to keep; the refusal is the answer.
  }
  // A payment not final yet was stored as pending: the job replays it, is refused, and refunds it.
  throw refusal;
}

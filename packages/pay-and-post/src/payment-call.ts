import { encodeIntent, type PaymentIntent } from '@pm/core/intent';
import { depositCall } from '@pm/escrow/deposit-call';
import type { DepositTerms } from '@pm/escrow/deposit-terms';
import type { Address, Hex } from 'viem';
import type { PaymentCall } from './payer.ts';

// The one place that says how a payment is made (docs/api.md "Paid requests"): every stake is a
// `deposit` call into the escrow contract (decision 026), encoded by @pm/escrow's one encoder
// (`depositCall`), which the web uses too. A plain transfer, the intent's text as its data, is no
// payment the server takes: tests send one to see it refused. Every test tool pays through here.

/** A transfer that is no deposit: to this account, this amount, with this intent as its data. */
export type PlainTransfer = {
  to: Address;
  /** What the transfer's data says; null for one that says nothing (a top-up, a stray). */
  intent: PaymentIntent | null;
  amountWei: bigint;
};

/** One thing broken at a time, for tests of what the server refuses. */
export type PaymentOverrides = {
  /** Pay someone else than the escrow (or the transfer's account): a stranger, a forwarding contract. */
  to?: Address;
  /** Pay another amount than the request will claim. */
  value?: bigint;
  /** Commit to something else than the request will claim; null: no intent at all. */
  intent?: PaymentIntent | null;
  /** Bytes no intent encodes (a market id past int4, a side named MAYBE); wins over `intent` and `terms`. */
  data?: Hex;
  /** A deposit for other terms than the request will claim (another round, side or close). */
  terms?: DepositTerms;
};

export function plainTransferCall(transfer: PlainTransfer, overrides: PaymentOverrides = {}): PaymentCall {
  const intent = overrides.intent === undefined ? transfer.intent : overrides.intent;
  return {
    to: overrides.to ?? transfer.to,
    value: overrides.value ?? transfer.amountWei,
    data: overrides.data ?? (intent ? encodeIntent(intent) : undefined),
  };
}

/** A deposit as its request will describe it: into the escrow, this amount, for these terms. */
export type DepositPayment = { escrow: Address; terms: DepositTerms; amountWei: bigint };

/**
 * The deposit's call (`depositCall`), with a test's overrides: another payee, value, terms or raw data
 * (`intent` does not apply: a deposit carries terms, not an intent; `intent: null` sends no data).
 */
export function depositPaymentCall(payment: DepositPayment, overrides: PaymentOverrides = {}): PaymentCall {
  const terms = overrides.terms ?? payment.terms;
  // The call of an honest deposit (a value of at least 1 wei: the encoder checks only the amount).
  const call = depositCall(payment.escrow, terms, payment.amountWei > 0n ? payment.amountWei : 1n);
  return {
    to: overrides.to ?? payment.escrow,
    value: overrides.value ?? payment.amountWei,
    data: overrides.data ?? (overrides.intent === null ? undefined : call.data),
  };
}

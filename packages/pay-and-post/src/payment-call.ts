import { encodeIntent, type PaymentIntent } from '@pm/core/intent';
import type { Address, Hex } from 'viem';
import type { PaymentCall } from './payer.ts';

// The one place that says how a payment is made (docs/api.md "Paid requests"): BNB sent to the
// vault, the intent's text as the transaction's data. Every test tool pays through here, so the
// escrow contract (issue 29), where a bet is a typed deposit call, changes this file alone.

/** A payment as its request will describe it: to the vault, this amount, for this intent. */
export type Payment = {
  vault: Address;
  /** What the payment commits to; null for a plain transfer that says nothing (a top-up, a stray). */
  intent: PaymentIntent | null;
  amountWei: bigint;
};

/** One thing broken at a time, for tests of what the server refuses. */
export type PaymentOverrides = {
  /** Pay someone else than the vault: a stranger, a forwarding contract. */
  to?: Address;
  /** Pay another amount than the request will claim. */
  value?: bigint;
  /** Commit to something else than the request will claim; null: no intent at all. */
  intent?: PaymentIntent | null;
  /** Bytes no intent encodes (a market id past int4, a side named MAYBE); wins over `intent`. */
  data?: Hex;
};

export function paymentCall(payment: Payment, overrides: PaymentOverrides = {}): PaymentCall {
  const intent = overrides.intent === undefined ? payment.intent : overrides.intent;
  return {
    to: overrides.to ?? payment.vault,
    value: overrides.value ?? payment.amountWei,
    data: overrides.data ?? (intent ? encodeIntent(intent) : undefined),
  };
}

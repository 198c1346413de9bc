import type { Hash } from 'viem';
import type { Payer } from './payer.ts';
import { type Payment, type PaymentOverrides, paymentCall } from './payment-call.ts';

/** Sends `payment` from `payer` (with `overrides`, if a test breaks something); the hash once sent. */
export function payVault(payer: Payer, payment: Payment, overrides?: PaymentOverrides): Promise<Hash> {
  return payer.send(paymentCall(payment, overrides));
}

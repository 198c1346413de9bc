import type { Hash } from 'viem';
import type { Payer } from './payer.ts';
import { type PaymentOverrides, type PlainTransfer, plainTransferCall } from './payment-call.ts';

/**
 * Sends `transfer` from `payer` (with `overrides`, if a test breaks something); the hash once sent. No
 * deposit: for tests of what the server refuses (the escrow reverts it, any other account is no payee).
 */
export function payPlainTransfer(
  payer: Payer,
  transfer: PlainTransfer,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  return payer.send(plainTransferCall(transfer, overrides));
}

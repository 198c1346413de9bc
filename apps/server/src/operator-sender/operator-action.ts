import { isAddress, isHex } from 'viem';
import { z } from 'zod';

// What a caller asks the operator key to send, and the gas rule every such call obeys.

/** The most gas one transaction may have where EIP-7825 holds (2^24); no operator call comes near it. */
export const MAX_GAS_CAP = 16_777_216n;
/** A plain transfer's gas: the floor of any cap, and a cancel's limit. */
export const TRANSFER_GAS = 21_000n;

/**
 * One call the operator key must make. `key` makes it idempotent: the same key is one action,
 * one row, one transaction however often it is submitted (a retried settlement, two instances).
 * `gasCap` is the most gas the call may ever use: an estimate above it fails the action unsent.
 */
export const OperatorActionSchema = z.object({
  key: z.string().min(1).max(200),
  to: z
    .string()
    .refine((v) => isAddress(v, { strict: false }), 'must be a 0x-prefixed 20-byte address')
    .transform((v) => v.toLowerCase() as `0x${string}`),
  data: z
    .string()
    .refine((v) => isHex(v, { strict: true }) && v.length % 2 === 0, 'must be 0x-prefixed hex bytes')
    .transform((v) => v.toLowerCase() as `0x${string}`)
    .default('0x'),
  value: z.bigint().min(0n).default(0n),
  gasCap: z.bigint().min(TRANSFER_GAS).max(MAX_GAS_CAP),
  /**
   * Sign at `gasCap` instead of the estimate + 20 %: for a call whose gas depends on code another
   * party controls (a batch of pushes to owners), which can run cheap under the estimate and burn
   * its gas when sent, reverting a batch signed at the estimate every time.
   */
  signAtCap: z.boolean().default(false),
});

export type OperatorActionInput = z.input<typeof OperatorActionSchema>;
export type OperatorAction = z.output<typeof OperatorActionSchema>;

/**
 * The gas limit to sign for an estimate: 20 % above it (state may move between the estimate and the
 * block), never above the action's cap; the cap itself for an action signed at its cap. Null when the estimate itself is above the cap: the call
 * would need more gas than it may ever use, so it is not sent.
 */
export function operatorGasLimit(estimate: bigint, gasCap: bigint, signAtCap = false): bigint | null {
  if (estimate > gasCap) return null;
  if (signAtCap) return gasCap;
  const withMargin = (estimate * 120n + 99n) / 100n;
  return withMargin < gasCap ? withMargin : gasCap;
}

import {
  type DecodedRevert,
  decodeRevert as decodeEscrowRevert,
  formatRevert,
  revertData,
} from '@pm/escrow/decode-revert';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Abi, getAbiItem, toFunctionSelector } from 'viem';
import { describeError } from '../errors/describe-error.ts';
import type { OperatorAction } from './operator-action.ts';

// What a reverted simulation says, in words, and whether it means the action's effect already holds.
// Reading the revert is @pm/escrow's (decode-revert.ts); the verdict is the sender's.

export { revertData };

/** What the sender asks of a revert: the effect already holds (`done`: skipped) or never will (`failed`). */
export type RevertVerdict = 'done' | 'failed';
export type ClassifyRevert = (error: unknown, action: OperatorAction) => RevertVerdict;

/** The revert decoded against `abi` (Error(string) and panics always): `StakeMismatch(7)`; else its message. */
export function describeRevert(error: unknown, abi: Abi = predictionEscrowAbi): string {
  const decoded = decodeRevert(error, abi);
  return decoded ? formatRevert(decoded) : describeError(error);
}

/** @pm/escrow's decoder (the one home of reading a revert), null when it reads none. */
export function decodeRevert(error: unknown, abi: Abi = predictionEscrowAbi): DecodedRevert | null {
  return decodeEscrowRevert(error, abi) ?? null;
}

/**
 * The escrow's reverts that mean the call's effect already holds: a stake already paid or refunded
 * (`StakeMismatch`: the server names stakes from their `Deposited` events, so a mismatch is a spent
 * stake) and a market already settled for good or refunding (`NotSettleable`). Anything else is a
 * failure, recorded with its decoded reason. For single-stake calls and settlements; a batch
 * (`claimMany`, `refundMany`) reverts whole when one of its stakes is spent, so its caller must
 * find which and submit the rest, not take the batch as done.
 */
export function classifyEscrowRevert(error: unknown): RevertVerdict {
  const name = decodeRevert(error)?.errorName;
  return name === 'StakeMismatch' || name === 'NotSettleable' ? 'done' : 'failed';
}

/** `claimMany` and `refundMany`: a batch reverts whole when any one of its stakes is spent. */
const BATCH_SELECTORS = new Set<string>(
  (['claimMany', 'refundMany'] as const).map((name) =>
    toFunctionSelector(getAbiItem({ abi: predictionEscrowAbi, name })),
  ),
);

/**
 * The verdict the server's sender uses for every escrow action: a batch's revert is `failed`, never
 * `done` (a spent stake in it says nothing of the others: the relay releases the batch and the next
 * claim reads each stake anew, escrow/claims/escrow-claims.ts); any other call is `classifyEscrowRevert`'s.
 */
export function classifyEscrowActionRevert(error: unknown, action: OperatorAction): RevertVerdict {
  if (BATCH_SELECTORS.has(action.data.slice(0, 10).toLowerCase())) return 'failed';
  return classifyEscrowRevert(error);
}

import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Abi, decodeErrorResult, type Hex, isHex } from 'viem';
import { describeError } from '../errors/describe-error.ts';
import type { OperatorAction } from './operator-action.ts';

// What a reverted simulation says, in words, and whether it means the action's effect already holds.

/** What the sender asks of a revert: the effect already holds (`done`: skipped) or never will (`failed`). */
export type RevertVerdict = 'done' | 'failed';
export type ClassifyRevert = (error: unknown, action: OperatorAction) => RevertVerdict;

/**
 * The revert's return data along the error's causes: viem's RpcRequestError carries the node's
 * `data`, a hex string (geth) or an object holding one (Hardhat); else the message's "return data".
 */
export function revertData(error: unknown): Hex | undefined {
  let at: unknown = error;
  for (let depth = 0; depth < 10 && at && typeof at === 'object'; depth++) {
    if ('data' in at) {
      const data = at.data;
      if (typeof data === 'string' && isHex(data) && data.length >= 10) return data;
      if (
        data &&
        typeof data === 'object' &&
        'data' in data &&
        typeof data.data === 'string' &&
        isHex(data.data)
      )
        return data.data;
    }
    at = 'cause' in at ? at.cause : undefined;
  }
  const match = /return data: (0x[0-9a-f]+)/i.exec(error instanceof Error ? error.message : String(error));
  return match?.[1] as Hex | undefined;
}

/** The revert decoded against `abi` (Error(string) and panics always): `StakeMismatch(7)`; else its message. */
export function describeRevert(error: unknown, abi: Abi = predictionEscrowAbi): string {
  const decoded = decodeRevert(error, abi);
  if (decoded) return `${decoded.errorName}(${decoded.args.map(String).join(', ')})`;
  return describeError(error);
}

export function decodeRevert(
  error: unknown,
  abi: Abi = predictionEscrowAbi,
): { errorName: string; args: readonly unknown[] } | null {
  const data = revertData(error);
  if (!data) return null;
  try {
    const decoded = decodeErrorResult({ abi, data });
    return { errorName: decoded.errorName, args: decoded.args ?? [] };
  } catch {
    return null;
  }
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

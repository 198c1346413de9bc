import { type Abi, BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex, isHex } from 'viem';
import { predictionEscrowAbi } from './prediction-escrow.gen.ts';

// What a revert says, by its custom error: the one decoder of the escrow's reverts (the deployment and
// the ops commands, the operator's sender through apps/server/src/operator-sender/revert-reason.ts).

/** A revert by its error's name and arguments (the escrow's own, OpenZeppelin's, Error(string), Panic). */
export type DecodedRevert = { errorName: string; args: readonly unknown[] };

/**
 * The error a failed call, send or deployment reverted with, decoded against `abi` (the escrow's by
 * default); undefined when it is no revert that can be read (a network fault, an out-of-gas, revert
 * data of another contract's errors). viem decodes a contract call's revert itself; a deployment's, a
 * raw call's or a send's estimate comes as undecoded data on a cause, or only in the message.
 */
export function decodeRevert(error: unknown, abi: Abi = predictionEscrowAbi): DecodedRevert | undefined {
  if (error instanceof BaseError) {
    const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName) {
      return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
    }
  }
  const data = revertData(error);
  if (!data) return undefined;
  try {
    const decoded = decodeErrorResult({ abi, data });
    return { errorName: decoded.errorName, args: decoded.args ?? [] };
  } catch {
    return undefined;
  }
}

/**
 * The revert's return data along the error's causes: viem's RpcRequestError carries the node's `data`,
 * a hex string (geth) or an object holding one (Hardhat), as does RawContractError; else the message's
 * "return data".
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

/** `Name(arg, …)`, for a message: `StakeMismatch(7)`. */
export function formatRevert(revert: DecodedRevert): string {
  return `${revert.errorName}(${revert.args.map((arg) => String(arg)).join(', ')})`;
}

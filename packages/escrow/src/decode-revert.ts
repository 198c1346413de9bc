import { BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex, isHex } from 'viem';
import { predictionEscrowAbi } from './prediction-escrow.gen.ts';

/** A revert of the escrow, by its custom error (from the ABI: the contract's own and OpenZeppelin's). */
export type EscrowRevert = { errorName: string; args: readonly unknown[] };

/**
 * The escrow's custom error in a failed call, send or deployment, or undefined when the error is not a
 * revert the ABI knows (a network fault, an out-of-gas, a revert of another contract). viem decodes a
 * contract call's revert itself; a deployment's or a raw call's comes as undecoded data on a cause.
 */
export function decodeEscrowRevert(error: unknown): EscrowRevert | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName) {
    return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
  }
  const raw = error.walk((cause) => revertData(cause) !== undefined);
  const data = revertData(raw);
  if (!data) return undefined;
  try {
    const decoded = decodeErrorResult({ abi: predictionEscrowAbi, data });
    return { errorName: decoded.errorName, args: decoded.args ?? [] };
  } catch {
    return undefined;
  }
}

/** The `data` of an error along viem's cause chain, when it is revert data (a selector at least). */
function revertData(error: unknown): Hex | undefined {
  if (!error || typeof error !== 'object' || !('data' in error)) return undefined;
  const data = error.data;
  // RawContractError keeps it as a string; some nodes nest it as { data }.
  const hex = typeof data === 'object' && data && 'data' in data ? data.data : data;
  return typeof hex === 'string' && isHex(hex) && hex.length >= 10 ? hex : undefined;
}

/** `Name(arg, …)`, for a message. */
export function formatEscrowRevert(revert: EscrowRevert): string {
  return `${revert.errorName}(${revert.args.map((arg) => String(arg)).join(', ')})`;
}

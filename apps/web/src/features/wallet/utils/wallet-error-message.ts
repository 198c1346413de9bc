import { BaseError, RpcError } from 'viem';

/**
 * The wallet's own words for a failure (spec §8: wallet error codes such as 4001 surface through
 * the wallet error message): the provider's message when the wallet answered with an RPC error,
 * else the short message of a viem or wagmi error, else the error's message.
 */
export function walletErrorMessage(error: unknown): string | undefined {
  if (error instanceof BaseError) {
    const rpcError = error.walk((cause) => cause instanceof RpcError);
    if (rpcError instanceof RpcError && rpcError.details) return rpcError.details;
    return error.shortMessage;
  }
  if (error instanceof Error) {
    if ('shortMessage' in error && typeof error.shortMessage === 'string') return error.shortMessage;
    return error.message || undefined;
  }
  return undefined;
}

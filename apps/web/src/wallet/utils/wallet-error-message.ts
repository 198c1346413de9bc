/**
 * The wallet's own words for a failure (docs/product.md §8: wallet error codes such as 4001 surface through
 * the wallet error message): the provider's message when the wallet answered with an RPC error,
 * else the short message of a viem or wagmi error, else the error's message. Read from the error's
 * fields (viem's RpcError carries the wallet's words in `details` beside a numeric `code`) rather
 * than by `instanceof` on viem's classes, which would pull viem's whole error catalogue into every
 * page.
 */
export function walletErrorMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if ('code' in cause && typeof cause.code === 'number' && 'details' in cause) {
      if (typeof cause.details === 'string' && cause.details) return cause.details;
    }
  }
  if ('shortMessage' in error && typeof error.shortMessage === 'string' && error.shortMessage) {
    return error.shortMessage;
  }
  return error.message || undefined;
}

// Kept apart from get-claimable.ts so the pages' realtime hooks can invalidate the claimable query
// without loading its response schema, which pulls in the markets contract (~2.4 kB on the oracle
// page before a wallet connects; docs/decisions/006: the routes are at their JS budget).

/** Every wallet's claimable: what a claim or a realtime `payouts` event invalidates. */
export const CLAIMABLE_QUERY_KEY = ['claimable'] as const;

/** One wallet's, case-insensitive: the markets and the oracle pages share the one answer. */
export const claimableQueryKey = (address: string) =>
  [...CLAIMABLE_QUERY_KEY, address.toLowerCase()] as const;

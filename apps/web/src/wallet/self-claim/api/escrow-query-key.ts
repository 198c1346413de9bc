import type { Address } from 'viem';

/** Everything the wallet's own claim reads from one escrow: what its calls invalidate once mined. */
export const escrowQueryKey = (escrow: Address) => ['escrow', escrow] as const;

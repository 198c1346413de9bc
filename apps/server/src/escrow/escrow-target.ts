import type { Config } from '../config/config.ts';

/** The escrow a market's or round's stakes are on: the server's chain and ESCROW_ADDRESS. */
export type EscrowTarget = { chainId: number; address: string };

/** The server's escrow, or null when ESCROW_ADDRESS is not set (then no stake is taken: ESCROW_NOT_CONFIGURED). */
export function escrowTargetOf(config: Pick<Config, 'chain' | 'escrow'>): EscrowTarget | null {
  return config.escrow.address ? { chainId: config.chain.id, address: config.escrow.address } : null;
}

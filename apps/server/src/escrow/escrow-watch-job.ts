import { type EscrowLevels, readEscrowLevels } from '@pm/escrow/deploy';
import type { FastifyBaseLogger } from 'fastify';
import type { Address, PublicClient } from 'viem';
import type { Job } from '../jobs/job-runner.ts';

export type EscrowWatchDeps = {
  chain: PublicClient;
  /** ESCROW_ADDRESS: the job runs only when it is set. */
  address: Address;
  logger: FastifyBaseLogger;
  /** Each reading, all at one block (the metrics' gauges). */
  onLevels: (levels: EscrowLevels) => void;
  intervalMs?: number;
};

/** As often as the vault's reserves are checked (solvency/reserves-job.ts). */
export const ESCROW_WATCH_INTERVAL_MS = 15_000;

/**
 * Reads the escrow contract's balance, liabilities, settlement bucket and pause at one block, on every
 * instance (read-only), for the metrics (docs/operations.md "Metrics"). A pause is logged when it is
 * first seen, and its end too; a failing RPC is the job runner's to log, and the next check comes anyway.
 */
export function createEscrowWatchJob(deps: EscrowWatchDeps): Job {
  let wasPaused: boolean | undefined;
  return {
    name: 'escrow-watch',
    intervalMs: deps.intervalMs ?? ESCROW_WATCH_INTERVAL_MS,
    async run() {
      const levels = await readEscrowLevels(deps.chain, deps.address);
      if (levels.paused !== wasPaused && (levels.paused || wasPaused !== undefined)) {
        const fields = { escrowAddress: levels.address, blockNumber: levels.blockNumber.toString() };
        if (levels.paused)
          deps.logger.warn(fields, 'the escrow contract is paused: deposits and settlements are refused');
        else deps.logger.info(fields, 'the escrow contract is unpaused');
      }
      wasPaused = levels.paused;
      deps.onLevels(levels);
    },
  };
}

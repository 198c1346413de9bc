import type { FastifyBaseLogger } from 'fastify';
import type { PublicClient } from 'viem';
import type { Db } from '../db/client.ts';
import type { PayoutMetrics } from '../metrics/metrics.ts';
import type { VaultSigner } from './vault-signer.ts';

// What the payout steps share (payout-processor, sign-payout, fail-payout), apart from the
// processor itself so the steps need not import the module that calls them (issue 13: no cycle).

export type PayoutProcessorDeps = {
  db: Db;
  chain: PublicClient;
  signer: VaultSigner;
  confirmations: number | 'finalized';
  /** Ceiling for maxFeePerGas, replacements included (PAYOUT_MAX_FEE_PER_GAS_GWEI). */
  maxFeePerGas: bigint;
  /** How long a broadcast payout may wait unmined before the job replaces it with higher fees. */
  replaceAfterMs?: number;
  now?: () => number;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** Counts each state a payout enters once it is committed (bnbpredict_payouts_total). */
  metrics?: PayoutMetrics;
  /** Test hook: simulate a crash right after a step is stored. */
  crashAfter?: 'signed' | 'broadcast';
};

export class SimulatedCrash extends Error {
  override name = 'SimulatedCrash';
}

import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { EscrowClaimsDeps } from '../escrow/escrow-claims.ts';
import type { Job } from '../jobs/job-runner.ts';
import { registerClaimsRoutes } from './claims-routes.ts';
import type { ClaimsDeps } from './claims-service.ts';
import { createPayoutsJob } from './payouts-job.ts';
import { readOldestOpenPayoutAgeS } from './payouts-repository.ts';
import { createVaultSigner } from './vault-signer.ts';

/** Claims, refunds and the vault hot wallet, wired from the app's dependencies. */
export function createPayoutsModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
  options: { escrowClaims?: EscrowClaimsDeps | null } = {},
): { routes: AppFeature; jobs: Job[] } {
  const signer = createVaultSigner(deps.config);
  const claims: ClaimsDeps = {
    // Round bets staked on the escrow are relayed there (decision 026); the vault pays the rest.
    escrowClaims: options.escrowClaims ?? null,
    db: deps.database.db,
    chain: deps.chain,
    signer,
    chainId: deps.config.chain.id,
    confirmations: deps.config.chain.confirmations,
    claimWaitMs: deps.config.chain.paymentWaitMs,
    maxFeePerGas: deps.config.payouts.maxFeePerGas,
    log: logger,
    metrics: deps.metrics,
  };
  // For the "payouts stuck" alert: how long the oldest open payout has waited (docs/operations.md).
  deps.metrics.observeOldestOpenPayout(() => readOldestOpenPayoutAgeS(claims.db));
  return {
    routes: (app) => registerClaimsRoutes(app, deps, claims),
    jobs: signer
      ? [createPayoutsJob({ ...claims, signer, refundMinWei: deps.config.payouts.refundMinWei })]
      : [],
  };
}

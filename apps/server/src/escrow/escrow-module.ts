import type { FastifyBaseLogger } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createOperatorTransactionsJob } from '../operator-sender/operator-sender.ts';
import type { OperatorSenderDeps } from '../operator-sender/operator-sender-deps.ts';
import { readOpenOperatorWork } from '../operator-sender/operator-transactions-repository.ts';
import { classifyEscrowActionRevert } from '../operator-sender/revert-reason.ts';
import { createEscrowRelaysJob, type EscrowClaimsDeps } from './claims/escrow-claims.ts';
import { createStakePayoutsWatchJob } from './claims/stake-payouts-watch-job.ts';
import { OPERATOR_DECIDES } from './settlements/dispute-settlement-repository.ts';
import { registerPayoutListRoutes } from './settlements/payout-list-routes.ts';
import { readOldestPendingSettlementAgeS } from './settlements/payout-lists-repository.ts';
import { createEscrowSettlementsJob, type EscrowSettlementDeps } from './settlements/post-settlements-job.ts';
import { registerVaultRoutes } from './vault-routes.ts';

/**
 * The escrow contract (docs/decisions/025 and 026): GET /api/vault, its public description, and
 * the published payout lists' route; once ESCROW_ADDRESS is set, the watcher that records stakes paid
 * without a relay (stake-payouts-watch-job.ts); once the operator key (OPERATOR_PRIVATE_KEY) is set
 * too, the operator key's sender, the escrow-settlements job (rounds' and markets' settlements) and the
 * relayed claims (for POST /api/claims and their job); the sender also gives back refused deposits for
 * escrow reconciliation (features.ts). The contract's figures are read by the solvency module's
 * reserves check.
 */
export function createEscrowModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
): { routes: AppFeature; jobs: Job[]; claims: EscrowClaimsDeps | null; sender: OperatorSenderDeps | null } {
  const { config, database, chain, clock } = deps;
  const routes: AppFeature = async (app) => {
    registerVaultRoutes(app, deps);
    registerPayoutListRoutes(app, database.db);
  };
  const escrow = config.escrow.address;
  if (!escrow) return { routes, jobs: [], claims: null, sender: null };
  // The gauges of the work waiting on the operator key and on the escrow (docs/operations.md "Metrics").
  deps.metrics.observeOperatorWork(async () => ({
    ...(await readOpenOperatorWork(database.db)),
    oldestPendingSettlementAgeS: await readOldestPendingSettlementAgeS(database.db, OPERATOR_DECIDES),
  }));
  // Stakes paid without a relay (a wallet's own claim, an escape-hatch refund): recorded from the chain.
  const watch = createStakePayoutsWatchJob({
    db: database.db,
    chain,
    escrow,
    confirmations: config.chain.confirmations,
    log: logger,
    startFrom: config.escrow.deployBlock,
    metrics: deps.metrics,
  });
  const privateKey = config.operator.privateKey;
  if (!privateKey) return { routes, jobs: [watch], claims: null, sender: null };

  const sender: OperatorSenderDeps = {
    db: database.db,
    chain,
    chainId: config.chain.id,
    account: privateKeyToAccount(privateKey),
    confirmations: config.chain.confirmations,
    maxFeePerGas: config.operatorTransactions.maxFeePerGas,
    resendAfterMs: config.operatorTransactions.resendAfterMs,
    replaceAfterMs: config.operatorTransactions.replaceAfterMs,
    classifyRevert: classifyEscrowActionRevert,
    now: () => clock.now().getTime(),
    log: logger,
    metrics: deps.metrics,
  };
  const now = () => clock.now();
  const settlements: EscrowSettlementDeps = {
    db: database.db,
    chain,
    chainId: config.chain.id,
    escrow,
    sender,
    fees: { oracleBps: config.fees.oracleBps, marketBps: config.fees.marketBps },
    now,
    log: logger,
    metrics: deps.metrics,
  };
  const claims: EscrowClaimsDeps = {
    db: database.db,
    chain,
    chainId: config.chain.id,
    escrow,
    sender,
    confirmations: config.chain.confirmations,
    claimWaitMs: config.chain.paymentWaitMs,
    log: logger,
  };
  return {
    routes,
    // Settlements are queued first, then the sender signs and sends every action, then relays are recorded.
    jobs: [
      createEscrowSettlementsJob(settlements),
      createOperatorTransactionsJob(sender),
      createEscrowRelaysJob(claims),
      watch,
    ],
    claims,
    sender,
  };
}

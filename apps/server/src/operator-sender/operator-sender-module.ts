import type { FastifyBaseLogger } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import type { AppDeps } from '../app-deps.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createOperatorTransactionsJob } from './operator-sender.ts';
import type { OperatorSenderDeps } from './operator-sender-deps.ts';
import { classifyEscrowRevert } from './revert-reason.ts';

/**
 * The operator key's sender in the app (docs/architecture.md "Operator transactions", decision 026):
 * its deps, for whoever submits actions (refunds of refused deposits, settlements, relayed claims),
 * and the job that sends them. The key is VAULT_PRIVATE_KEY (the escrow's operator, decision 026 "The
 * chain"). Null without an escrow or without that key: nothing is then submitted, and refused deposits
 * wait in escrow_refunds.
 */
export function createOperatorSender(
  deps: AppDeps,
  logger: FastifyBaseLogger,
): { deps: OperatorSenderDeps; job: Job } | null {
  const { config } = deps;
  if (!config.escrow.address || !config.vault.privateKey) return null;
  const sender: OperatorSenderDeps = {
    db: deps.database.db,
    chain: deps.chain,
    chainId: config.chain.id,
    account: privateKeyToAccount(config.vault.privateKey),
    confirmations: config.chain.confirmations,
    maxFeePerGas: config.payouts.maxFeePerGas,
    resendAfterMs: config.operatorTransactions.resendAfterMs,
    replaceAfterMs: config.operatorTransactions.replaceAfterMs,
    classifyRevert: classifyEscrowRevert,
    now: () => deps.clock.now().getTime(),
    log: logger,
    metrics: deps.metrics,
  };
  return { deps: sender, job: createOperatorTransactionsJob(sender) };
}

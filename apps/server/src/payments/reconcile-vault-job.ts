import { decodeIntent, intentText } from '@pm/core/intent';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicClient, Transaction } from 'viem';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import { chainCursors, paymentRequests } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import type { Job } from '../jobs/job-runner.ts';
import { insertRefundDuePayment, isPaymentKnown, type PaymentPurpose } from './payments-repository.ts';
import type { PendingPaymentHandler } from './pending-payments-job.ts';

const CURSOR = 'vault-reconcile';

export type ReconcileDeps = {
  db: Db;
  chain: PublicClient;
  chainId: number;
  vaultAddress: `0x${string}`;
  confirmations: number | 'finalized';
  clock: Clock;
  logger: FastifyBaseLogger;
  handlers: Partial<Record<PaymentPurpose, PendingPaymentHandler>>;
  /** How long a transfer may wait for its request before it is refunded (creates carry only a hash). */
  graceS?: number;
  /** Blocks read per run, so one run stays short. */
  maxBlocks?: number;
  /** Where a first run starts: 0 reads the whole (local) chain, 'latest' only what comes next. */
  startFrom?: 0 | 'latest';
};

/**
 * DESIGN "Payment verification": every inbound vault transfer is eventually matched to a bet,
 * recorded from its intent, or refunded — even if the browser never posted it. Reads final blocks
 * from a cursor; a bet or round intent is recorded through the endpoint's own logic (which refunds
 * what it must refuse); a transfer without a usable intent is refunded once its grace has passed.
 */
export function createVaultReconciliationJob(deps: ReconcileDeps): Job {
  return { name: 'vault-reconciliation', intervalMs: 5_000, run: () => reconcileVault(deps).then(() => {}) };
}

export async function reconcileVault(deps: ReconcileDeps): Promise<{ scannedTo: bigint | null }> {
  const head = await finalHead(deps);
  const [cursor] = await deps.db.select().from(chainCursors).where(eq(chainCursors.name, CURSOR));
  let next = cursor ? cursor.blockNumber + 1n : deps.startFrom === 'latest' ? head : 0n;
  const last =
    head < next + BigInt(deps.maxBlocks ?? 200) - 1n ? head : next + BigInt(deps.maxBlocks ?? 200) - 1n;
  let scannedTo: bigint | null = null;
  for (; next <= last; next++) {
    const block = await deps.chain.getBlock({ blockNumber: next, includeTransactions: true });
    const blockTime = new Date(Number(block.timestamp) * 1000);
    for (const tx of block.transactions) {
      if (!(await settleTransfer(deps, tx, blockTime))) return { scannedTo }; // wait for its grace
    }
    await deps.db
      .insert(chainCursors)
      .values({ name: CURSOR, blockNumber: next })
      .onConflictDoUpdate({ target: chainCursors.name, set: { blockNumber: next, updatedAt: new Date() } });
    scannedTo = next;
  }
  return { scannedTo };
}

/** Answers false when the transfer must be looked at again later (still within its grace). */
async function settleTransfer(deps: ReconcileDeps, tx: Transaction, blockTime: Date): Promise<boolean> {
  if (!tx.to || tx.to.toLowerCase() !== deps.vaultAddress.toLowerCase() || tx.value === 0n) return true;
  const txHash = tx.hash.toLowerCase();
  if (await isPaymentKnown(deps.db, deps.chainId, txHash)) return true;
  const receipt = await deps.chain.getTransactionReceipt({ hash: tx.hash });
  if (receipt.status !== 'success') return true; // a reverted transfer moved no money

  const open = await deps.db
    .select({ id: paymentRequests.id })
    .from(paymentRequests)
    .where(
      and(
        eq(paymentRequests.chainId, deps.chainId),
        eq(paymentRequests.txHash, txHash),
        isNull(paymentRequests.resolvedAt),
      ),
    );
  if (open.length) return true; // the pending-payments job records it

  const intent = decodeIntent(tx.input);
  const from = tx.from.toLowerCase();
  try {
    if (intent?.kind === 'bet' && deps.handlers.market_bet) {
      const body = {
        txHash,
        userAddress: from,
        prediction: intent.prediction,
        amountWei: tx.value.toString(),
      };
      await deps.handlers.market_bet({ marketId: intent.marketId, body });
      return true;
    }
    if (intent?.kind === 'round' && deps.handlers.oracle_bet) {
      await deps.handlers.oracle_bet({
        epoch: intent.epoch,
        position: intent.position,
        amountWei: tx.value.toString(),
        userAddress: from,
        txHash,
      });
      return true;
    }
  } catch (error) {
    // A refusal already stored the money as a refund; anything else is retried next run.
    if (error instanceof AppError) return true;
    throw error;
  }

  // No intent we can record from the chain alone (a create carries only a hash of its text, or a
  // plain transfer): give the browser its grace to post it, then refund.
  const ageS = (deps.clock.now().getTime() - blockTime.getTime()) / 1000;
  if (ageS < (deps.graceS ?? 600)) return false;
  await insertRefundDuePayment(deps.db, {
    chainId: deps.chainId,
    payment: {
      txHash: tx.hash,
      from: tx.from,
      amountWei: tx.value,
      intentText: intent ? intentText(intent) : '',
      blockNumber: receipt.blockNumber,
      blockTime,
    },
    purpose: intent?.kind === 'create' ? 'market_create' : 'unknown',
    reason: intent ? 'UNCLAIMED_CREATE' : 'NO_INTENT',
  });
  deps.logger.info({ txHash, from }, 'unmatched vault transfer kept as a refund');
  return true;
}

async function finalHead(deps: ReconcileDeps): Promise<bigint> {
  if (deps.confirmations === 'finalized') {
    const block = await deps.chain.getBlock({ blockTag: 'finalized' });
    return block.number ?? 0n;
  }
  const latest = await deps.chain.getBlockNumber({ cacheTime: 0 });
  return latest - BigInt(deps.confirmations - 1);
}

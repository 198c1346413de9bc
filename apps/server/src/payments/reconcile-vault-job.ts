import { normalizeAddress } from '@pm/core/address';
import { UNMATCHED_TRANSFER_GRACE_S } from '@pm/core/constants';
import { decodeIntent, intentText, type PaymentIntent } from '@pm/core/intent';
import type { FastifyBaseLogger } from 'fastify';
import { isHash, type PublicClient, type Transaction, TransactionReceiptNotFoundError } from 'viem';
import { z } from 'zod';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { describeError } from '../errors/describe-error.ts';
import { isTransientError } from '../errors/transient-error.ts';
import type { Job } from '../jobs/job-runner.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { findPaymentRequest } from './payment-requests-repository.ts';
import {
  findKnownPaymentHashes,
  findPaymentStatus,
  insertRefundDuePayment,
  type PaymentPurpose,
} from './payments-repository.ts';
import type { PendingPaymentHandler } from './pending-payments-job.ts';
import {
  type ClaimedVaultTransfer,
  claimNextVaultTransfer,
  deferVaultTransfer,
  queueBlockTransfers,
  readChainCursor,
  resolveVaultTransfer,
  retryVaultTransferAt,
} from './vault-transfers-repository.ts';

const CURSOR = 'vault-reconcile';
/** A row being settled is leased this long, so another instance leaves it alone meanwhile. */
const LEASE_S = 120;

export type ReconcileDeps = {
  db: Db;
  chain: PublicClient;
  chainId: number;
  vaultAddress: `0x${string}`;
  /** Senders whose transfers are vault top-ups, never bets or refunds (OPERATOR_ADDRESSES). */
  operatorAddresses?: readonly string[];
  confirmations: number | 'finalized';
  clock: Clock;
  logger: FastifyBaseLogger;
  handlers: Partial<Record<PaymentPurpose, PendingPaymentHandler>>;
  /** How long a transfer may wait for its request before it is refunded (creates carry only a hash). */
  graceS?: number;
  /** Blocks read per run, so one run stays short. */
  maxBlocks?: number;
  /** Transfers settled per run. */
  maxTransfers?: number;
  /** Where a first run starts: 0 reads the whole (local) chain, 'latest' only what comes next. */
  startFrom?: 0 | 'latest';
  /** Counts the refunds kept here for want of an intent (a handler's refusals count themselves). */
  metrics?: Pick<Metrics, 'countPayment'>;
};

/**
 * docs/architecture.md "Payment verification": every inbound vault transfer is eventually matched to a bet,
 * recorded from its intent, or refunded — even if the browser never posted it. Two steps, so that
 * no transfer can stop the others (review F2, F3, F21):
 * 1. the scan reads final blocks from a cursor and queues every inbound transfer not already a
 *    known payment; only failing to read a block holds the cursor (a passing RPC fault);
 * 2. each queued transfer is settled on its own, with its failures kept on its row.
 */
export function createVaultReconciliationJob(deps: ReconcileDeps): Job {
  return {
    name: 'vault-reconciliation',
    intervalMs: 5_000,
    async run() {
      let scanError: unknown;
      await scanVaultTransfers(deps).catch((error: unknown) => {
        scanError = error;
      });
      // Queued transfers are settled even when the chain scan could not move this time.
      await settleVaultTransfers(deps);
      if (scanError) throw scanError;
    },
  };
}

async function scanVaultTransfers(deps: ReconcileDeps): Promise<{ scannedTo: bigint | null }> {
  const head = await finalHead(deps);
  const cursor = await readChainCursor(deps.db, CURSOR);
  let next = cursor !== undefined ? cursor + 1n : deps.startFrom === 'latest' ? head : 0n;
  const maxBlocks = BigInt(deps.maxBlocks ?? 200);
  const last = head < next + maxBlocks - 1n ? head : next + maxBlocks - 1n;
  let scannedTo: bigint | null = null;
  for (; next <= last; next++) {
    const block = await deps.chain.getBlock({ blockNumber: next, includeTransactions: true });
    if (!block.hash) throw new Error(`block ${next} has no hash yet`);
    const blockTime = new Date(Number(block.timestamp) * 1000);
    const inbound = block.transactions.filter((tx) => isInboundPayment(deps, tx));
    // Most transfers were posted by their browser and are payments already: only the rest queue.
    const known = await findKnownPaymentHashes(
      deps.db,
      deps.chainId,
      inbound.map((tx) => tx.hash.toLowerCase()),
    );
    const queued = inbound
      .filter((tx) => !known.has(tx.hash.toLowerCase()))
      .map((tx) => ({
        chainId: deps.chainId,
        txHash: tx.hash.toLowerCase(),
        fromAddress: tx.from.toLowerCase(),
        amount: tx.value,
        input: tx.input,
        blockNumber: next,
        blockHash: block.hash ?? '',
        blockTime,
        nextAttemptAt: deps.clock.now(),
      }));
    // One statement pair in one transaction: the cursor never passes a block whose transfers are not queued.
    await deps.db.transaction((tx) => queueBlockTransfers(tx, { name: CURSOR, blockNumber: next }, queued));
    scannedTo = next;
  }
  return { scannedTo };
}

/**
 * Money that came in to the vault from someone who may have meant a bet. Transfers from the vault
 * itself, and top-ups from an operator address, are neither bets nor refunds (review F21).
 */
function isInboundPayment(deps: ReconcileDeps, tx: Transaction): boolean {
  const vault = deps.vaultAddress.toLowerCase();
  if (!tx.to || tx.to.toLowerCase() !== vault || tx.value === 0n) return false;
  const from = tx.from.toLowerCase();
  if (from === vault) return false;
  if (deps.operatorAddresses?.some((operator) => operator.toLowerCase() === from)) {
    deps.logger.info(
      { txHash: tx.hash, from, amountWei: tx.value.toString() },
      'vault top-up by an operator',
    );
    return false;
  }
  return true;
}

/** Settles queued transfers one at a time; a transfer's failure is written on its row, never thrown. */
async function settleVaultTransfers(deps: ReconcileDeps): Promise<number> {
  let settled = 0;
  for (let n = 0; n < (deps.maxTransfers ?? 50); n++) {
    const row = await claimNext(deps);
    if (!row) break;
    try {
      await settleTransfer(deps, row);
      settled++;
    } catch (error) {
      const transient = isTransientError(error);
      deps.logger[transient ? 'warn' : 'error'](
        { err: error, txHash: row.tx_hash, attempts: row.attempts },
        'settling a vault transfer failed; it is retried later',
      );
      await retryLater(deps, row, describeError(error));
    }
  }
  return settled;
}

async function claimNext(deps: ReconcileDeps): Promise<ClaimedVaultTransfer | undefined> {
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + LEASE_S * 1000);
  return claimNextVaultTransfer(deps.db, { chainId: deps.chainId, now, leaseUntil });
}

/**
 * One transfer: already a payment → done; a request kept for it (a 202, or a create whose browser
 * posted) or a bet/round intent → recorded through the endpoint's own logic, which keeps refused
 * money as a refund; no usable intent → its grace, then a refund. Whatever the handler says, the
 * payments table decides: if the transfer is not a payment afterwards, only a passing fault (or a
 * payment not final yet) leaves it so, to be retried; any refusal or other error keeps the money
 * as a refund owed.
 */
async function settleTransfer(deps: ReconcileDeps, row: ClaimedVaultTransfer): Promise<void> {
  if (await paymentStatus(deps, row.tx_hash)) return resolve(deps, row, 'known');
  if (!isHash(row.tx_hash)) return resolve(deps, row, 'invalid_hash');
  const receipt = await deps.chain.getTransactionReceipt({ hash: row.tx_hash }).catch((error: unknown) => {
    // It was in a final block: a missing receipt is a lagging node, not a refusal.
    if (error instanceof TransactionReceiptNotFoundError) {
      throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
    }
    throw error;
  });
  if (receipt.status !== 'success') return resolve(deps, row, 'reverted'); // moved no money

  const intent = decodeIntent(row.input);
  let outcome: RecordOutcome;
  let refusal: unknown = null;
  try {
    outcome = await record(deps, row, intent);
  } catch (error) {
    outcome = 'refused';
    refusal = error;
  }
  if (outcome === 'waiting') return;

  const status = await paymentStatus(deps, row.tx_hash);
  if (status) return resolve(deps, row, status);
  if (refusal && isTransientError(refusal)) throw refusal;
  if (outcome === 'pending') throw new AppError('CHAIN_UNAVAILABLE', 'The payment is not final yet.');
  if (refusal && !(refusal instanceof AppError)) {
    deps.logger.error({ err: refusal, txHash: row.tx_hash }, 'recording a vault transfer failed');
  }
  const reason =
    refusal instanceof AppError
      ? refusal.code
      : refusal
        ? 'RECORD_FAILED'
        : intent?.kind === 'create'
          ? 'UNCLAIMED_CREATE'
          : // A bond's intent names the market, not the reason and signature a flag needs (issue 22).
            intent?.kind === 'flag'
            ? 'UNCLAIMED_FLAG_BOND'
            : 'NO_INTENT';
  await insertRefundDuePayment(deps.db, {
    chainId: deps.chainId,
    payment: {
      txHash: row.tx_hash,
      from: normalizeAddress(row.from_address),
      amountWei: row.amount,
      intentText: intent ? intentText(intent) : '',
      blockNumber: receipt.blockNumber,
      blockTime: row.block_time,
    },
    purpose: intent ? PURPOSE_OF_INTENT[intent.kind] : 'unknown',
    reason,
  });
  // A handler's refusal went through acceptPayment, which counted it.
  if (!refusal) deps.metrics?.countPayment(reason);
  deps.logger.info(
    { txHash: row.tx_hash, from: row.from_address, reason },
    'vault transfer kept as a refund',
  );
  return resolve(deps, row, 'refund_due');
}

const PURPOSE_OF_INTENT: Record<PaymentIntent['kind'], PaymentPurpose> = {
  create: 'market_create',
  bet: 'market_bet',
  round: 'oracle_bet',
  flag: 'market_flag',
};

/**
 * recorded / pending: a handler ran and answered so; refused: a handler threw; waiting: a create
 * (which carries only a hash of its text) or a plain transfer is within its grace for the
 * browser's request; unmatched: past that grace, with nothing to record it from.
 */
type RecordOutcome = 'recorded' | 'pending' | 'refused' | 'waiting' | 'unmatched';

async function record(
  deps: ReconcileDeps,
  row: ClaimedVaultTransfer,
  intent: PaymentIntent | null,
): Promise<RecordOutcome> {
  const stored = await findPaymentRequest(deps.db, deps.chainId, row.tx_hash);
  const purpose = PurposeSchema.safeParse(stored?.purpose);
  const storedHandler = purpose.success ? deps.handlers[purpose.data] : undefined;
  if (stored && storedHandler) return storedHandler(stored.request);
  if (intent?.kind === 'bet' && deps.handlers.market_bet) {
    const body = {
      txHash: row.tx_hash,
      userAddress: row.from_address,
      prediction: intent.prediction,
      amountWei: row.amount.toString(),
    };
    return deps.handlers.market_bet({ marketId: intent.marketId, body });
  }
  if (intent?.kind === 'round' && deps.handlers.oracle_bet) {
    return deps.handlers.oracle_bet({
      epoch: intent.epoch,
      position: intent.position,
      amountWei: row.amount.toString(),
      userAddress: row.from_address,
      txHash: row.tx_hash,
    });
  }
  const graceEndsAt = row.block_time.getTime() + (deps.graceS ?? UNMATCHED_TRANSFER_GRACE_S) * 1000;
  if (deps.clock.now().getTime() >= graceEndsAt) return 'unmatched';
  await deferVaultTransfer(deps.db, row.id, new Date(graceEndsAt));
  return 'waiting';
}

const PurposeSchema = z.enum(['market_create', 'market_bet', 'oracle_bet', 'market_flag']);

async function paymentStatus(deps: ReconcileDeps, txHash: string): Promise<string | undefined> {
  return findPaymentStatus(deps.db, deps.chainId, txHash);
}

async function resolve(deps: ReconcileDeps, row: ClaimedVaultTransfer, outcome: string): Promise<void> {
  await resolveVaultTransfer(deps.db, row.id, outcome, deps.clock.now());
}

async function retryLater(deps: ReconcileDeps, row: ClaimedVaultTransfer, lastError: string): Promise<void> {
  const backoffS = Math.min(3600, 5 * 2 ** Math.min(row.attempts, 10));
  await retryVaultTransferAt(
    deps.db,
    row.id,
    new Date(deps.clock.now().getTime() + backoffS * 1000),
    lastError,
  ).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not record a vault transfer failure'));
}

async function finalHead(deps: ReconcileDeps): Promise<bigint> {
  if (deps.confirmations === 'finalized') {
    const block = await deps.chain.getBlock({ blockTag: 'finalized' });
    return block.number ?? 0n;
  }
  const latest = await deps.chain.getBlockNumber({ cacheTime: 0 });
  return latest - BigInt(deps.confirmations - 1);
}

import { normalizeAddress } from '@pm/core/address';
import { UNMATCHED_DEPOSIT_GRACE_S } from '@pm/core/constants';
import type { JoinMarketBody } from '@pm/core/contract/markets';
import type { PlaceOracleBetBody } from '@pm/core/contract/oracle';
import { DEPOSIT_KIND, type DepositTerms, depositTerms } from '@pm/escrow/deposit-terms';
import type { FastifyBaseLogger } from 'fastify';
import type { Hex, PublicClient } from 'viem';
import type { Clock } from '../../chain/clock.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import { describeError } from '../../errors/describe-error.ts';
import { isTransientError } from '../../errors/transient-error.ts';
import type { Job } from '../../jobs/job-runner.ts';
import type { EscrowDepositKind, Metrics } from '../../metrics/metrics.ts';
import type { OperatorSenderDeps } from '../../operator-sender/operator-sender-deps.ts';
import { queueSettlementAfterRefusedDispute } from '../settlements/dispute-settlement-repository.ts';
import { decodeDeposits } from './deposit-events.ts';
import {
  type ClaimedEscrowDeposit,
  claimNextEscrowDeposit,
  deferEscrowDeposit,
  findKnownStakeIds,
  findStakePaymentStatus,
  queueScannedDeposits,
  readChainCursor,
  resolveEscrowDeposit,
  retryEscrowDepositAt,
} from './escrow-deposits-repository.ts';
import { processEscrowRefunds } from './escrow-refunds.ts';
import { insertEscrowRefund } from './escrow-refunds-repository.ts';
import { scanFinalDeposits } from './scan-deposits.ts';
import type { PaymentPurpose } from './verified-payment.ts';

const CURSOR = 'escrow-deposits';
/** A deposit being settled is leased this long, so another instance leaves it alone meanwhile. */
const LEASE_S = 120;

/** How the oracle records a round deposit nobody posted (the oracle module gives these). */
export type RoundDeposits = {
  /** The round whose escrow key this is, among those a deposit made at `blockTime` can be for; else null. */
  epochOfKey(key: Hex, blockTime: Date): Promise<number | null>;
  /** Records the deposit as the bet its event states, through POST /api/oracle/bets' own logic. */
  record(body: PlaceOracleBetBody, stakeId: bigint): Promise<'recorded' | 'pending'>;
};

/** How markets record a creation or a bet deposit nobody posted (the markets module gives these). */
export type MarketDeposits = {
  /** The market whose escrow key this is (a bet's deposit names it); else null. */
  marketOfKey(key: Hex): Promise<number | null>;
  /** Records the deposit as the bet its event states, through POST /api/markets/:id/bets' own logic. */
  recordBet(marketId: number, body: JoinMarketBody, stakeId: bigint): Promise<'recorded' | 'pending'>;
  /**
   * A creation's content is off chain: only a request kept for its transaction (a 202 the
   * pending-payments job replays) can make it a market, through POST /api/markets' own logic; null
   * when no such request is kept.
   */
  recordCreation(txHash: Hex, stakeId: bigint): Promise<'recorded' | 'pending' | null>;
};

export type EscrowReconcileDeps = {
  db: Db;
  chain: PublicClient;
  chainId: number;
  escrowAddress: `0x${string}`;
  confirmations: number | 'finalized';
  clock: Clock;
  logger: FastifyBaseLogger;
  rounds: RoundDeposits;
  /** Market creations and bets (kinds 1 and 2); absent: left as other kinds. */
  markets?: MarketDeposits;
  /** The operator key's sender, for refundStake; null without OPERATOR_PRIVATE_KEY (refunds wait). */
  sender: OperatorSenderDeps | null;
  /**
   * How long a deposit whose round or market is not known (or a creation nobody posted) may wait for it
   * before it is refunded.
   */
  graceS?: number;
  /** Blocks scanned per run (in `eth_getLogs` calls of `maxBlockSpan`), so one run stays short. */
  maxBlocks?: number;
  maxBlockSpan?: number;
  /** Deposits settled per run. */
  maxDeposits?: number;
  /**
   * The first block a first run reads: the escrow's deployment block (ESCROW_DEPLOY_BLOCK), so a
   * deposit made before the server first started is recorded or refunded like any other.
   */
  startFrom: bigint;
  metrics?: Pick<Metrics, 'countEscrowDeposit' | 'recordEscrowScanLag'>;
};

/**
 * docs/architecture.md "Payment verification", deposits: every deposit into the escrow is eventually a
 * bet, refused and given back, or (another kind's, not this slice's) left for its own path, even if
 * nobody posted it, in steps no deposit can stop:
 * 1. the scan reads final blocks' `Deposited` events from a cursor (scanFinalDeposits) and queues
 *    every stake not already a payment; only failing to read holds the cursor (a passing RPC fault);
 * 2. each queued deposit is settled on its own, its failures kept on its row;
 * 3. refused deposits are given back (escrow-refunds.ts).
 */
export function createEscrowReconciliationJob(deps: EscrowReconcileDeps): Job {
  return {
    name: 'escrow-reconciliation',
    intervalMs: 5_000,
    async run() {
      let scanError: unknown;
      await scanDeposits(deps).catch((error: unknown) => {
        scanError = error;
      });
      // Queued deposits are settled and refunds moved even when the chain scan could not move.
      await settleDeposits(deps);
      await processEscrowRefunds({ ...deps, logger: deps.logger });
      if (scanError) throw scanError;
    },
  };
}

async function scanDeposits(deps: EscrowReconcileDeps): Promise<void> {
  const cursor = await readChainCursor(deps.db, CURSOR);
  const fromBlock = cursor === undefined ? deps.startFrom : cursor + 1n;
  const toBlock = fromBlock + BigInt(deps.maxBlocks ?? 2_000) - 1n;
  const scan = await scanFinalDeposits(
    {
      client: deps.chain,
      escrowAddress: deps.escrowAddress,
      confirmations: deps.confirmations,
      ...(deps.maxBlockSpan ? { maxBlockSpan: deps.maxBlockSpan } : {}),
    },
    { fromBlock, toBlock },
  );
  if (scan.finalHeight !== null) {
    deps.metrics?.recordEscrowScanLag('deposits', scan.finalHeight - (scan.scannedTo ?? fromBlock - 1n));
  }
  if (scan.scannedTo === null) return;
  // Most deposits were posted by their browser and are payments already: only the rest queue.
  const known = await findKnownStakeIds(
    deps.db,
    deps.chainId,
    scan.deposits.map((deposit) => deposit.stakeId),
  );
  const queued = scan.deposits
    .filter((deposit) => !known.has(deposit.stakeId))
    .map((deposit) => ({
      chainId: deps.chainId,
      stakeId: deposit.stakeId,
      txHash: deposit.txHash.toLowerCase(),
      logIndex: deposit.logIndex,
      owner: deposit.owner.toLowerCase(),
      amount: deposit.amountWei,
      marketKey: deposit.key.toLowerCase(),
      kind: deposit.kind,
      side: deposit.side,
      terms: deposit.terms.toLowerCase(),
      blockNumber: deposit.blockNumber,
      blockHash: deposit.blockHash,
      blockTime: deposit.blockTime,
      nextAttemptAt: deps.clock.now(),
    }));
  const scannedTo = scan.scannedTo;
  await deps.db.transaction((tx) =>
    queueScannedDeposits(tx, { name: CURSOR, blockNumber: scannedTo }, queued),
  );
}

/** Settles queued deposits one at a time; a deposit's failure is written on its row, never thrown. */
async function settleDeposits(deps: EscrowReconcileDeps): Promise<void> {
  for (let n = 0; n < (deps.maxDeposits ?? 50); n++) {
    const now = deps.clock.now();
    const row = await claimNextEscrowDeposit(deps.db, {
      chainId: deps.chainId,
      now,
      leaseUntil: new Date(now.getTime() + LEASE_S * 1000),
    });
    if (!row) break;
    try {
      await settleDeposit(deps, row);
    } catch (error) {
      const transient = isTransientError(error);
      deps.logger[transient ? 'warn' : 'error'](
        { err: error, stakeId: row.stake_id.toString(), txHash: row.tx_hash, attempts: row.attempts },
        'settling an escrow deposit failed; it is retried later',
      );
      const backoffS = Math.min(3600, 5 * 2 ** Math.min(row.attempts, 10));
      await retryEscrowDepositAt(
        deps.db,
        row.id,
        new Date(deps.clock.now().getTime() + backoffS * 1000),
        describeError(error),
      ).catch((retryError: unknown) =>
        deps.logger.warn({ err: retryError }, 'could not record an escrow deposit failure'),
      );
    }
  }
}

/**
 * One deposit: already a payment → done. Terms the app never sends → refused and given back. A round
 * bet, a market bet or a market creation → recorded from its event (a creation from the request kept
 * for it: its content is off chain) through the endpoint's own logic (which keeps a refusal as owed
 * back), or, its round or market unknown (a creation nobody posted) past the grace, refused and given
 * back. Another kind (a flag's bond) → left for its own path (logged and counted). Whatever the
 * handler says, the payments table decides: a stake that is not a payment afterwards is retried after
 * a passing fault (or a payment not final yet), and refused otherwise.
 */
async function settleDeposit(deps: EscrowReconcileDeps, row: ClaimedEscrowDeposit): Promise<void> {
  if (await stakeStatus(deps, row)) return resolve(deps, row, 'known');
  const terms = depositTerms({
    // The event names the market by its key only; the codes are what is checked here.
    market: row.market_key as Hex,
    closesAt: 1,
    kind: row.kind,
    side: row.side,
    terms: row.terms as Hex,
  });
  if (!terms) return refuse(deps, row, 'INVALID_TERMS', 'unknown', 'invalid');
  if (terms.kind === 'round') return settleRoundDeposit(deps, row, terms);
  if (terms.kind === 'flag') return settleFlagDeposit(deps, row);
  if (terms.kind === 'bet' && deps.markets) return settleMarketBet(deps, row, deps.markets, terms);
  if (terms.kind === 'create' && deps.markets) return settleCreation(deps, row, deps.markets);
  deps.metrics?.countEscrowDeposit(terms.kind, 'left');
  deps.logger.warn(
    { stakeId: row.stake_id.toString(), txHash: row.tx_hash, kind: terms.kind, owner: row.owner },
    'an escrow deposit of a kind reconciliation does not handle is left for its own path',
  );
  return resolve(deps, row, 'other_kind');
}

async function settleRoundDeposit(
  deps: EscrowReconcileDeps,
  row: ClaimedEscrowDeposit,
  terms: Extract<DepositTerms, { kind: 'round' }>,
): Promise<void> {
  const epoch = await deps.rounds.epochOfKey(row.market_key as Hex, row.block_time);
  if (epoch === null) return waitOrRefuse(deps, row, 'ROUND_NOT_FOUND', 'oracle_bet', 'round');
  return recordDeposit(deps, row, 'oracle_bet', 'round', () =>
    deps.rounds.record(
      {
        epoch,
        position: terms.position,
        amountWei: row.amount.toString(),
        userAddress: normalizeAddress(row.owner),
        txHash: row.tx_hash as Hex,
      },
      row.stake_id,
    ),
  );
}

async function settleMarketBet(
  deps: EscrowReconcileDeps,
  row: ClaimedEscrowDeposit,
  markets: MarketDeposits,
  terms: Extract<DepositTerms, { kind: 'bet' }>,
): Promise<void> {
  const marketId = await markets.marketOfKey(row.market_key as Hex);
  if (marketId === null) return waitOrRefuse(deps, row, 'MARKET_NOT_FOUND', 'market_bet', 'bet');
  return recordDeposit(deps, row, 'market_bet', 'bet', () =>
    markets.recordBet(
      marketId,
      {
        txHash: row.tx_hash,
        userAddress: normalizeAddress(row.owner),
        prediction: terms.prediction,
        amountWei: row.amount.toString(),
      },
      row.stake_id,
    ),
  );
}

/** A creation nobody posted: its content is off chain, so no market can be made of it. */
class CreationNotPosted extends Error {
  override name = 'CreationNotPosted';
}

async function settleCreation(
  deps: EscrowReconcileDeps,
  row: ClaimedEscrowDeposit,
  markets: MarketDeposits,
): Promise<void> {
  return recordDeposit(deps, row, 'market_create', 'create', async () => {
    const outcome = await markets.recordCreation(row.tx_hash as Hex, row.stake_id);
    if (outcome === null) throw new CreationNotPosted('no request was posted for this creation');
    return outcome;
  });
}

/** A deposit whose round or market is not known waits the grace for it, then is refused and given back. */
async function waitOrRefuse(
  deps: EscrowReconcileDeps,
  row: ClaimedEscrowDeposit,
  reason: string,
  purpose: PaymentPurpose,
  kind: EscrowDepositKind,
): Promise<void> {
  const graceEndsAt = row.block_time.getTime() + (deps.graceS ?? UNMATCHED_DEPOSIT_GRACE_S) * 1000;
  if (deps.clock.now().getTime() < graceEndsAt) {
    return deferEscrowDeposit(deps.db, row.id, new Date(graceEndsAt));
  }
  return refuse(deps, row, reason, purpose, kind);
}

/**
 * Records a deposit through its endpoint's own logic (`record`, pinned to the stake), then reads what
 * the payments table says of the stake: a payment (recorded, or refused and kept as owed back) ends it;
 * otherwise a passing fault or a payment not final yet is retried, and anything else refused here.
 */
async function recordDeposit(
  deps: EscrowReconcileDeps,
  row: ClaimedEscrowDeposit,
  purpose: PaymentPurpose,
  kind: EscrowDepositKind,
  record: () => Promise<'recorded' | 'pending'>,
): Promise<void> {
  let outcome: 'recorded' | 'pending' | 'refused';
  let refusal: unknown = null;
  try {
    outcome = await record();
  } catch (error) {
    outcome = 'refused';
    refusal = error;
  }
  const status = await stakeStatus(deps, row);
  if (status) {
    deps.metrics?.countEscrowDeposit(kind, status === 'recorded' ? 'recorded' : 'refused');
    return resolve(deps, row, status);
  }
  if (refusal && isTransientError(refusal)) throw refusal;
  if (outcome === 'pending') throw new AppError('CHAIN_UNAVAILABLE', 'The deposit is not final yet.');
  // Its browser's request may still come within the grace; past it, it is given back.
  if (refusal instanceof CreationNotPosted) {
    return waitOrRefuse(deps, row, 'CREATION_NOT_POSTED', purpose, kind);
  }
  if (refusal && !(refusal instanceof AppError)) {
    deps.logger.error({ err: refusal, txHash: row.tx_hash }, 'recording an escrow deposit failed');
  }
  // Refused before any payment was kept (its event said one thing, the check another): given back.
  return refuse(deps, row, refusal instanceof AppError ? refusal.code : 'RECORD_FAILED', purpose, kind);
}

/**
 * A flag's bond nobody posted (decision 026, "Flag bonds"): a flag is a signed reason the deposit
 * alone does not carry, so reconciliation cannot record one. Its request may still come (or wait,
 * 202, for the pending-payments job) within the grace; past it the bond is refused and given back
 * (UNCLAIMED_FLAG_BOND), and if it disputed a pending settlement, that settlement is queued again.
 */
async function settleFlagDeposit(deps: EscrowReconcileDeps, row: ClaimedEscrowDeposit): Promise<void> {
  const graceEndsAt = row.block_time.getTime() + (deps.graceS ?? UNMATCHED_DEPOSIT_GRACE_S) * 1000;
  if (deps.clock.now().getTime() < graceEndsAt)
    return deferEscrowDeposit(deps.db, row.id, new Date(graceEndsAt));
  return refuse(deps, row, 'UNCLAIMED_FLAG_BOND', 'market_flag', 'flag');
}

/**
 * Whether the deposit disputed its market's pending settlement: its final receipt holds our escrow's
 * `Disputed` for the stake (the queue keeps the `Deposited` event's fields only). A round's key never
 * holds a pending settlement a deposit could reach, so rounds are not read.
 */
async function disputed(deps: EscrowReconcileDeps, row: ClaimedEscrowDeposit): Promise<boolean> {
  if (row.kind === DEPOSIT_KIND.round) return false;
  let receipt: Awaited<ReturnType<PublicClient['getTransactionReceipt']>>;
  try {
    receipt = await deps.chain.getTransactionReceipt({ hash: row.tx_hash as Hex });
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
  const deposit = decodeDeposits(receipt.logs, deps.escrowAddress, () => row.block_time).find(
    (candidate) => candidate.stakeId === row.stake_id,
  );
  return deposit?.disputes != null;
}

/**
 * Keeps a deposit we refuse here as owed back by the escrow (escrow_refunds), and resolves its row. A
 * refused deposit that disputed a pending settlement (a flag's bond, or any deposit of at least the
 * bond) queues that settlement again, same verdict, once nobody's accepted flag holds it.
 */
async function refuse(
  deps: EscrowReconcileDeps,
  row: ClaimedEscrowDeposit,
  reason: string,
  purpose: PaymentPurpose | 'unknown',
  kind: EscrowDepositKind,
): Promise<void> {
  await insertEscrowRefund(deps.db, {
    chainId: deps.chainId,
    payment: {
      txHash: row.tx_hash as Hex,
      from: normalizeAddress(row.owner),
      amountWei: row.amount,
      intentText: '',
      blockNumber: row.block_number,
      blockTime: row.block_time,
      deposit: { stakeId: row.stake_id, logIndex: row.log_index, marketKey: row.market_key as Hex },
    },
    purpose,
    reason,
    now: deps.clock.now(),
  });
  if (await disputed(deps, row)) {
    const requeued = await queueSettlementAfterRefusedDispute(deps.db, {
      marketKey: row.market_key,
      now: deps.clock.now(),
    });
    deps.logger.info(
      { stakeId: row.stake_id.toString(), market: row.market_key, requeued },
      'a refused deposit disputed its market’s pending settlement: the settlement is queued again',
    );
  }
  deps.metrics?.countEscrowDeposit(kind, 'refused');
  deps.logger.info(
    { stakeId: row.stake_id.toString(), txHash: row.tx_hash, owner: row.owner, reason },
    'escrow deposit refused: it is given back to its owner',
  );
  return resolve(deps, row, (await stakeStatus(deps, row)) ?? 'escrow_refund');
}

function stakeStatus(deps: EscrowReconcileDeps, row: ClaimedEscrowDeposit): Promise<string | undefined> {
  return findStakePaymentStatus(deps.db, deps.chainId, row.stake_id);
}

async function resolve(deps: EscrowReconcileDeps, row: ClaimedEscrowDeposit, outcome: string): Promise<void> {
  await resolveEscrowDeposit(deps.db, row.id, outcome, deps.clock.now());
}

import { toPayoutList } from '@pm/escrow/payout-list';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { buildSettlement, settleArgs } from '@pm/escrow/settlement';
import type { FastifyBaseLogger } from 'fastify';
import { type Address, encodeFunctionData, getAddress, type Hex, type PublicClient } from 'viem';
import type { Db } from '../../db/client.ts';
import { describeError } from '../../errors/describe-error.ts';
import type { Job } from '../../jobs/job-runner.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { findOperatorTx } from '../../operator-sender/operator-transactions-repository.ts';
import { type SubmitDeps, submitOperatorAction } from '../../operator-sender/submit-operator-action.ts';
import { listRefusedDepositsInPool } from '../deposits/escrow-refunds-repository.ts';
import { MARKET_STATE, readEscrowMarket, readMinPayoutDelay, settlementIn } from '../escrow-chain.ts';
import { OPERATOR_DECIDES } from './dispute-settlement-repository.ts';
import {
  listSettlementsToAdvance,
  markOverdueSettlements,
  markSettled,
  type PayoutListRow,
  publishSettlement,
  recordSettlementError,
  settlementDueAgain,
} from './payout-lists-repository.ts';
import { type PlanFees, planSettlement, SettlementNotReady } from './settlement-plans.ts';

// docs/architecture.md "Rounds on the escrow" and "Markets on the escrow": one settlement on the
// escrow, an oracle round's or a Predictions market's, from due to final on chain. The round engine's
// or the market's settling transaction records it as due; this job reads the market's pool on the
// escrow, builds the payout list (buildSettlement over stake id → payout, settlement-plans.ts; the fee
// with the rounding dust so payoutTotal + fee is the pool to the wei), and in one transaction queues
// the operator's `settle` (or `settleAsRefund`) and publishes the list. The operator sender's job
// signs and sends it; once it is final this job records when payouts open. One row's failure is
// written on it and the job goes on; a transient fault is retried at the next try, a failed action is
// built again later.

/** Gas caps: `settle` measures 116,645 (decision 025), `settleAsRefund` less. */
export const SETTLE_GAS_CAP = 300_000n;
export const SETTLE_AS_REFUND_GAS_CAP = 200_000n;
/** The contract's MAX_PAYOUT_DELAY (7 days): a longer review window is posted as this. */
const MAX_PAYOUT_DELAY_S = 7 * 86_400;
const FIRST_RETRY_MS = 15_000;
const MAX_RETRY_MS = 600_000;
const BATCH = 20;
/**
 * How long a settlement normally takes from due to final: a reconciliation run or two for a pool
 * that does not match yet, a minute for its transaction (repriced after OPERATOR_TX_REPLACE_AFTER_MS).
 * One not final this long after it was due is overdue: logged as an error and counted once
 * (bnbpredict_escrow_settlements_overdue_total, alert EscrowSettlementOverdue), and its waits are
 * logged as errors from then on.
 */
export const SETTLEMENT_EXPECTED_S = 600;

export type EscrowSettlementDeps = {
  db: Db;
  chain: PublicClient;
  chainId: number;
  escrow: Address;
  /** The operator key's submit: its lane and metrics. */
  sender: SubmitDeps;
  /** ORACLE_FEE_BPS and MARKET_FEE_BPS: each settlement's fee (within `fee`, with the rounding dust). */
  fees: PlanFees;
  now: () => Date;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  metrics?: Pick<Metrics, 'countSettlementWait' | 'countSettlementOverdue' | 'countSettlementFailure'>;
};

export type SettlementStepSummary = { published: number; settled: number; failed: number };

/** One step: every due settlement whose time has come and every published one, each on its own. */
export async function advanceEscrowSettlements(deps: EscrowSettlementDeps): Promise<SettlementStepSummary> {
  const summary: SettlementStepSummary = { published: 0, settled: 0, failed: 0 };
  const rows = await listSettlementsToAdvance(deps.db, deps.now(), BATCH);
  for (const row of rows) {
    try {
      if (row.status === 'due') {
        if (await publish(deps, row)) summary.published += 1;
      } else if (await follow(deps, row)) summary.settled += 1;
    } catch (error) {
      summary.failed += 1;
      const message = describeError(error);
      const fields = { err: error, ...rowFields(row) };
      if (error instanceof SettlementNotReady) {
        deps.metrics?.countSettlementWait(error.reason);
        if (row.overdueAt !== null)
          deps.log?.error(fields, 'escrow settlement waits past its expected time; retried later');
        else deps.log?.warn(fields, 'escrow settlement waits; retried later');
      } else {
        deps.metrics?.countSettlementFailure('step_failed');
        deps.log?.error(fields, 'escrow settlement step failed; retried later');
      }
      await recordSettlementError(deps.db, row.id, {
        error: message,
        nextAttemptAt: retryAt(deps, row.attempts),
      }).catch(() => undefined);
    }
  }
  await reportOverdue(deps);
  return summary;
}

/**
 * Every settlement that has just passed its expected time without being final, whatever its job is
 * doing with it (waiting on its pool, backing off after a failure, its transaction in flight): logged
 * as an error with what it last ran into, and counted, once each across instances.
 */
async function reportOverdue(deps: EscrowSettlementDeps): Promise<void> {
  const overdue = await markOverdueSettlements(deps.db, {
    expectedS: SETTLEMENT_EXPECTED_S,
    heldUntil: OPERATOR_DECIDES,
  }).catch((error: unknown) => {
    deps.log?.warn(
      { err: error },
      'could not look for overdue escrow settlements; looked for at the next step',
    );
    return [];
  });
  for (const row of overdue) {
    const stage = row.status === 'due' ? 'unsent' : 'unconfirmed';
    deps.metrics?.countSettlementOverdue(stage);
    const ageS = Math.round(((row.overdueAt ?? new Date()).getTime() - row.createdAt.getTime()) / 1000);
    deps.log?.error(
      {
        ...rowFields(row),
        stage,
        ageS,
        attempts: row.attempts,
        operatorTxId: row.operatorTxId,
        lastError: row.lastError,
      },
      stage === 'unsent'
        ? `escrow settlement overdue: not sent ${ageS} s after it was due (${row.lastError ?? 'no error recorded'})`
        : `escrow settlement overdue: its transaction is not final ${ageS} s after it was due`,
    );
  }
}

export function createEscrowSettlementsJob(deps: EscrowSettlementDeps, intervalMs = 2_000): Job {
  return {
    name: 'escrow-settlements',
    intervalMs,
    async run() {
      await advanceEscrowSettlements(deps);
    },
  };
}

function rowFields(row: PayoutListRow) {
  return { marketKey: row.marketKey, epoch: row.epoch, marketId: row.predictionMarketId };
}

function retryAt(deps: Pick<EscrowSettlementDeps, 'now'>, attempts: number): Date {
  const wait = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempts, 10));
  return new Date(deps.now().getTime() + wait);
}

/**
 * A due settlement: the market's pool is read from the escrow and must be what the server recorded
 * (its stakes' amounts, and the refused deposits still in it): else a deposit the server has not
 * recorded yet is there and the settlement waits, never sweeping it into the fee. Then the list is
 * built, the action queued and the list published, in one transaction. A refused deposit still being
 * given back (refundStake queued or sent) is waited for; one whose refund failed is a full-amount leaf.
 * A settlement built again (a verdict amended while pending) waits for its previous action to be
 * final, so the amendment is mined after it.
 */
async function publish(deps: EscrowSettlementDeps, row: PayoutListRow): Promise<boolean> {
  const key = row.marketKey as Hex;
  const market = await readEscrowMarket(deps.chain, deps.escrow, key);
  if (market.state === MARKET_STATE.none) {
    throw new SettlementNotReady(
      `the escrow has no deposit under market ${key}, though its bets name stakes there: is ESCROW_ADDRESS the contract they paid?`,
    );
  }
  if (row.operatorTxId !== null) {
    const previous = await findOperatorTx(deps.db, row.operatorTxId);
    if (
      previous &&
      (previous.status === 'queued' || previous.status === 'signed' || previous.status === 'sent')
    ) {
      throw new SettlementNotReady(
        `the previous settlement action ${previous.id} of market ${key} is still in flight: the new one waits for it`,
      );
    }
  }
  const plan = await planSettlement(deps.db, row, deps.fees, deps.now());
  const refused = await listRefusedDepositsInPool(deps.db, deps.chainId, key);
  // A refused deposit still being given back by refundStake goes first: settled before it, it would
  // be a leaf of the list that nothing relays (its owner could only claim it by hand).
  const givingBack = refused.filter(
    (deposit) => deposit.status === 'queued' || deposit.status === 'refunding',
  );
  if (market.state === MARKET_STATE.open && givingBack.length > 0) {
    throw new SettlementNotReady(
      `${givingBack.length} refused deposit(s) in market ${key} are being given back by refundStake: the settlement waits for them`,
    );
  }
  const recorded =
    plan.stakes.reduce((sum, stake) => sum + stake.amount, 0n) +
    refused.reduce((sum, deposit) => sum + deposit.amountWei, 0n);
  if (market.state === MARKET_STATE.open && market.pool !== recorded) {
    throw new SettlementNotReady(
      `the escrow holds ${market.pool} wei in market ${key}, the server's records ${recorded} wei ` +
        '(its stakes and the refused deposits not refunded yet): waiting for the deposits to be recorded',
      'pool_mismatch',
    );
  }

  let data: Hex;
  let gasCap: bigint;
  let delay: number | null = null;
  let list: Parameters<typeof publishSettlement>[3]['list'] = null;
  if (row.refund) {
    data = encodeFunctionData({
      abi: predictionEscrowAbi,
      functionName: 'settleAsRefund',
      args: [key, row.outcome, row.verdictHash as Hex],
    });
    gasCap = SETTLE_AS_REFUND_GAS_CAP;
  } else {
    const payouts = [
      ...plan.stakes.flatMap((stake) =>
        stake.payout > 0n ? [{ stakeId: stake.stakeId, amount: stake.payout }] : [],
      ),
      // A refused deposit is paid back in full as a leaf (decision 025).
      ...refused.map((deposit) => ({ stakeId: deposit.stakeId, amount: deposit.amountWei })),
    ];
    const settlement = buildSettlement({ pool: market.pool, payouts, fee: plan.ruleFee });
    const minimum = await readMinPayoutDelay(deps.chain, deps.escrow);
    delay = plan.delayS === null ? minimum : Math.min(MAX_PAYOUT_DELAY_S, Math.max(minimum, plan.delayS));
    const document = toPayoutList({
      chainId: deps.chainId,
      escrow: getAddress(deps.escrow),
      market: { id: row.marketId as Hex, closesAt: row.closesAt },
      outcome: row.outcome,
      verdictHash: row.verdictHash as Hex,
      settlement,
      stakes: [
        ...plan.stakes.map((stake) => ({
          stakeId: stake.stakeId,
          owner: getAddress(stake.owner),
          amount: stake.amount,
          market: key,
        })),
        ...refused.map((deposit) => ({
          stakeId: deposit.stakeId,
          owner: getAddress(deposit.owner),
          amount: deposit.amountWei,
          market: key,
        })),
      ],
    });
    data = encodeFunctionData({
      abi: predictionEscrowAbi,
      functionName: 'settle',
      args: settleArgs(settlement, {
        marketKey: key,
        outcome: row.outcome,
        verdictHash: row.verdictHash as Hex,
        delay,
      }),
    });
    gasCap = SETTLE_GAS_CAP;
    list = {
      document,
      root: settlement.root,
      payoutTotal: settlement.payoutTotal,
      fee: settlement.fee,
      leaves: settlement.payouts.map((payout) => ({
        stakeId: payout.stakeId,
        payout: payout.amount,
        proof: settlement.tree.proof(payout.stakeId),
      })),
    };
  }

  const published = await deps.db
    .transaction(async (tx) => {
      const action = await submitOperatorAction(
        { ...deps.sender, db: tx },
        {
          key: `escrow-settle:${deps.chainId}:${deps.escrow.toLowerCase()}:${key}:${row.attempts}`,
          to: deps.escrow,
          data,
          gasCap,
        },
      );
      const updated = await publishSettlement(
        tx,
        row.id,
        { status: 'due', attempts: row.attempts },
        {
          operatorTxId: action.id,
          publishedAt: deps.now(),
          pool: market.pool,
          // A delay of its own (a review window's rest) is recorded as posted; null stays the minimum.
          ...(row.payoutDelayS === null ? {} : { payoutDelayS: delay }),
          list,
        },
      );
      // Another instance published it meanwhile: this transaction (and its action) is rolled back.
      if (!updated) throw new SettlementMovedError();
      return updated;
    })
    .catch((error: unknown) => {
      if (error instanceof SettlementMovedError) return null;
      throw error;
    });
  if (!published) return false;
  deps.log?.info(
    {
      ...rowFields(row),
      refund: row.refund,
      operatorTxId: published.operatorTxId,
      payoutTotal: list ? String(list.payoutTotal) : undefined,
      fee: list ? String(list.fee) : undefined,
      delay,
    },
    row.refund
      ? `${plan.label}: refund queued on the escrow`
      : `${plan.label}: settlement queued on the escrow; its payout list is published`,
  );
  return true;
}

class SettlementMovedError extends Error {}

/**
 * A published settlement: its action still in flight (nothing to do), final (payouts open at the
 * `Settled` event's claimableAt; a refund at its block time), skipped (its effect already held: the
 * chain's market is read), or failed (due again, built anew later, the reason kept and logged).
 */
async function follow(deps: EscrowSettlementDeps, row: PayoutListRow): Promise<boolean> {
  if (row.operatorTxId === null) throw new Error(`payout list ${row.id} is published with no action`);
  const action = await findOperatorTx(deps.db, row.operatorTxId);
  if (!action) throw new Error(`operator transaction ${row.operatorTxId} not found`);
  const key = row.marketKey as Hex;
  const expected = { status: 'published' as const, attempts: row.attempts };
  switch (action.status) {
    case 'queued':
    case 'signed':
    case 'sent':
      return false;
    case 'failed': {
      const error = `its ${row.refund ? 'settleAsRefund' : 'settle'} failed: ${action.lastError ?? 'no reason recorded'}`;
      // Logged and counted by the one step (of every instance's) that moves it.
      const moved = await settlementDueAgain(deps.db, row.id, expected, {
        error,
        nextAttemptAt: retryAt(deps, row.attempts),
      });
      if (!moved) return false;
      deps.metrics?.countSettlementFailure('action_failed');
      deps.log?.error(
        { ...rowFields(row), operatorTxId: action.id, reason: action.lastError },
        'escrow settlement failed on chain; built again later',
      );
      return false;
    }
    case 'confirmed': {
      if (!action.txHash) throw new Error(`operator transaction ${action.id} is confirmed with no hash`);
      const receipt = await deps.chain.getTransactionReceipt({ hash: action.txHash as Hex });
      const made = settlementIn(deps.escrow, key, receipt);
      if (!made) throw new Error(`transaction ${action.txHash} settled nothing of market ${key}`);
      const block = await deps.chain.getBlock({ blockNumber: receipt.blockNumber });
      const settledAt = new Date(Number(block.timestamp) * 1000);
      const claimableAt = made.kind === 'settled' ? new Date(Number(made.claimableAt) * 1000) : settledAt;
      return (
        (await markSettled(deps.db, row.id, {
          settledBlock: receipt.blockNumber,
          settledAt,
          claimableAt,
        })) !== undefined
      );
    }
    case 'skipped': {
      // Its effect already held: the market is settled (by an earlier transaction of ours) or refunding.
      const market = await readEscrowMarket(deps.chain, deps.escrow, key);
      const ours =
        (row.refund && market.state === MARKET_STATE.refunding) ||
        (!row.refund &&
          market.state === MARKET_STATE.settled &&
          market.payoutRoot.toLowerCase() === row.root);
      if (!ours) {
        throw new Error(
          `its action was skipped, but market ${key} is in state ${market.state} with root ${market.payoutRoot}: not this settlement`,
        );
      }
      const now = deps.now();
      const settled = await markSettled(deps.db, row.id, {
        // The settlement's own block is not known here: claims look for spent stakes from the start.
        settledBlock: null,
        settledAt: now,
        claimableAt: row.refund ? now : new Date(market.claimableAt * 1000),
      });
      return settled !== undefined;
    }
    default:
      throw new Error(`operator transaction ${action.id} has an unknown status ${action.status}`);
  }
}

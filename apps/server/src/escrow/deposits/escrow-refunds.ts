import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import type { FastifyBaseLogger } from 'fastify';
import { encodeFunctionData, type PublicClient } from 'viem';
import type { Clock } from '../../chain/clock.ts';
import { type Confirmations, readFinalHeight, unavailableOnFailure } from '../../chain/finality.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import { describeError } from '../../errors/describe-error.ts';
import { isTransientError } from '../../errors/transient-error.ts';
import type { OperatorSenderDeps } from '../../operator-sender/operator-sender-deps.ts';
import { findOperatorTxByKey } from '../../operator-sender/operator-transactions-repository.ts';
import { submitOperatorAction } from '../../operator-sender/submit-operator-action.ts';
import { findStakePaid, isStakeOpen, MARKET_STATE } from '../escrow-chain.ts';
import {
  type ClaimedEscrowRefund,
  claimNextEscrowRefund,
  endEscrowRefund,
  findRefundDepositBlock,
  markEscrowRefunding,
  retryEscrowRefundAt,
} from './escrow-refunds-repository.ts';

// Decision 026: a deposit the server refuses goes back to its sender, and only to it. While its market
// is open on chain, the operator's `refundStake` (one action per stake, through the operator sender)
// gives it back; once the market is settled or refunding, it is a full-amount leaf of the market's
// payout list (the settlement reads escrow_refunds), or refunded with the market.

/**
 * refundStake's gas: ~49k measured (decision 025), and the payout's push must get its whole 50k cap
 * (63/64 rule) plus the credit path: 250k leaves room; an estimate above it is not sent.
 */
const REFUND_STAKE_GAS_CAP = 250_000n;

/** A refund asked is looked at again this often until its action ends. */
const RECHECK_S = 5;
/** A refund claimed is leased this long, so another instance leaves it alone meanwhile. */
const LEASE_S = 60;

export type EscrowRefundDeps = {
  db: Db;
  chain: PublicClient;
  chainId: number;
  escrowAddress: `0x${string}`;
  /** How deep a `Refunded` event must be before a skipped refund counts as done. */
  confirmations: Confirmations;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The operator key's sender; null without OPERATOR_PRIVATE_KEY: refunds then wait, queued. */
  sender: OperatorSenderDeps | null;
  /** Refunds moved per run, so one run stays short. */
  maxRows?: number;
};

/** The idempotency key of one stake's refundStake: one action per stake, whoever asks. */
export function refundStakeKey(chainId: number, stakeId: bigint): string {
  return `escrow-refund-stake:${chainId}:${stakeId}`;
}

/**
 * Moves every refund under way one step: a queued one is asked of the operator sender while its
 * market is open (else left to the payout list); a refunding one ends when its action does. One
 * refund's failure is written on its row and the rest go on (a job never halts on one bad row).
 */
export async function processEscrowRefunds(deps: EscrowRefundDeps): Promise<number> {
  if (!deps.sender) return 0;
  let moved = 0;
  for (let n = 0; n < (deps.maxRows ?? 50); n++) {
    const now = deps.clock.now();
    const row = await claimNextEscrowRefund(deps.db, {
      chainId: deps.chainId,
      now,
      leaseUntil: new Date(now.getTime() + LEASE_S * 1000),
    });
    if (!row) break;
    try {
      await advance(deps, deps.sender, row);
      moved++;
    } catch (error) {
      const transient = isTransientError(error);
      deps.logger[transient ? 'warn' : 'error'](
        { err: error, stakeId: row.stake_id.toString(), attempts: row.attempts },
        'a refused deposit’s refund step failed; it is retried later',
      );
      const backoffS = Math.min(600, 5 * 2 ** Math.min(row.attempts, 7));
      await retryEscrowRefundAt(
        deps.db,
        row.id,
        new Date(deps.clock.now().getTime() + backoffS * 1000),
        describeError(error),
      ).catch(() => {});
    }
  }
  return moved;
}

async function advance(deps: EscrowRefundDeps, sender: OperatorSenderDeps, row: ClaimedEscrowRefund) {
  const ref = { id: row.id, paymentId: row.payment_id };
  if (row.status === 'queued') {
    const state = await marketState(deps, row.market_key);
    if (state !== MARKET_STATE.open) {
      deps.logger.info(
        { stakeId: row.stake_id.toString(), market: row.market_key, state },
        'a refused deposit’s market is no longer open: its payout list returns it',
      );
      return endEscrowRefund(deps.db, ref, 'payout_list');
    }
    const key = refundStakeKey(deps.chainId, row.stake_id);
    await submitOperatorAction(sender, {
      key,
      to: deps.escrowAddress,
      data: encodeFunctionData({
        abi: predictionEscrowAbi,
        functionName: 'refundStake',
        args: [
          {
            stakeId: row.stake_id,
            owner: row.owner as `0x${string}`,
            market: row.market_key as `0x${string}`,
            amount: row.amount,
          },
        ],
      }),
      gasCap: REFUND_STAKE_GAS_CAP,
    });
    deps.logger.info(
      { stakeId: row.stake_id.toString(), owner: row.owner, amountWei: row.amount.toString(), key },
      'refundStake asked for a refused deposit',
    );
    return markEscrowRefunding(deps.db, row.id, { operatorTxKey: key, nextAttemptAt: recheckAt(deps) });
  }

  const key = row.operator_tx_key ?? refundStakeKey(deps.chainId, row.stake_id);
  const action = await findOperatorTxByKey(deps.db, key);
  if (!action) throw new Error(`the refund's operator action ${key} is missing`);
  switch (action.status) {
    // Our refundStake is final and did not revert: its receipt is the chain's word.
    case 'confirmed':
      return endEscrowRefund(deps.db, ref, 'refunded');
    // The simulation reverted as if the stake were spent (StakeMismatch), which a record that does not
    // match the stake says too: the chain is read before anything counts as refunded.
    case 'skipped':
      return endSkippedRefund(deps, row, action.lastError);
    case 'failed': {
      // A settlement got there first (MarketNotOpen): the payout list returns it. Else an operator looks.
      if ((await marketState(deps, row.market_key)) !== MARKET_STATE.open) {
        return endEscrowRefund(deps.db, ref, 'payout_list');
      }
      deps.logger.error(
        { stakeId: row.stake_id.toString(), key, error: action.lastError },
        'refundStake of a refused deposit failed with its market still open',
      );
      return endEscrowRefund(deps.db, ref, 'failed', action.lastError ?? 'the refund action failed');
    }
    default:
      return retryEscrowRefundAt(deps.db, row.id, recheckAt(deps), `refundStake ${action.status}`);
  }
}

/**
 * A refund whose refundStake was skipped ends by what the escrow says (docs/security.md
 * "Payouts (claims and refunds)"): refunded only when the stake's slot is empty and a final `Refunded` event names it; paid
 * through its market's payout list when a `Claimed` does; still held (the row does not name the stake
 * as its `Deposited` event did) it is failed for an operator while its market is open, else its
 * market's payout list returns it. An event not final yet is looked at again.
 */
async function endSkippedRefund(deps: EscrowRefundDeps, row: ClaimedEscrowRefund, skipReason: string | null) {
  const ref = { id: row.id, paymentId: row.payment_id };
  const fields = { stakeId: row.stake_id.toString(), market: row.market_key, skipReason };
  const open = await unavailableOnFailure(isStakeOpen(deps.chain, deps.escrowAddress, row.stake_id));
  if (open) {
    if ((await marketState(deps, row.market_key)) !== MARKET_STATE.open) {
      deps.logger.warn(
        fields,
        'refundStake was skipped, but the escrow still holds the stake: its payout list returns it',
      );
      return endEscrowRefund(deps.db, ref, 'payout_list');
    }
    const reason = `refundStake was skipped (${skipReason ?? 'no reason recorded'}), but the escrow still holds stake ${row.stake_id}: the refund's record does not match the stake`;
    deps.logger.error(fields, 'refundStake was skipped, but the escrow still holds the stake');
    return endEscrowRefund(deps.db, ref, 'failed', reason);
  }
  const toBlock = await unavailableOnFailure(readFinalHeight(deps.chain, deps.confirmations));
  const fromBlock = (await findRefundDepositBlock(deps.db, row.payment_id)) ?? 0n;
  const paid =
    toBlock === null
      ? null
      : await unavailableOnFailure(
          findStakePaid(deps.chain, deps.escrowAddress, row.stake_id, { fromBlock, toBlock }),
        );
  if (!paid) {
    return retryEscrowRefundAt(
      deps.db,
      row.id,
      recheckAt(deps),
      'the escrow has spent the stake; its Refunded event is not final yet',
    );
  }
  if (paid.kind === 'claimed') {
    deps.logger.info(
      { ...fields, txHash: paid.txHash },
      'a refused deposit was paid through its payout list',
    );
    return endEscrowRefund(deps.db, ref, 'payout_list');
  }
  deps.logger.info({ ...fields, txHash: paid.txHash }, 'a refused deposit was refunded on chain');
  return endEscrowRefund(deps.db, ref, 'refunded');
}

function recheckAt(deps: EscrowRefundDeps): Date {
  return new Date(deps.clock.now().getTime() + RECHECK_S * 1000);
}

/** The market's state on chain now (`markets(key).state`); a failed read is CHAIN_UNAVAILABLE. */
async function marketState(deps: EscrowRefundDeps, key: string): Promise<number> {
  try {
    const market = await deps.chain.readContract({
      address: deps.escrowAddress,
      abi: predictionEscrowAbi,
      functionName: 'markets',
      args: [key as `0x${string}`],
    });
    return market[3];
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}

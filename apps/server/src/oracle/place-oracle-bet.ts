import { normalizeAddress } from '@pm/core/address';
import { MIN_ORACLE_BET_WEI, type Position } from '@pm/core/constants';
import type { OracleBet, PlaceOracleBetBody, Round } from '@pm/core/contract/oracle';
import type { PaymentIntent } from '@pm/core/intent';
import { roundDepositTerms } from '@pm/escrow/deposit-terms';
import { parseHex } from '../chain/parse-hex.ts';
import type { Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { recordBetPlaced } from '../leaderboard/user-stats-repository.ts';
import { type AcceptPaymentResult, acceptPayment, type PaymentContext } from '../payments/accept-payment.ts';
import { refusePayment } from '../payments/refuse-payment.ts';
import { publish } from '../realtime/outbox-repository.ts';
import {
  addBetToRoundTotals,
  findOracleBetByPayment,
  findRoundLock,
  insertOracleBet,
  lockRound,
} from './oracle-repository.ts';
import { toWireOracleBet, toWireRound } from './oracle-rounds.ts';

/** docs/product.md §5: the oracle minimum has its own text (the shared AMOUNT_TOO_LOW text is the market one). */
const ORACLE_AMOUNT_TOO_LOW_MESSAGE = 'Minimum bet is 0.01 BNB';

export type PlacedOracleBet = { bet: OracleBet; round: Round };

/**
 * POST /api/oracle/bets (docs/api.md): a bet on a live round from a verified deposit into the escrow
 * (decision 026): a `Deposited` event of the request's transaction, by the bettor, of the amount, under
 * the round's key (`roundMarketId(epoch)` closing at its lock) with kind round and the side. Every
 * refusal of a real deposit (below the minimum, the round not live at its block) keeps it as owed back
 * by the escrow (escrow_refunds: refundStake, or the round's payout list), never by a server key. A round
 * this server does not know has no key to check a deposit against: the request is refused and
 * reconciliation, which reads every deposit, gives the money back. `stakeId`: reconciliation records
 * that one stake, from its own event.
 */
export async function placeOracleBet(
  context: PaymentContext,
  body: PlaceOracleBetBody,
  options: { stakeId?: bigint } = {},
): Promise<AcceptPaymentResult<PlacedOracleBet>> {
  const amountWei = BigInt(body.amountWei);
  const intent: PaymentIntent = { kind: 'round', epoch: body.epoch, position: body.position };
  const escrow = context.escrow;
  if (!escrow)
    throw new AppError(
      'ESCROW_NOT_CONFIGURED',
      'Round bets are unavailable: no escrow contract is configured on this server.',
    );
  const amountRefusal =
    amountWei < MIN_ORACLE_BET_WEI ? new AppError('AMOUNT_TOO_LOW', ORACLE_AMOUNT_TOO_LOW_MESSAGE) : null;
  const round = body.epoch >= 1 ? await findRoundLock(context.db, body.epoch) : undefined;
  if (!round) throw amountRefusal ?? new AppError('ROUND_NOT_FOUND');
  const input = {
    claim: {
      txHash: parseHex(body.txHash, { bytes: 32 }),
      from: normalizeAddress(body.userAddress),
      amountWei,
      intent,
    },
    deposit: {
      escrow,
      terms: roundDepositTerms(body.epoch, lockSeconds(round.lockTime), body.position),
      ...options,
    },
    purpose: 'oracle_bet' as const,
    request: { ...body },
  };
  // The escrow reconciliation job comes through here too, with deposits nobody posted.
  if (amountRefusal) return refusePayment(context, input, amountRefusal);
  return acceptPayment(context, {
    ...input,
    record: (tx, payment) =>
      recordOracleBet(tx, {
        epoch: body.epoch,
        position: body.position,
        userAddress: payment.from,
        amountWei: payment.amountWei,
        paymentId: payment.paymentId,
        txHash: payment.txHash,
        blockTime: payment.blockTime,
        stakeId: payment.deposit.stakeId,
      }),
    findRecorded: async (db, paymentId) => {
      const row = await findOracleBetByPayment(db, paymentId);
      return row && { bet: toWireOracleBet(row.bet, row.round.result), round: toWireRound(row.round) };
    },
  });
}

/** A round's lock in whole unix seconds: the close of its escrow key (rounds are scheduled in seconds). */
export function lockSeconds(lockTime: Date): number {
  return Math.floor(lockTime.getTime() / 1000);
}

/**
 * The bet, the round totals, the leaderboard count and the realtime event, in the payment's
 * transaction. The round row is locked first, so a bet and the engine's lock of the same round
 * cannot interleave: either the bet counts in the pools at lock, or it is refused.
 */
export async function recordOracleBet(
  tx: Tx,
  input: {
    epoch: number;
    position: Position;
    userAddress: string;
    amountWei: bigint;
    paymentId: number;
    txHash: string;
    /** The payment's block time: it must be before the round's lock (docs/architecture.md "Payment verification"). */
    blockTime: Date;
    /** The escrow stake the bet is; null only for rows written without a deposit (test fixtures). */
    stakeId?: bigint | null;
  },
): Promise<PlacedOracleBet> {
  const round = await lockRound(tx, input.epoch);
  if (!round) throw new AppError('ROUND_NOT_FOUND');
  if (round.status !== 'live' || input.blockTime.getTime() >= round.lockTime.getTime()) {
    throw new AppError('ROUND_NOT_LIVE');
  }
  const bet = await insertOracleBet(tx, {
    epoch: input.epoch,
    userAddress: input.userAddress.toLowerCase(),
    position: input.position,
    amount: input.amountWei,
    paymentId: input.paymentId,
    txHash: input.txHash.toLowerCase(),
    stakeId: input.stakeId ?? null,
  });
  const updated = await addBetToRoundTotals(tx, {
    epoch: input.epoch,
    position: input.position,
    amountWei: input.amountWei,
  });
  await recordBetPlaced(tx, input.userAddress);
  await publish(tx, { topic: 'rounds', id: input.epoch });
  return { bet: toWireOracleBet(bet, updated.result), round: toWireRound(updated) };
}

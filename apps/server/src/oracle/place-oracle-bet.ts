import { normalizeAddress } from '@pm/core/address';
import { MIN_ORACLE_BET_WEI, type Position } from '@pm/core/constants';
import type { OracleBet, PlaceOracleBetBody, Round } from '@pm/core/contract/oracle';
import type { PaymentIntent } from '@pm/core/intent';
import { parseHex } from '../chain/parse-hex.ts';
import type { Db, Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { recordBetPlaced } from '../leaderboard/user-stats-repository.ts';
import { type AcceptPaymentResult, acceptPayment, type PaymentContext } from '../payments/accept-payment.ts';
import { refusePayment } from '../payments/refuse-payment.ts';
import { publish } from '../realtime/outbox-repository.ts';
import {
  addBetToRoundTotals,
  findOracleBetByPayment,
  insertOracleBet,
  lockRound,
  roundExists,
} from './oracle-repository.ts';
import { toWireOracleBet, toWireRound } from './oracle-rounds.ts';

/** docs/product.md §5: the oracle minimum has its own text (the shared AMOUNT_TOO_LOW text is the market one). */
const ORACLE_AMOUNT_TOO_LOW_MESSAGE = 'Minimum bet is 0.01 BNB';

export type PlacedOracleBet = { bet: OracleBet; round: Round };

/**
 * POST /api/oracle/bets (docs/api.md): a bet on a live round from a verified payment whose intent is
 * `pm1:round:<epoch>:<position>`. Every refusal (below the minimum, unknown round, the round locked
 * meanwhile, the payment mined after lock) keeps a real payment as a refund owed (acceptPayment).
 */
export async function placeOracleBet(
  context: PaymentContext,
  body: PlaceOracleBetBody,
): Promise<AcceptPaymentResult<PlacedOracleBet>> {
  const amountWei = BigInt(body.amountWei);
  const intent: PaymentIntent = { kind: 'round', epoch: body.epoch, position: body.position };
  const input = {
    claim: {
      txHash: parseHex(body.txHash, { bytes: 32 }),
      from: normalizeAddress(body.userAddress),
      amountWei,
      intent,
    },
    purpose: 'oracle_bet' as const,
    request: { ...body },
  };
  const refusal = await refuseEarly(context.db, body.epoch, amountWei);
  if (refusal) {
    // No payment can name a round below 1 (its intent does not decode): no money to keep.
    if (body.epoch < 1) throw refusal;
    // The vault reconciliation job comes through here too, with transfers nobody posted.
    return refusePayment(context, input, refusal);
  }
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
      }),
    findRecorded: async (db, paymentId) => {
      const row = await findOracleBetByPayment(db, paymentId);
      return row && { bet: toWireOracleBet(row.bet, row.round.result), round: toWireRound(row.round) };
    },
  });
}

async function refuseEarly(db: Db, epoch: number, amountWei: bigint): Promise<AppError | null> {
  if (amountWei < MIN_ORACLE_BET_WEI) return new AppError('AMOUNT_TOO_LOW', ORACLE_AMOUNT_TOO_LOW_MESSAGE);
  return (await roundExists(db, epoch)) ? null : new AppError('ROUND_NOT_FOUND');
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

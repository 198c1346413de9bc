import { normalizeAddress } from '@pm/core/address';
import { MIN_ORACLE_BET_WEI, type Position } from '@pm/core/constants';
import type { OracleBet, PlaceOracleBetBody, Round } from '@pm/core/contract/oracle';
import { eq, sql } from 'drizzle-orm';
import { parseHex } from '../chain/parse-hex.ts';
import type { Db, Tx } from '../db/client.ts';
import { oracleBets, oracleRounds } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import { isTransientError } from '../jobs/transient-error.ts';
import { recordBetPlaced } from '../leaderboard/user-stats.ts';
import {
  type AcceptPaymentInput,
  type AcceptPaymentResult,
  acceptPayment,
  type PaymentContext,
} from '../payments/accept-payment.ts';
import { publish } from '../realtime/publish.ts';
import { toWireOracleBet, toWireRound } from './oracle-rounds.ts';

/** Spec §5: the oracle minimum has its own text (the shared AMOUNT_TOO_LOW text is the market one). */
export const ORACLE_AMOUNT_TOO_LOW_MESSAGE = 'Minimum bet is 0.01 BNB';

export type PlacedOracleBet = { bet: OracleBet; round: Round };

/**
 * POST /api/oracle/bets (API.md): a bet on a live round from a verified payment whose intent is
 * `pm1:round:<epoch>:<position>`. Every refusal (below the minimum, unknown round, the round locked
 * meanwhile, the payment mined after lock) keeps a real payment as a refund owed (acceptPayment).
 */
export async function placeOracleBet(
  context: PaymentContext,
  body: PlaceOracleBetBody,
): Promise<AcceptPaymentResult<PlacedOracleBet>> {
  const amountWei = BigInt(body.amountWei);
  const input: Omit<AcceptPaymentInput<PlacedOracleBet>, 'record'> = {
    claim: {
      txHash: parseHex(body.txHash, { bytes: 32 }),
      from: normalizeAddress(body.userAddress),
      amountWei,
      intent: { kind: 'round', epoch: body.epoch, position: body.position },
    },
    purpose: 'oracle_bet',
    request: { ...body },
  };
  const refusal = await refuseEarly(context, body.epoch, amountWei);
  if (refusal) {
    // The refusal is the answer, but a real payment behind it is never dropped: acceptPayment
    // keeps it as a refund due (or as pending, replayed and refused once final). The vault
    // reconciliation job calls this too, with transfers nobody posted.
    if (body.epoch > 0) {
      await acceptPayment(context, { ...input, record: () => Promise.reject(refusal) }).catch(
        (error: unknown) => {
          // A passing fault is not "kept as a refund" (review F3): let the caller retry.
          if (isTransientError(error)) throw error;
        },
      );
    }
    throw refusal;
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
    findRecorded: findOracleBetByPayment,
  });
}

/** The bet a payment became, with its round: what placing it answered. */
async function findOracleBetByPayment(db: Db, paymentId: number): Promise<PlacedOracleBet | undefined> {
  const [row] = await db
    .select({ bet: oracleBets, round: oracleRounds })
    .from(oracleBets)
    .innerJoin(oracleRounds, eq(oracleRounds.epoch, oracleBets.epoch))
    .where(eq(oracleBets.paymentId, paymentId))
    .limit(1);
  return row && { bet: toWireOracleBet(row.bet, row.round.result), round: toWireRound(row.round) };
}

async function refuseEarly(
  context: PaymentContext,
  epoch: number,
  amountWei: bigint,
): Promise<AppError | null> {
  if (amountWei < MIN_ORACLE_BET_WEI) return new AppError('AMOUNT_TOO_LOW', ORACLE_AMOUNT_TOO_LOW_MESSAGE);
  const [known] = await context.db
    .select({ epoch: oracleRounds.epoch })
    .from(oracleRounds)
    .where(eq(oracleRounds.epoch, epoch))
    .limit(1);
  return known ? null : new AppError('ROUND_NOT_FOUND');
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
    /** The payment's block time: it must be before the round's lock (DESIGN "Payment verification"). */
    blockTime: Date;
  },
): Promise<PlacedOracleBet> {
  const [round] = await tx
    .select()
    .from(oracleRounds)
    .where(eq(oracleRounds.epoch, input.epoch))
    .for('update');
  if (!round) throw new AppError('ROUND_NOT_FOUND');
  if (round.status !== 'live' || input.blockTime.getTime() >= round.lockTime.getTime()) {
    throw new AppError('ROUND_NOT_LIVE');
  }
  const [bet] = await tx
    .insert(oracleBets)
    .values({
      epoch: input.epoch,
      userAddress: input.userAddress.toLowerCase(),
      position: input.position,
      amount: input.amountWei,
      paymentId: input.paymentId,
      txHash: input.txHash.toLowerCase(),
    })
    .returning();
  if (!bet) throw new Error('inserting the oracle bet returned nothing');
  const bull = input.position === 'bull';
  const [updated] = await tx
    .update(oracleRounds)
    .set(
      bull
        ? {
            totalUpAmount: sql`${oracleRounds.totalUpAmount} + ${input.amountWei}`,
            upCount: sql`${oracleRounds.upCount} + 1`,
            updatedAt: sql`now()`,
          }
        : {
            totalDownAmount: sql`${oracleRounds.totalDownAmount} + ${input.amountWei}`,
            downCount: sql`${oracleRounds.downCount} + 1`,
            updatedAt: sql`now()`,
          },
    )
    .where(eq(oracleRounds.epoch, input.epoch))
    .returning();
  if (!updated) throw new Error('updating the round totals returned nothing');
  await recordBetPlaced(tx, input.userAddress);
  await publish(tx, { topic: 'rounds', id: input.epoch });
  return { bet: toWireOracleBet(bet, updated.result), round: toWireRound(updated) };
}

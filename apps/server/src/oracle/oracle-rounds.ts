import { betReturnFields } from '@pm/core/bet-return';
import type { OracleBet, Round } from '@pm/core/contract/oracle';
import { formatUsdPrice } from '@pm/core/price';
import type { RoundResult, RoundStatus } from '@pm/core/rounds';
import type { oracleBets, oracleRounds } from '../db/schema.ts';

// Rows of oracle_rounds / oracle_bets and their wire shapes (@pm/core/contract/oracle).

export type RoundRow = typeof oracleRounds.$inferSelect;
export type OracleBetRow = typeof oracleBets.$inferSelect;
export type StoredRoundResult = RoundResult | 'cancelled';

export function parseRoundStatus(status: string): RoundStatus {
  if (status === 'upcoming' || status === 'live' || status === 'locked' || status === 'ended') return status;
  throw new Error(`unknown round status ${status}`);
}

function parseRoundResult(result: string | null): StoredRoundResult | null {
  if (result === null) return null;
  if (result === 'bull' || result === 'bear' || result === 'draw' || result === 'cancelled') return result;
  throw new Error(`unknown round result ${result}`);
}

const price = (value: bigint | null) => (value === null ? null : formatUsdPrice(value, 8));
const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function toWireRound(row: RoundRow): Round {
  return {
    epoch: row.epoch,
    status: parseRoundStatus(row.status),
    startTime: row.startTime.toISOString(),
    lockTime: row.lockTime.toISOString(),
    closeTime: row.closeTime.toISOString(),
    lockPrice: price(row.lockPrice),
    closePrice: price(row.closePrice),
    totalUpWei: row.totalUpAmount.toString(),
    totalDownWei: row.totalDownAmount.toString(),
    upCount: row.upCount,
    downCount: row.downCount,
    result: parseRoundResult(row.result),
    cancelReason: row.cancelReason,
    priceSource: row.priceSource,
    lockPriceAt: iso(row.lockPriceAt),
    lockFeedRoundId: row.lockPriceRoundId,
    closePriceAt: iso(row.closePriceAt),
    closeFeedRoundId: row.closePriceRoundId,
  };
}

export function toWireOracleBet(row: OracleBetRow, roundResult: string | null): OracleBet {
  const position = row.position === 'bull' ? 'bull' : 'bear';
  return {
    id: row.id,
    epoch: row.epoch,
    userAddress: row.userAddress,
    position,
    amountWei: row.amount.toString(),
    // payout_amount is the return (decision 002); core derives the money words from it.
    ...betReturnFields(row.amount, row.payoutAmount),
    claimed: row.claimed,
    roundResult: parseRoundResult(roundResult),
    txHash: row.txHash,
    createdAt: row.createdAt.toISOString(),
  };
}

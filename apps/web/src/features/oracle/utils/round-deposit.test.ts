import { roundMarketId } from '@pm/escrow/deposit-terms';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { decodeFunctionData } from 'viem';
import { describe, expect, test } from 'vitest';
import { roundDepositCall } from './round-deposit.ts';

const escrow = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const round = {
  epoch: 2_914_632,
  startTime: '2025-06-01T12:00:00.000Z',
  lockTime: '2025-06-01T12:05:00.000Z',
  closeTime: '2025-06-01T12:10:00.000Z',
};

describe('roundDepositCall', () => {
  test("a bet is the escrow's deposit for the round's id, its lock in seconds, kind round and the side", () => {
    const call = roundDepositCall(escrow, round, 'bear', 10n ** 16n);
    expect(call.to).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3');
    expect(call.value).toBe(10n ** 16n);
    const { functionName, args } = decodeFunctionData({ abi: predictionEscrowAbi, data: call.data });
    expect(functionName).toBe('deposit');
    expect(args).toEqual([
      roundMarketId(2_914_632),
      Date.parse(round.lockTime) / 1000,
      3,
      2,
      `0x${'0'.repeat(64)}`,
      `0x${'0'.repeat(64)}`,
    ]);
  });

  test('UP is side 1', () => {
    const { args } = decodeFunctionData({
      abi: predictionEscrowAbi,
      data: roundDepositCall(escrow, round, 'bull', 1n).data,
    });
    expect(args?.[3]).toBe(1);
  });
});

import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { decodeFunctionData } from 'viem';
import { describe, expect, test } from 'vitest';
import { marketBetDepositCall } from './market-bet-deposit.ts';

const escrow = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const escrowId = `0x${'ab'.repeat(32)}` as const;
const closesAt = 1_790_003_600;
const zero = `0x${'0'.repeat(64)}`;

function depositArgsOf(data: `0x${string}`) {
  const { functionName, args } = decodeFunctionData({ abi: predictionEscrowAbi, data });
  expect(functionName).toBe('deposit');
  return args;
}

describe('market bet deposits (decision 026)', () => {
  test("a bet is the deposit under the market's escrow id and close, kind bet, the side", () => {
    const call = marketBetDepositCall(escrow, { escrowId, closesAt }, 'YES', 5n * 10n ** 15n);
    expect(call?.value).toBe(5n * 10n ** 15n);
    expect(call && depositArgsOf(call.data)).toEqual([escrowId, closesAt, 2, 1, zero, zero]);
  });

  test('a market made before the escrow has no deposit to make', () => {
    expect(marketBetDepositCall(escrow, { escrowId: null, closesAt }, 'YES', 1n)).toBeNull();
  });
});

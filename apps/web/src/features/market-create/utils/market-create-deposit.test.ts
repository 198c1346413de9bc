import { creationCloseAccepted } from '@pm/core/market-rules';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { decodeFunctionData } from 'viem';
import { describe, expect, test } from 'vitest';
import { marketCreateDepositCall, newMarketEscrow } from './market-create-deposit.ts';

const escrow = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const escrowId = `0x${'ab'.repeat(32)}` as const;
const contentHash = `0x${'cd'.repeat(32)}` as const;
const closesAt = 1_790_003_600;
const zero = `0x${'0'.repeat(64)}`;

function depositArgsOf(data: `0x${string}`) {
  const { functionName, args } = decodeFunctionData({ abi: predictionEscrowAbi, data });
  expect(functionName).toBe('deposit');
  return args;
}

describe('market creation deposits (decision 026)', () => {
  test("a creation is the escrow's deposit under its fresh id and close, kind create, the side and its content hash", () => {
    const call = marketCreateDepositCall(
      escrow,
      { escrowId, closesAt, contentHash, prediction: 'NO' },
      10n ** 16n,
    );
    expect(call.to).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3');
    expect(call.value).toBe(10n ** 16n);
    expect(depositArgsOf(call.data)).toEqual([escrowId, closesAt, 1, 2, contentHash, zero]);
  });

  test("a new market's close is the server's now + the duration, which the server accepts", () => {
    const serverNowMs = Date.parse('2026-11-27T01:00:00.400Z');
    const hourly = newMarketEscrow('hourly', serverNowMs);
    expect(hourly.closesAt).toBe(Math.floor(serverNowMs / 1000) + 3600);
    expect(hourly.escrowId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(newMarketEscrow('hourly', serverNowMs).escrowId).not.toBe(hourly.escrowId);
    // Mined within ten minutes of the click, the deposit's close is accepted.
    const blockS = Math.floor(serverNowMs / 1000) + 590;
    expect(creationCloseAccepted('daily', blockS, newMarketEscrow('daily', serverNowMs).closesAt)).toBe(true);
  });
});

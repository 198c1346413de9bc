import { depositFunctionAbi } from '@pm/escrow/deposit-call';
import { decodeFunctionData, getAddress } from 'viem';
import { describe, expect, test } from 'vitest';
import { flagDepositCall } from './flag-deposit.ts';

describe('flagDepositCall', () => {
  test("deposits the bond into the escrow under the market's key: kind flag, no side, no terms", () => {
    const escrow = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    const escrowId = `0x${'ab'.repeat(32)}` as const;
    const call = flagDepositCall(escrow, { escrowId, closesAt: 1_790_000_000 }, '10000000000000000');
    expect(call.to).toBe(getAddress(escrow));
    expect(call.value).toBe(10n ** 16n);
    const { functionName, args } = decodeFunctionData({ abi: depositFunctionAbi, data: call.data });
    expect(functionName).toBe('deposit');
    expect(args).toEqual([escrowId, 1_790_000_000, 4, 0, `0x${'0'.repeat(64)}`, `0x${'0'.repeat(64)}`]);
  });
});

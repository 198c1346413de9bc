import { decodeFunctionData, getAbiItem } from 'viem';
import { describe, expect, it } from 'vitest';
import { depositCall, depositFunctionAbi } from './deposit-call.ts';
import { DEPOSIT_KIND, roundMarketId, SIDE_CODE } from './deposit-terms.ts';
import { predictionEscrowAbi } from './prediction-escrow.gen.ts';

const escrow = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

describe('depositCall', () => {
  it("carries the compiled contract's own deposit function", () => {
    expect(depositFunctionAbi[0]).toEqual(getAbiItem({ abi: predictionEscrowAbi, name: 'deposit' }));
  });

  it('encodes a round bet: the round id, its lock, kind round, the side, no terms', () => {
    const market = roundMarketId(42);
    const call = depositCall(
      escrow,
      { kind: 'round', market, closesAt: 1_790_000_300, position: 'bear' },
      5n,
    );
    expect(call.to).toBe(escrow);
    expect(call.value).toBe(5n);
    const decoded = decodeFunctionData({ abi: predictionEscrowAbi, data: call.data });
    expect(decoded.functionName).toBe('deposit');
    expect(decoded.args).toEqual([
      market,
      1_790_000_300,
      DEPOSIT_KIND.round,
      SIDE_CODE.bear,
      `0x${'0'.repeat(64)}`,
      `0x${'0'.repeat(64)}`,
    ]);
  });

  it('refuses an amount of 0 and terms that cannot be a deposit', () => {
    const terms = {
      kind: 'round',
      market: roundMarketId(1),
      closesAt: 1_790_000_000,
      position: 'bull',
    } as const;
    expect(() => depositCall(escrow, terms, 0n)).toThrow(RangeError);
    expect(() => depositCall(escrow, { ...terms, closesAt: 0 }, 1n)).toThrow(RangeError);
  });
});

import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import {
  ExecutionRevertedError,
  encodeErrorResult,
  encodeFunctionData,
  RpcRequestError,
  zeroHash,
} from 'viem';
import { describe, expect, test } from 'vitest';
import {
  classifyEscrowActionRevert,
  classifyEscrowRevert,
  decodeRevert,
  describeRevert,
  revertData,
} from './revert-reason.ts';

const stakeMismatch = encodeErrorResult({ abi: predictionEscrowAbi, errorName: 'StakeMismatch', args: [7n] });
const notSettleable = encodeErrorResult({
  abi: predictionEscrowAbi,
  errorName: 'NotSettleable',
  args: [zeroHash],
});
const feeTooHigh = encodeErrorResult({ abi: predictionEscrowAbi, errorName: 'FeeTooHigh', args: [5n, 4n] });

/** A revert as viem reports a node's answer: the node's error under an ExecutionRevertedError. */
function nodeRevert(data: unknown) {
  const rpc = new RpcRequestError({
    body: {},
    error: { code: 3, message: 'execution reverted', data },
    url: '',
  });
  return new ExecutionRevertedError({ cause: rpc, message: 'execution reverted' });
}

describe('revertData', () => {
  test('reads geth’s hex and Hardhat’s object, along the causes', () => {
    expect(revertData(nodeRevert(stakeMismatch))).toBe(stakeMismatch);
    expect(revertData(nodeRevert({ message: 'VM Exception', data: stakeMismatch }))).toBe(stakeMismatch);
  });

  test('falls back on the message’s return data, and is undefined without any', () => {
    expect(revertData(new Error(`reverted (return data: ${feeTooHigh})`))).toBe(feeTooHigh);
    expect(revertData(new Error('execution reverted'))).toBeUndefined();
  });
});

describe('describeRevert', () => {
  test('names the escrow’s error with its arguments', () => {
    expect(describeRevert(nodeRevert(stakeMismatch))).toBe('StakeMismatch(7)');
    expect(describeRevert(nodeRevert(feeTooHigh))).toBe('FeeTooHigh(5, 4)');
  });

  test('decodes Error(string) whatever the ABI, and gives the message for data it cannot read', () => {
    const withReason = encodeErrorResult({
      abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string', name: 'message' }] }],
      errorName: 'Error',
      args: ['nope'],
    });
    expect(describeRevert(nodeRevert(withReason), [])).toBe('Error(nope)');
    expect(decodeRevert(nodeRevert('0xdeadbeef'))).toBeNull();
    expect(describeRevert(new Error('execution reverted'))).toBe('execution reverted');
  });
});

describe('classifyEscrowRevert', () => {
  test('a spent stake and a market no longer settleable are done; anything else failed', () => {
    expect(classifyEscrowRevert(nodeRevert(stakeMismatch))).toBe('done');
    expect(classifyEscrowRevert(nodeRevert(notSettleable))).toBe('done');
    expect(classifyEscrowRevert(nodeRevert(feeTooHigh))).toBe('failed');
    expect(classifyEscrowRevert(new Error('execution reverted'))).toBe('failed');
  });
});

describe('classifyEscrowActionRevert', () => {
  const to = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as const;
  const stake = { stakeId: 7n, owner: to, market: zeroHash, amount: 1n };
  test('a batch is never done by a spent stake: the others may still be open', () => {
    const claimMany = encodeFunctionData({
      abi: predictionEscrowAbi,
      functionName: 'claimMany',
      args: [[{ stake, payout: 1n, proof: [] }]],
    });
    const refundMany = encodeFunctionData({
      abi: predictionEscrowAbi,
      functionName: 'refundMany',
      args: [[stake]],
    });
    for (const data of [claimMany, refundMany]) {
      expect(
        classifyEscrowActionRevert(nodeRevert(stakeMismatch), {
          key: 'k',
          to,
          data,
          value: 0n,
          gasCap: 100_000n,
          signAtCap: true,
        }),
      ).toBe('failed');
    }
  });
  test('a single call is classified as classifyEscrowRevert does', () => {
    const refund = encodeFunctionData({ abi: predictionEscrowAbi, functionName: 'refund', args: [stake] });
    const action = { key: 'k', to, data: refund, value: 0n, gasCap: 100_000n, signAtCap: false };
    expect(classifyEscrowActionRevert(nodeRevert(stakeMismatch), action)).toBe('done');
    expect(classifyEscrowActionRevert(nodeRevert(feeTooHigh), action)).toBe('failed');
  });
});

import type { PlaceOracleBetBody } from '@pm/core/contract/oracle';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startTestApi, type TestApiAnswer } from '#testing/test-api.ts';
import {
  loadPendingOracleBets,
  recordOracleBet,
  retryPendingOracleBets,
  savePendingOracleBet,
} from './pending-oracle-bets.ts';

// Issue 11: a paid round bet stays in localStorage until the server has it, as market payments do.

const bet: PlaceOracleBetBody = {
  epoch: 42,
  position: 'bull',
  amountWei: '10000000000000000',
  userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  txHash: `0x${'12'.repeat(32)}`,
};

let api: Awaited<ReturnType<typeof startTestApi>> | null = null;
let next: TestApiAnswer = { body: {} };
let posts = 0;

beforeEach(async () => {
  window.localStorage.clear();
  posts = 0;
  api = await startTestApi(() => {
    posts += 1;
    return next;
  });
});

afterEach(async () => {
  await api?.close();
  api = null;
});

const unavailable: TestApiAnswer = {
  status: 503,
  body: { error: { code: 'CHAIN_UNAVAILABLE', message: 'The chain is unavailable' } },
};
const pending: TestApiAnswer = { status: 202, body: { status: 'pending', txHash: bet.txHash } };

describe('pending oracle bets', () => {
  test('A bet the server could not take (503) is kept, and retried on the next load until it is', async () => {
    savePendingOracleBet(bet);
    next = unavailable;
    await expect(recordOracleBet(bet)).rejects.toThrow();
    expect(loadPendingOracleBets()).toEqual([bet]);

    expect(await retryPendingOracleBets()).toBe(0);
    expect(loadPendingOracleBets()).toEqual([bet]);

    next = pending;
    expect(await retryPendingOracleBets()).toBe(1);
    expect(loadPendingOracleBets()).toEqual([]);
    expect(posts).toBe(3);
  });

  test('A bet the server refused for good (its payment becomes a refund) is forgotten', async () => {
    savePendingOracleBet(bet);
    next = {
      status: 400,
      body: { error: { code: 'ROUND_NOT_LIVE', message: 'You can only bet on live rounds' } },
    };
    await expect(recordOracleBet(bet)).rejects.toThrow('You can only bet on live rounds');
    expect(loadPendingOracleBets()).toEqual([]);
  });

  test('The same payment saved twice is kept once; junk in storage is ignored', async () => {
    savePendingOracleBet(bet);
    savePendingOracleBet(bet);
    expect(loadPendingOracleBets()).toEqual([bet]);
    window.localStorage.setItem('oracle:pendingBets', '{not json');
    expect(loadPendingOracleBets()).toEqual([]);
  });
});

import { ERROR_MESSAGES } from '@pm/core/contract/errors';
import { LeaderboardResponseSchema } from '@pm/core/contract/leaderboard';
import { ROUTES } from '@pm/core/contract/routes';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defineRoute } from './define-route.ts';
import { registerErrorHandling } from './error-handler.ts';

// The contract is zod/mini, which carries no English messages of its own: these pin the exact
// VALIDATION_FAILED texts outside clients see (docs/api.md error shape), as they were with zod
// classic. No zod classic is loaded in this file, so the English comes from defineRoute itself.

const TX_HASH = `0x${'ab'.repeat(32)}`;
const ADDRESS = `0x${'cd'.repeat(20)}`;
const createBody = {
  txHash: TX_HASH,
  creatorAddress: ADDRESS,
  description: 'Will BNB close above 600?',
  category: 'crypto',
  duration: 'hourly',
  prediction: 'YES',
  amountWei: '5000000000000000',
  escrowId: `0x${'ab'.repeat(32)}`,
  closesAt: 1_790_003_600,
};
const oracleBetBody = { epoch: 1, position: 'bull', amountWei: '1', userAddress: ADDRESS, txHash: TX_HASH };

const app = Fastify();
const seen: unknown[] = [];

beforeAll(async () => {
  registerErrorHandling(app);
  defineRoute(app, ROUTES.leaderboard, async (input) => {
    seen.push(input.query);
    return { status: 200, body: { entries: [] } };
  });
  const brokenRoute = {
    method: 'GET',
    path: '/api/broken',
    summary: 'Answers what its contract refuses',
    responses: { 200: LeaderboardResponseSchema },
  } as const;
  defineRoute(app, brokenRoute, async () => ({
    status: 200,
    body: { entries: [{ address: 'nobody', totalWinningsWei: '0', totalBets: 1, winRate: 0 }] },
  }));
  defineRoute(app, ROUTES.getMarket, async () => ({
    status: 404,
    body: { error: { code: 'MARKET_NOT_FOUND', message: 'Market not found' } },
  }));
  defineRoute(app, ROUTES.createMarket, async (input) => ({
    status: 202,
    body: { status: 'pending', txHash: input.body.txHash },
  }));
  defineRoute(app, ROUTES.placeOracleBet, async (input) => ({
    status: 202,
    body: { status: 'pending', txHash: input.body.txHash },
  }));
  defineRoute(app, ROUTES.claim, async () => {
    throw new Error('not reached');
  });
  await app.ready();
});
afterAll(() => app.close());

async function errorOf(request: { method: 'GET' | 'POST'; url: string; payload?: object }) {
  const response = await app.inject(request);
  return { status: response.statusCode, body: response.json() };
}

const validation = (message: string) => ({
  status: 400,
  body: { error: { code: 'VALIDATION_FAILED', message } },
});

describe('defineRoute input parsing', () => {
  test('a query string limit reaches the handler as a number', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/leaderboard?limit=5' });
    expect(response.statusCode).toBe(200);
    expect(seen.at(-1)).toEqual({ limit: 5 });
  });

  test.each([
    ['limit=0', 'limit: Too small: expected number to be >=1'],
    ['limit=1.5', 'limit: Invalid input: expected int, received number'],
    ['limit=ten', 'limit: Invalid input: expected number, received NaN'],
    ['sort=asc', 'Unrecognized key: "sort"'],
  ])('GET /api/leaderboard?%s answers "%s"', async (query, message) => {
    expect(await errorOf({ method: 'GET', url: `/api/leaderboard?${query}` })).toEqual(validation(message));
  });

  test('a market id of 0 names the id field', async () => {
    expect(await errorOf({ method: 'GET', url: '/api/markets/0' })).toEqual(
      validation('id: Too small: expected number to be >0'),
    );
  });

  test('a valid body reaches the handler', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/markets', payload: createBody });
    expect(response.statusCode).toBe(202);
  });

  test.each([
    ['no category', { category: undefined }, 'category: Please select a category'],
    ['an unknown category', { category: 'weather' }, 'category: Please select a category'],
    ['no prediction', { prediction: undefined }, 'prediction: Please select your prediction'],
    [
      'a long description',
      { description: 'x'.repeat(2001) },
      'description: Too big: expected string to have <=2000 characters',
    ],
    ['a short hash', { txHash: '0x12' }, 'txHash: must be a 0x-prefixed 32-byte hash'],
    ['an unknown field', { isAdmin: true }, 'Unrecognized key: "isAdmin"'],
  ])('creating a market with %s answers "%s"', async (_case, change, message) => {
    const payload = { ...createBody, ...change };
    expect(await errorOf({ method: 'POST', url: '/api/markets', payload })).toEqual(validation(message));
  });

  test.each([
    [{ epoch: -1 }, 'epoch: Too small: expected number to be >=0'],
    [{ position: 'up' }, 'position: Invalid option: expected one of "bull"|"bear"'],
  ])('an oracle bet with %o answers "%s"', async (change, message) => {
    const payload = { ...oracleBetBody, ...change };
    expect(await errorOf({ method: 'POST', url: '/api/oracle/bets', payload })).toEqual(validation(message));
  });

  test('a claim without a body names the first missing field', async () => {
    expect(await errorOf({ method: 'POST', url: '/api/claims' })).toEqual(
      validation('userAddress: Invalid input: expected string, received undefined'),
    );
  });
});

test('an answer that breaks the contract is a generic 500, never sent', async () => {
  const response = await app.inject({ method: 'GET', url: '/api/broken' });
  expect(response.statusCode).toBe(500);
  expect(response.json()).toEqual({ error: { code: 'INTERNAL', message: ERROR_MESSAGES.INTERNAL } });
});

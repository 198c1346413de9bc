import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { MarketOperatorResponseSchema, OperatorNonceResponseSchema } from '@pm/core/contract/operator';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operatorNonces } from '../src/db/schema.ts';
import { NONCE_CLOCK_SKEW_MS, NONCE_TTL_MS } from '../src/operators/operator-auth.ts';
import { NONCE_RATE_LIMIT } from '../src/operators/operator-routes.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { fetchNonce, freshClientAddress, player, signOperatorAction } from './support/operator-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Operator signatures cannot be replayed elsewhere: they are EIP-712 typed data naming the app, its version
// and chain, the action and its target, a server nonce and an expiry (docs/decisions/007). Here through the
// market endpoints (resolve, void); the oracle's use the same check.

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
beforeAll(async () => {
  t = await startTestApp({ OPERATOR_ADDRESSES: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
  m = marketHelpers(t);
});
afterAll(() => t?.close());

const operator = () => player(t, 0);
const stranger = () => player(t, 1);

const post = (marketId: number, action: 'resolve' | 'void', payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/markets/${marketId}/admin/${action}`, payload });

const detail = async (id: number) =>
  MarketDetailResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/markets/${id}` })).json());

async function closedMarket(title: string) {
  const { market } = await m.createMarket({ title }, { amountWei: parseEther('0.01') });
  await m.joinMarket(market.id, { player: 2, prediction: 'NO', amountWei: parseEther('0.01') });
  await t.advanceTime(3601);
  return market;
}

function expectRefused(response: { statusCode: number; json(): unknown }, message: string) {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message } });
}

describe('signed market actions', () => {
  test('an operator resolves a closed market YES with a signed reason; the signature works once', async () => {
    const market = await closedMarket('signed-yes');
    const request = {
      action: 'market.resolve',
      marketId: market.id,
      result: 'YES',
      reason: 'Reported.',
    } as const;
    const body = {
      ...(await signOperatorAction(t, operator(), request)),
      result: 'YES',
      reason: 'Reported.',
    };
    const response = await post(market.id, 'resolve', body);
    expect(response.statusCode).toBe(200);
    expect(MarketOperatorResponseSchema.parse(response.json())).toMatchObject({
      action: 'resolve',
      marketId: market.id,
      result: 'YES',
    });
    expect((await detail(market.id)).market).toMatchObject({
      status: 'settled',
      result: 'YES',
      aiVerdict: 'Reported.',
    });

    expectRefused(await post(market.id, 'resolve', body), 'The nonce is unknown, used or expired.');
  });

  test('an operator voids an open market and every stake is refunded', async () => {
    const { market } = await m.createMarket({ title: 'signed-void' });
    const request = {
      action: 'market.void',
      marketId: market.id,
      result: 'VOID',
      reason: 'Duplicate',
    } as const;
    const response = await post(market.id, 'void', {
      ...(await signOperatorAction(t, operator(), request)),
      reason: 'Duplicate',
    });
    expect(response.statusCode).toBe(200);
    expect(MarketOperatorResponseSchema.parse(response.json()).result).toBe('VOID');
    const after = await detail(market.id);
    expect(after.market.result).toBe('VOID');
    expect(after.bets.every((bet) => bet.status === 'refunded')).toBe(true);
  });

  test('resolving before the deadline is refused; the market keeps taking bets', async () => {
    const { market } = await m.createMarket({ title: 'signed-too-early' });
    const request = { action: 'market.resolve', marketId: market.id, result: 'NO', reason: 'Early' } as const;
    const response = await post(market.id, 'resolve', {
      ...(await signOperatorAction(t, operator(), request)),
      result: 'NO',
      reason: 'Early',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('takes bets until');
    expect((await detail(market.id)).market.status).toBe('active');
  });
});

describe('refused signatures', () => {
  const resolveYes = (marketId: number) =>
    ({ action: 'market.resolve', marketId, result: 'YES', reason: 'Because.' }) as const;
  const send = (marketId: number, signed: Record<string, unknown>) =>
    post(marketId, 'resolve', { ...signed, result: 'YES', reason: 'Because.' });

  let marketId = 0;
  beforeAll(async () => {
    marketId = (await closedMarket('refusals')).id;
  });

  test('a replayed signature is refused', async () => {
    const other = await closedMarket('replay-source');
    const request = { action: 'market.void', marketId: other.id, result: 'VOID', reason: 'x' } as const;
    const signed = await signOperatorAction(t, operator(), request);
    expect((await post(other.id, 'void', { ...signed, reason: 'x' })).statusCode).toBe(200);
    expectRefused(
      await post(other.id, 'void', { ...signed, reason: 'x' }),
      'The nonce is unknown, used or expired.',
    );
  });

  test('an expired signature is refused', async () => {
    const signed = await signOperatorAction(t, operator(), resolveYes(marketId));
    await t.advanceTime(NONCE_TTL_MS / 1000 + 1);
    expectRefused(await send(marketId, signed), 'The signature has expired.');
  });

  test('a signature made for another chain is refused', async () => {
    const signed = await signOperatorAction(t, operator(), resolveYes(marketId), { chainId: 56 });
    expectRefused(
      await send(marketId, signed),
      'The signature does not match the operator address, this action or this chain.',
    );
  });

  test('a signature of another action, market, result or reason is refused', async () => {
    const overrides = [
      { action: 'market.void' as const },
      { action: 'oracle.reset' as const },
      { marketId: marketId + 1 },
      { result: 'NO' as const },
      { reason: 'Something else.' },
    ];
    for (const override of overrides) {
      const signed = await signOperatorAction(t, operator(), resolveYes(marketId), override);
      expectRefused(
        await send(marketId, signed),
        'The signature does not match the operator address, this action or this chain.',
      );
    }
  });

  test('an expiry other than the nonce’s, or a nonce the server never issued, is refused', async () => {
    const issued = await fetchNonce(t);
    const later = await signOperatorAction(t, operator(), resolveYes(marketId), {
      nonce: issued.nonce,
      expiry: issued.expiry + 600,
    });
    expectRefused(await send(marketId, later), 'The nonce is unknown, used or expired.');
    const made = await signOperatorAction(t, operator(), resolveYes(marketId), { nonce: 'f'.repeat(48) });
    expectRefused(await send(marketId, made), 'The nonce is unknown, used or expired.');
  });

  test('a signature by an address that is not an operator is refused', async () => {
    expectRefused(
      await send(marketId, await signOperatorAction(t, stranger(), resolveYes(marketId))),
      'This address is not an operator.',
    );
    const byStranger = await signOperatorAction(t, stranger(), resolveYes(marketId));
    expectRefused(
      await send(marketId, { ...byStranger, address: operator().account.address }),
      'The signature does not match the operator address, this action or this chain.',
    );
    expect((await detail(marketId)).market.result).toBeNull();
  });
});

describe('the nonce endpoint', () => {
  test('one client gets 10 nonces a minute, then 429 RATE_LIMITED', async () => {
    const remoteAddress = freshClientAddress();
    for (let i = 0; i < NONCE_RATE_LIMIT.max; i++) await fetchNonce(t, remoteAddress);
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/nonce', remoteAddress });
    expect(response.statusCode).toBe(429);
    expect(response.json().error.code).toBe('RATE_LIMITED');
  });

  test('strangers asking for nonces from many addresses cannot lock the operator out', async () => {
    await t.db.delete(operatorNonces);
    // The lock-out this guards against: ten addresses took the old table's 100 outstanding nonces
    // every five minutes. Twenty addresses now take 200, and issuing stores nothing.
    for (let a = 0; a < 20; a++) {
      const remoteAddress = freshClientAddress();
      for (let i = 0; i < NONCE_RATE_LIMIT.max; i++) await fetchNonce(t, remoteAddress);
    }
    expect(await t.db.$count(operatorNonces)).toBe(0);

    const market = await closedMarket('nonce-lockout');
    const request = { action: 'market.void', marketId: market.id, result: 'VOID', reason: 'Test.' } as const;
    const signed = await signOperatorAction(t, operator(), request);
    const response = await post(market.id, 'void', { ...signed, reason: 'Test.' });
    expect(response.statusCode).toBe(200);
    expect((await detail(market.id)).market).toMatchObject({ status: 'settled', result: 'VOID' });
    // Only the used nonce is kept, so the same signature is refused.
    expect(await t.db.$count(operatorNonces)).toBe(1);
    expectRefused(
      await post(market.id, 'void', { ...signed, reason: 'Test.' }),
      'The nonce is unknown, used or expired.',
    );
  });

  test('a nonce of the right shape that this server did not make is refused', async () => {
    const { market } = await m.createMarket({ title: 'forged-nonce' });
    const request = { action: 'market.void', marketId: market.id, result: 'VOID', reason: 'Test.' } as const;
    const issued = await fetchNonce(t);
    // Another random half with the issued MAC, and the issued random half with a made-up MAC.
    for (const nonce of [
      '0'.repeat(32) + issued.nonce.slice(32),
      issued.nonce.slice(0, 32) + 'a'.repeat(64),
    ]) {
      const signed = await signOperatorAction(t, operator(), request, { nonce, expiry: issued.expiry });
      expectRefused(
        await post(market.id, 'void', { ...signed, reason: 'Test.' }),
        'The nonce is unknown, used or expired.',
      );
    }
    expect((await detail(market.id)).market.status).toBe('active');
  });

  test('used nonces are pruned once expired and past the clock-skew margin', async () => {
    await t.advanceTime((NONCE_TTL_MS + NONCE_CLOCK_SKEW_MS) / 1000 + 1);
    const market = await closedMarket('nonce-prune');
    const request = { action: 'market.void', marketId: market.id, result: 'VOID', reason: 'Test.' } as const;
    const signed = await signOperatorAction(t, operator(), request);
    expect((await post(market.id, 'void', { ...signed, reason: 'Test.' })).statusCode).toBe(200);
    const fresh = OperatorNonceResponseSchema.parse(await fetchNonce(t));
    expect(fresh.expiry * 1000).toBe(Date.parse(fresh.expiresAt));
    expect(await t.db.$count(operatorNonces)).toBe(1);
  });
});

import { ConfigResponseSchema } from '@pm/core/contract/config';
import { HealthResponseSchema } from '@pm/core/contract/health';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMetrics } from '../src/metrics/metrics.ts';
import { registerSystemRoutes } from '../src/system/system-routes.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('system endpoints', () => {
  test('health reports the database kind, chain id and block number', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = HealthResponseSchema.parse(response.json());
    expect(body.db).toBe(process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');
    expect(body.chainId).toBe(31337);
  });

  test('config tells the web the chain, the escrow and the minimum bets', async () => {
    const body = ConfigResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/config' })).json(),
    );
    expect(body.minMarketBetWei).toBe('5000000000000000');
    expect(body.minOracleBetWei).toBe('10000000000000000');
    expect(body.claimsEnabled).toBe(true);
    // Round stakes go into the escrow (decision 026): its address on this chain, checksummed.
    const escrow = t.config.escrow.address;
    expect(escrow).toBeDefined();
    expect(body.escrow).toEqual({ address: getAddress(escrow ?? ''), chainId: 31337 });
  });

  test('without an escrow contract (no ESCROW_ADDRESS): config says null, GET /api/vault 503 ESCROW_NOT_CONFIGURED', async () => {
    const bare = await startTestApp({}, { escrow: false });
    try {
      const config = ConfigResponseSchema.parse(
        (await bare.app.inject({ method: 'GET', url: '/api/config' })).json(),
      );
      expect(config.escrow).toBeNull();
      // With one: vault-api.test.ts.
      const response = await bare.app.inject({ method: 'GET', url: '/api/vault' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: { code: 'ESCROW_NOT_CONFIGURED', message: 'No escrow contract is configured on this server.' },
      });
    } finally {
      await bare.close();
    }
  });

  test('an unknown API path answers 404 in the error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No route for GET /api/nothing-here' },
    });
  });

  test('a path the router cannot decode answers 400 in the error shape', async () => {
    for (const url of ['/api/markets/%zz', '/api/users/%E0%A4/bets', '/api/markets/%/bets']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'BAD_REQUEST', message: 'The request path is not a valid URL.' },
      });
    }
  });

  test('a path parameter over the length limit answers 414 in the error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/markets/${'1'.repeat(200)}` });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({
      error: { code: 'BAD_REQUEST', message: 'A path parameter is too long.' },
    });
  });

  test('a plain GET on the realtime socket answers 426 in the error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/realtime' });
    expect(response.statusCode).toBe(426);
    expect(response.headers.upgrade).toBe('websocket');
    expect(response.json().error.code).toBe('BAD_REQUEST');
  });

  test('malformed JSON answers 400 BAD_REQUEST', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/claims',
      headers: { 'content-type': 'application/json' },
      payload: '{"userAddress":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('BAD_REQUEST');
  });

  test('an invalid query answers 400 VALIDATION_FAILED naming the field', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/leaderboard?limit=0' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('limit'),
    });
  });

  test('unknown query fields are refused', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/leaderboard?sort=asc' });
    expect(response.statusCode).toBe(400);
  });

  test('the OpenAPI document lists every path of the contract', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/markets/{id}/bets', '/api/oracle/bets', '/api/claims']),
    );
  });

  test('the leaderboard is empty before anyone wins', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/leaderboard' });
    expect(response.json()).toEqual({ entries: [] });
  });
});

describe('rate limiting', () => {
  test('too many requests answer 429 RATE_LIMITED', async () => {
    const { createApp } = await import('../src/app.ts');
    // A second app, limited to two a minute, on this file's chain and database; its own metrics
    // registry keeps the file's app's gauges pointing at that app.
    const app = await createApp(
      { ...t.deps, metrics: createMetrics({ now: () => t.clock.now() }) },
      { rateLimitPerMinute: 2, features: [registerSystemRoutes] },
    );
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await app.inject({ method: 'GET', url: '/api/config' })).statusCode);
      const last = await app.inject({ method: 'GET', url: '/api/config' });
      expect(statuses).toEqual([200, 200, 429]);
      expect(last.json().error.code).toBe('RATE_LIMITED');
    } finally {
      await app.close();
    }
  });
});

describe('outbox', () => {
  test('the prune job deletes realtime events older than ten minutes and keeps newer ones', async () => {
    const { outbox } = await import('../src/db/schema.ts');
    const { createPruneOutboxJob } = await import('../src/realtime/prune-outbox-job.ts');
    await t.db.insert(outbox).values([
      { topic: 'vault', payload: {}, createdAt: new Date(Date.now() - 11 * 60_000) },
      { topic: 'markets', payload: { id: 42 }, createdAt: new Date() },
    ]);
    await createPruneOutboxJob(t.db).run();
    const rows = await t.db.select().from(outbox);
    expect(rows.map((row) => row.topic)).not.toContain('vault');
    expect(rows.map((row) => row.payload)).toContainEqual({ id: 42 });
  });
});

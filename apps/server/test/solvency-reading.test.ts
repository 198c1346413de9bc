import { CHAIN_ID } from '@pm/core/constants';
import { SolvencyResponseSchema } from '@pm/core/contract/solvency';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainClient } from '../src/chain/chain-client.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// No request makes GET /api/solvency read afresh. It summed `bets` and made two RPC calls on every cache
// miss, and the cache was keyed by the raw URL and skipped for a `pm_fresh` cookie, so `?1`, `?2`…
// made every request a full read (20 requests with a block mined before each came back with 20
// different blocks). Now the endpoint serves the reserves job's last reading and nothing else.

let t: TestApp;
/** Balance reads the server's RPC client made: each reading of the reserves makes one. */
let balanceReads = 0;

beforeAll(async () => {
  t = await startTestApp(
    // The production cache setting: the bypass went around it.
    { RESPONSE_CACHE_MS: '1000' },
    {
      chainClient: (rpcUrl) => {
        const client = createChainClient({ id: CHAIN_ID.local, rpcUrl });
        return new Proxy(client, {
          get(target, property, receiver) {
            if (property === 'getBalance') {
              return (...args: Parameters<typeof client.getBalance>) => {
                balanceReads += 1;
                return client.getBalance(...args);
              };
            }
            return Reflect.get(target, property, receiver);
          },
        });
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
});

const reservesCheck = () => {
  const job = t.features.jobs.find((candidate) => candidate.name === 'reserves-check');
  if (!job) throw new Error('the server runs no reserves-check job');
  return job.run();
};

const mineBlock = () => t.chain.testClient.mine({ blocks: 1 });

describe('GET /api/solvency serves the last reading of the reserves', () => {
  test('before the first check it answers 503 RESERVES_NOT_CHECKED, and reads nothing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/solvency?1' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: { code: 'RESERVES_NOT_CHECKED' } });
    expect(balanceReads).toBe(0);
  });

  test('20 requests with a block mined before each, each with its own query string, get the same block', async () => {
    await reservesCheck();
    const reading = SolvencyResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/solvency' })).json(),
    );
    const readsBefore = balanceReads;
    const blocks = new Set<string>();
    for (let i = 1; i <= 20; i++) {
      await mineBlock();
      const response = await t.app.inject({ method: 'GET', url: `/api/solvency?${i}` });
      expect(response.statusCode).toBe(200);
      blocks.add(SolvencyResponseSchema.parse(response.json()).blockNumber);
    }
    expect([...blocks]).toEqual([reading.blockNumber]);
    expect(balanceReads).toBe(readsBefore);
    // checkedAt is when the job read, not when the request came.
    expect(SolvencyResponseSchema.parse((await t.app.inject('/api/solvency')).json()).checkedAt).toBe(
      reading.checkedAt,
    );
  });

  test('no query string, cookie or header makes a request read the chain or the database', async () => {
    const readsBefore = balanceReads;
    const spellings: Array<{ url: string; headers?: Record<string, string> }> = [
      { url: '/api/solvency?x' },
      { url: '/api/solvency?fresh=1&_=123' },
      { url: '/api/solvency?' },
      { url: '/api/solvency#x' },
      { url: '/api/solvency', headers: { cookie: 'pm_fresh=1' } },
      { url: '/api/solvency?x', headers: { cookie: 'a=1; pm_fresh=1' } },
      { url: '/api/solvency', headers: { 'cache-control': 'no-cache', pragma: 'no-cache' } },
      { url: '/%61pi/solvency' },
    ];
    const blocks = new Set<string>();
    for (const { url, headers } of spellings) {
      await mineBlock();
      const response = await t.app.inject({ method: 'GET', url, ...(headers ? { headers } : {}) });
      expect(response.statusCode, url).toBe(200);
      blocks.add(SolvencyResponseSchema.parse(response.json()).blockNumber);
    }
    expect(blocks.size).toBe(1);
    expect(balanceReads).toBe(readsBefore);
  });

  test("the next check's reading is served from then on, with its block and time", async () => {
    const before = SolvencyResponseSchema.parse((await t.app.inject('/api/solvency')).json());
    await mineBlock();
    await reservesCheck();
    const after = SolvencyResponseSchema.parse((await t.app.inject('/api/solvency?y')).json());
    expect(BigInt(after.blockNumber)).toBeGreaterThan(BigInt(before.blockNumber));
    expect(after.blockNumber).toBe((await t.chain.publicClient.getBlockNumber({ cacheTime: 0 })).toString());
  });
});

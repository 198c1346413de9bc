import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type WebSocket from 'ws';
import { createApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { runDoctor } from '../src/doctor/run-doctor.ts';
import { type AiStub, completion, startAiStub } from './support/ai-stub.ts';
import { connectAs } from './support/connect-realtime.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Limits by client address, so that no client escapes them by rotating addresses. The HTTP rate limit groups
// IPv6 clients by /64 (@fastify/rate-limit's default); the WebSocket cap and the Analyze allowance counted
// each full IPv6 address, so one client with a /64 (2^64 addresses) had as many buckets as it liked. Behind a
// proxy with TRUST_PROXY=0 everyone shares one bucket, and nothing said so. And a review window of 0 was
// accepted on mainnet.

let stub: AiStub;
let t: TestApp;
const warnings: string[] = [];

beforeAll(async () => {
  stub = await startAiStub();
  stub.reply(() => completion({ decidable: true, problems: [], suggestedInstructions: '' }));
  t = await startTestApp(
    { AI_BASE_URL: stub.url, AI_MODEL: 'judge', AI_TIMEOUT_MS: '1000', ANALYZE_DAILY_LIMIT: '1000' },
    { logger: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) }) },
  );
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

/** The app on a loopback port, trusting one proxy: request.ip is the X-Forwarded-For a socket sends. */
async function listenBehindProxy(env: Record<string, string>) {
  const config = loadConfig({
    RPC_URL: t.chain.rpcUrl,
    LOG_LEVEL: 'silent',
    JOBS: 'false',
    TRUST_PROXY: '1',
    ...env,
  });
  const app = await createApp({ ...t.deps, config });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `${address.replace('http', 'ws')}/api/realtime` };
}

const connect = connectAs;

const closeAll = async (app: FastifyInstance, sockets: WebSocket[]) => {
  for (const socket of sockets) socket.terminate();
  await app.close();
};

const question = { description: 'Will BNB close above $700 today?', duration: 'daily' };
const analyze = (remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/markets/analyze', payload: question, remoteAddress });

describe('limits count an IPv6 client by its /64', () => {
  test('realtime sockets from many addresses of one /64 share the per-client cap; another /64 does not', async () => {
    const { app, url } = await listenBehindProxy({ WS_MAX_CONNECTIONS_PER_IP: '3' });
    const sockets: WebSocket[] = [];
    try {
      for (const address of ['2001:db8:7:1::1', '2001:db8:7:1:abcd::1', '2001:db8:7:1:ffff:ffff:ffff:fffe']) {
        const result = await connect(url, address);
        if (!('socket' in result)) throw new Error(`refused with ${result.refused}`);
        sockets.push(result.socket);
      }
      expect(await connect(url, '2001:db8:7:1:dead:beef:0:4')).toEqual({ refused: 429 });
      expect(await connect(url, '2001:DB8:0007:0001::5')).toEqual({ refused: 429 });
      const other = await connect(url, '2001:db8:7:2::1');
      expect('socket' in other).toBe(true);
      if ('socket' in other) sockets.push(other.socket);
    } finally {
      await closeAll(app, sockets);
    }
  });

  test('Analyze requests from many addresses of one /64 share one allowance of 5 a minute', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await analyze(`2001:db8:8:1::${i.toString(16)}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await analyze('2001:db8:8:1:ffff::9')).json()).toMatchObject({
      error: { code: 'ANALYZE_RATE_LIMITED' },
    });
    expect((await analyze('2001:db8:8:2::1')).statusCode).toBe(200);
  });

  test('IPv4 clients still count one address at a time', async () => {
    for (let i = 1; i <= 5; i++) expect((await analyze('198.51.100.1')).statusCode).toBe(200);
    expect((await analyze('198.51.100.1')).statusCode).toBe(429);
    expect((await analyze('198.51.100.2')).statusCode).toBe(200);
  });
});

describe('X-Forwarded-For while TRUST_PROXY=0', () => {
  test('is logged once as a warning and noted, and the doctor shows it', async () => {
    const doctorLine = async () => {
      const lines: string[] = [];
      await runDoctor({
        env: { RPC_URL: t.chain.rpcUrl, LOG_LEVEL: 'silent' },
        out: (line) => lines.push(line),
        openDatabase: async () => ({ db: t.db, label: 'the test database', close: async () => {} }),
      });
      return lines.find((line) => line.slice(2).startsWith('TRUST_PROXY'));
    };
    expect(await doctorLine()).toBe(
      '✔ TRUST_PROXY fits the requests seen: 0, and no request has come with X-Forwarded-For',
    );

    const before = warnings.length;
    for (let i = 0; i < 3; i++) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/config',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      expect(response.statusCode).toBe(200);
    }
    const logged = warnings
      .slice(before)
      .filter((line) => line.includes('X-Forwarded-For while TRUST_PROXY=0'));
    expect(logged).toHaveLength(1);
    expect(await doctorLine()).toMatch(
      /^✖ TRUST_PROXY fits the requests seen: 0, but requests came with X-Forwarded-For \(first at .+\): behind a reverse proxy/,
    );
  });
});

describe('the review window off the local chain', () => {
  const mainnet = (env: Record<string, string>) =>
    loadConfig({
      CHAIN_ID: '56',
      RPC_URL: 'https://bsc-dataseed.bnbchain.org',
      PRICE_FEED: 'chainlink',
      CHAINLINK_RPC_URL: 'https://bsc-prices.example',
      ...env,
    });

  test('RESOLUTION_REVIEW_WINDOW_S=0 is refused on mainnet and testnet, accepted on the local chain', () => {
    for (const CHAIN_ID of ['56', '97', '1']) {
      expect(() => mainnet({ CHAIN_ID, RESOLUTION_REVIEW_WINDOW_S: '0' })).toThrow(ConfigError);
      expect(() => mainnet({ CHAIN_ID, RESOLUTION_REVIEW_WINDOW_S: '0' })).toThrow(
        /RESOLUTION_REVIEW_WINDOW_S: must be more than 0/,
      );
    }
    expect(mainnet({ RESOLUTION_REVIEW_WINDOW_S: '60' }).ai.reviewWindowS).toBe(60);
    expect(loadConfig({ RESOLUTION_REVIEW_WINDOW_S: '0' }).ai.reviewWindowS).toBe(0);
  });
});

import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type WebSocket from 'ws';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/config.ts';
import { ANALYZE_PER_ADDRESS_PER_MINUTE } from '../../src/markets/analyze-limits.ts';
import { type AiStub, completion, startAiStub } from '../support/ai-stub.ts';
import { connectAs } from '../support/connect-realtime.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { fuzzParameters } from './support/fuzz-cases.ts';
import { emptyCounts, type FuzzCounts, writeCounts } from './support/fuzz-report.ts';

// A client holding an IPv6 /64 must not escape a per-client limit: it rotates through its 2^64 addresses.
// Each case takes a random /64 and random addresses in it, spelled every way IPv6 allows (compressed, full,
// upper case, with leading zeros, IPv4-embedded tail), and checks that they all count as one client: for the
// realtime socket cap and for Analyze's per-client allowance.

const WS_CAP = 3;
let stub: AiStub;
let t: TestApp;
let proxied: FastifyInstance;
let wsUrl: string;
const counts: FuzzCounts = emptyCounts('ipv6-rotation');

beforeAll(async () => {
  stub = await startAiStub();
  stub.reply(() => completion({ decidable: true, problems: [], suggestedInstructions: '' }));
  t = await startTestApp({ AI_BASE_URL: stub.url, AI_MODEL: 'judge', ANALYZE_DAILY_LIMIT: '1000000' });
  // The realtime socket behind one trusted proxy: request.ip is the X-Forwarded-For each socket sends.
  const config = loadConfig({
    RPC_URL: t.chain.rpcUrl,
    LOG_LEVEL: 'silent',
    JOBS: 'false',
    TRUST_PROXY: '1',
    WS_MAX_CONNECTIONS_PER_IP: String(WS_CAP),
  });
  proxied = await createApp({ ...t.deps, config });
  const address = await proxied.listen({ host: '127.0.0.1', port: 0 });
  wsUrl = `${address.replace('http', 'ws')}/api/realtime`;
});
afterAll(async () => {
  writeCounts(counts);
  await proxied?.close();
  await t?.close();
  await stub?.close();
});

const group = fc.integer({ min: 0, max: 0xffff });
/** A /64 of the global unicast space (2000::/3), as its four first groups. */
const prefix64 = fc.tuple(fc.integer({ min: 0x2000, max: 0x3fff }), group, group, group);
const interfaceId = fc.tuple(group, group, group, group);

/** One address of `prefix`, in one of the spellings a client (or its proxy) may send. */
const spelled = (prefix: number[]) =>
  fc
    .tuple(interfaceId, fc.constantFrom('compressed', 'full', 'upper', 'leadingZeros', 'v4tail'))
    .map(([id, style]) => {
      const parts = [...prefix, ...id];
      const address = new ipaddr.IPv6(parts);
      switch (style) {
        case 'full':
          return address.toNormalizedString();
        case 'upper':
          return address.toString().toUpperCase();
        case 'leadingZeros':
          return parts.map((part) => part.toString(16).padStart(4, '0')).join(':');
        case 'v4tail': {
          const [a = 0, b = 0] = id.slice(2);
          return `${parts
            .slice(0, 6)
            .map((p) => p.toString(16))
            .join(':')}:${a >> 8}.${a & 0xff}.${b >> 8}.${b & 0xff}`;
        }
        default:
          return address.toString();
      }
    });

const distinctAddresses = (n: number) =>
  prefix64.chain((prefix) =>
    fc
      .uniqueArray(spelled(prefix), {
        minLength: n,
        maxLength: n,
        selector: (a) => ipaddr.parse(a).toString(),
      })
      .map((addresses) => ({ prefix, addresses })),
  );

const connect = (forwardedFor: string) => connectAs(wsUrl, forwardedFor);

test('realtime sockets from any addresses of one /64 share the per-client cap', async () => {
  await fc.assert(
    fc.asyncProperty(distinctAddresses(WS_CAP + 1), async ({ addresses }) => {
      const sockets: WebSocket[] = [];
      try {
        const results = [];
        for (const address of addresses) {
          const result = await connect(address);
          counts.wsCases += 1;
          if ('socket' in result) sockets.push(result.socket);
          results.push('socket' in result ? 'open' : result.refused);
        }
        expect(results, addresses.join(', ')).toEqual([...Array(WS_CAP).fill('open'), 429]);
      } finally {
        await Promise.all(
          sockets.map(
            (socket) =>
              new Promise<void>((resolve) => {
                socket.once('close', () => resolve());
                socket.close();
              }),
          ),
        );
        // The server frees a place when its side of the socket has closed.
        await expect
          .poll(async () => {
            const probe = await connect(addresses[0] ?? '');
            if (!('socket' in probe)) return false;
            probe.socket.terminate();
            return true;
          })
          .toBe(true);
      }
    }),
    fuzzParameters(40),
  );
});

test('Analyze requests from any addresses of one /64 share one allowance a minute', async () => {
  const allowance = ANALYZE_PER_ADDRESS_PER_MINUTE;
  await fc.assert(
    fc.asyncProperty(distinctAddresses(allowance + 2), async ({ addresses }) => {
      const statuses: number[] = [];
      for (const remoteAddress of addresses) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/markets/analyze',
          payload: { description: 'Will BNB close above $700 today?', duration: 'daily' },
          remoteAddress,
        });
        counts.cases += 1;
        if (response.statusCode < 300) counts.status2xx += 1;
        else if (response.statusCode < 500) counts.status4xx += 1;
        else counts.status5xx += 1;
        statuses.push(response.statusCode);
      }
      expect(statuses, addresses.join(', ')).toEqual([...Array(allowance).fill(200), 429, 429]);
    }),
    fuzzParameters(60),
  );
});

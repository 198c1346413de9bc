import { ROUTES } from '@pm/core/contract/routes';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fuzzHttp, fuzzParameters } from './support/fuzz-cases.ts';
import { writeCounts } from './support/fuzz-report.ts';
import { type FuzzWorld, startFuzzWorld } from './support/fuzz-world.ts';
import {
  hostileAddress,
  hostileBytes,
  hostileContentType,
  hostileKey,
  hostileSegment,
  hostileString,
  hostileValue,
  json,
  percentEncode,
} from './support/hostile.ts';
import { createHttpFuzzer, type HttpCase, type HttpFuzzer, type HttpMethod } from './support/http-fuzzer.ts';

// Every path parameter and query parameter of the API (packages/core/src/contract/routes.ts), every
// route reached by other spellings of its path (percent-encoded, case, slashes) and other methods,
// with bodies of random bytes and wrong content types.

let world: FuzzWorld;
let fuzzer: HttpFuzzer;

beforeAll(async () => {
  world = await startFuzzWorld();
  fuzzer = createHttpFuzzer(world.t, 'http-paths', world.errors.drain);
});
afterAll(async () => {
  if (fuzzer) writeCounts(fuzzer.counts);
  await world?.close();
});

const oneOf = <T>(values: readonly T[]) => fc.constantFrom(...values);

/** An address path segment: the world's real ones in any case, or hostile ones, percent-encoded. */
const addressSegment = () =>
  fc.oneof(
    oneOf(world.addresses).map((a) => a.toUpperCase().replace('0X', '0x')),
    oneOf(world.addresses),
    hostileAddress.map((a) => percentEncode(a.slice(0, 300))),
    hostileSegment,
  );

/** A market id path segment: the real one in other spellings (01, 1.0, 0x1, %31), or hostile. */
const idSegment = () =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(String(world.marketId)) },
    {
      weight: 1,
      arbitrary: oneOf([
        `0${world.marketId}`,
        `${world.marketId}.0`,
        `0x${world.marketId.toString(16)}`,
        `${world.marketId}e0`,
      ]),
    },
    {
      weight: 1,
      arbitrary: fc.constant(
        percentEncode(String(world.marketId)).replace(/./g, (c) => `%${c.charCodeAt(0).toString(16)}`),
      ),
    },
    { weight: 6, arbitrary: hostileSegment },
  );

test('GET /api/markets/:id never answers 5xx for any id in any spelling', async () => {
  const cases = idSegment().map(
    (id): HttpCase => ({
      route: 'GET /api/markets/:id',
      method: 'GET',
      url: `/api/markets/${id}`,
      allowed2xx: [200],
    }),
  );
  await fuzzHttp(fuzzer, cases, 1000);
});

test('POST /api/markets/:id/bets never answers 5xx for any id in any spelling, and records nothing', async () => {
  const replay = json(world.replays.join);
  const cases = fc.tuple(idSegment(), fc.oneof(fc.constant(replay), hostileValue)).map(
    ([id, payload]): HttpCase => ({
      route: 'POST /api/markets/:id/bets',
      method: 'POST',
      url: `/api/markets/${id}/bets`,
      contentType: 'application/json',
      payload,
      // The recorded request sent again under another spelling of its market id answers it again.
      allowed2xx: [201],
    }),
  );
  await fuzzHttp(fuzzer, cases, 600);
});

test('GET /api/users/:address/{bets,claimable} never answers 5xx for any address', async () => {
  const cases = fc.tuple(addressSegment(), oneOf(['bets', 'claimable'])).map(
    ([address, what]): HttpCase => ({
      route: `GET /api/users/:address/${what}`,
      method: 'GET',
      url: `/api/users/${address}/${what}`,
      allowed2xx: [200],
    }),
  );
  await fuzzHttp(fuzzer, cases, 800);
});

/** A query string: known keys with valid or hostile values, repeated keys, prototype keys, junk. */
function queryString(keys: readonly string[], valid: Record<string, readonly string[]>) {
  const key = fc.oneof(
    { weight: 4, arbitrary: oneOf(keys) },
    { weight: 1, arbitrary: oneOf(keys).map((k) => `${k}[]`) },
    {
      weight: 1,
      arbitrary: oneOf([
        '__proto__',
        'constructor',
        '__proto__[polluted]',
        'constructor[prototype][polluted]',
      ]),
    },
    { weight: 1, arbitrary: hostileKey.map(percentEncode) },
  );
  const value = (k: string) =>
    fc.oneof(
      { weight: 2, arbitrary: oneOf(Object.hasOwn(valid, k) ? (valid[k] ?? ['x']) : ['x']) },
      { weight: 3, arbitrary: hostileString.map((s) => percentEncode(s.slice(0, 300))) },
      { weight: 1, arbitrary: hostileSegment },
      { weight: 1, arbitrary: oneOf(['', '=', '&', '%', '+', '%2B1', '1%00', '%26limit%3D1']) },
    );
  const pair = key.chain((k) => value(k).map((v) => `${k}=${v}`));
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => pairs.join('&')) },
    { weight: 1, arbitrary: oneOf(['', '&', '&&', '=', '==', '?', 'limit', 'limit=', '=1', ';limit=1']) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[#\s]/g, '')),
    },
  );
}

test('GET /api/markets never answers 5xx for any query', async () => {
  const query = queryString(['category', 'status', 'limit'], {
    category: ['crypto', 'social_media', 'gaming', 'politics', 'sports', 'all'],
    status: ['open', 'settled'],
    limit: ['1', '50', '200', '201', '0'],
  });
  const cases = query.map(
    (q): HttpCase => ({
      route: 'GET /api/markets',
      method: 'GET',
      url: `/api/markets?${q}`,
      allowed2xx: [200],
    }),
  );
  await fuzzHttp(fuzzer, cases, 1000);
});

test('GET /api/markets/:id/bets never answers 5xx for any id or query', async () => {
  const address = world.addresses[1] ?? '';
  const query = queryString(['limit', 'cursor', 'address'], {
    limit: ['1', '50', '200', '201', '0'],
    cursor: [
      '1767268800000.1',
      '1767268800000.2147483647',
      '1767268800000.2147483648',
      '99999999999999999.1',
      '1.x1',
    ],
    address: [address, address.toUpperCase().replace('0X', '0x'), '0x1234'],
  });
  const cases = fc.tuple(idSegment(), query).map(
    ([id, q]): HttpCase => ({
      route: 'GET /api/markets/:id/bets',
      method: 'GET',
      url: `/api/markets/${id}/bets?${q}`,
      allowed2xx: [200],
    }),
  );
  await fuzzHttp(fuzzer, cases, 800);
});

test('GET /api/leaderboard never answers 5xx for any query', async () => {
  const query = queryString(['limit'], { limit: ['1', '100', '101', '0'] });
  const cases = query.map(
    (q): HttpCase => ({
      route: 'GET /api/leaderboard',
      method: 'GET',
      url: `/api/leaderboard?${q}`,
      allowed2xx: [200],
    }),
  );
  await fuzzHttp(fuzzer, cases, 500);
});

test('GET /api/users/:address/{history,summary} never answers 5xx for any address or query', async () => {
  const query = queryString(['game', 'status', 'limit', 'cursor'], {
    game: ['all', 'markets', 'oracle'],
    status: ['all', 'active', 'won', 'lost', 'refunded', 'claimable', 'claimed'],
    limit: ['1', '100', '101', '0'],
    cursor: [
      '1767268800000000.m1',
      '1767268800000000.o2147483647',
      '1767268800000000.b3',
      '99999999999999999999.m1',
      '1.x1',
    ],
  });
  const cases = fc.tuple(addressSegment(), oneOf(['history', 'summary']), query).map(
    ([address, what, q]): HttpCase => ({
      route: `GET /api/users/:address/${what}`,
      method: 'GET',
      url: `/api/users/${address}/${what}?${q}`,
      allowed2xx: [200],
    }),
  );
  await fuzzHttp(fuzzer, cases, 800);
});

/** Every GET without parameters: a query they do not read is ignored. The nonce endpoint writes a nonce. */
const PLAIN_GETS = [
  ROUTES.health.path,
  ROUTES.config.path,
  ROUTES.rounds.path,
  ROUTES.vault.path,
  ROUTES.solvency.path,
  ROUTES.price.path,
  ROUTES.priceHistory.path,
  ROUTES.operatorNonce.path,
  '/api/openapi.json',
] as const;

test('every GET without parameters ignores any query and never answers 5xx', async () => {
  const cases = fc.tuple(oneOf(PLAIN_GETS), queryString(['limit', 'id', 'address'], {})).map(
    ([path, q]): HttpCase => ({
      route: `GET ${path}`,
      method: 'GET',
      url: `${path}?${q}`,
      allowed2xx: [200],
      mayWrite: path === ROUTES.operatorNonce.path,
    }),
  );
  await fuzzHttp(fuzzer, cases, 500);
});

type Endpoint = { method: HttpMethod; path: string; allowed2xx: readonly number[]; mayWrite?: boolean };

/** Each endpoint with real values in its path, and what it may answer with a valid request. */
const endpoints = (): Endpoint[] => {
  const address = world.addresses[1] ?? '';
  return [
    ...PLAIN_GETS.map((path) => ({
      method: 'GET' as const,
      path,
      allowed2xx: [200],
      mayWrite: path === ROUTES.operatorNonce.path,
    })),
    { method: 'GET', path: '/api/markets', allowed2xx: [200] },
    { method: 'GET', path: `/api/markets/${world.marketId}`, allowed2xx: [200] },
    { method: 'GET', path: `/api/markets/${world.marketId}/bets`, allowed2xx: [200] },
    { method: 'GET', path: `/api/users/${address}/bets`, allowed2xx: [200] },
    { method: 'GET', path: `/api/users/${address}/claimable`, allowed2xx: [200] },
    { method: 'GET', path: '/api/leaderboard', allowed2xx: [200] },
    { method: 'POST', path: '/api/markets', allowed2xx: [201] },
    { method: 'POST', path: `/api/markets/${world.marketId}/bets`, allowed2xx: [201] },
    { method: 'POST', path: '/api/oracle/bets', allowed2xx: [201] },
    { method: 'POST', path: '/api/claims', allowed2xx: [200] },
    { method: 'POST', path: '/api/oracle/admin/genesis', allowed2xx: [] },
    { method: 'POST', path: '/api/oracle/admin/reset', allowed2xx: [] },
    { method: 'POST', path: `/api/markets/${world.marketId}/admin/resolve`, allowed2xx: [] },
    { method: 'POST', path: `/api/markets/${world.marketId}/admin/void`, allowed2xx: [] },
    { method: 'POST', path: '/api/dev/price', allowed2xx: [200], mayWrite: true },
    { method: 'GET', path: '/api/realtime', allowed2xx: [] },
    { method: 'GET', path: '/', allowed2xx: [] },
    { method: 'GET', path: '/index.html', allowed2xx: [] },
  ];
};

/** Another spelling of a path: some characters percent-encoded, another case, doubled or trailing slashes. */
const respell = (path: string) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(path) },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.boolean(), { minLength: path.length, maxLength: path.length })
        .map((mask) =>
          [...path]
            .map((c, i) => (mask[i] && c !== '/' ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c))
            .join(''),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        path.toUpperCase(),
        `${path}/`,
        path.replace('/api/', '/api//'),
        `/.${path}`,
        `${path}%2F`,
        `${path};x`,
        `${path}/..`,
        path.replace(/\//g, '%2F'),
      ),
    },
  );

test('every endpoint, reached by any spelling of its path and any method, with any bytes, never answers 5xx', async () => {
  const methods: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
  const all = endpoints();
  // What a method on a path may answer: what the endpoint with that method and path may answer
  // (HEAD is GET without the body: Fastify answers it for every GET route).
  const answering = (method: HttpMethod, path: string) =>
    all.find((e) => e.path === path && (e.method === method || (method === 'HEAD' && e.method === 'GET')));
  const cases = oneOf(all).chain((endpoint) =>
    fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(endpoint.method) },
          { weight: 1, arbitrary: oneOf(methods) },
        ),
        respell(endpoint.path),
        hostileContentType,
        fc.oneof(
          hostileValue,
          hostileValue.chain((text) => hostileBytes(text)),
          fc.constant(undefined),
        ),
      )
      .map(([method, url, contentType, payload]): HttpCase => {
        const target = answering(method, endpoint.path);
        return {
          route: `${method} ${endpoint.path}`,
          method,
          url,
          contentType,
          payload: method === 'GET' || method === 'HEAD' ? undefined : payload,
          allowed2xx: target?.allowed2xx ?? [],
          mayWrite: target?.mayWrite ?? false,
        };
      }),
  );
  await fuzzHttp(fuzzer, cases, 1200);
});

// No request may make GET /api/solvency read afresh: `?1`, `?2` and a self-set `pm_fresh` cookie each made it
// sum `bets` and call the RPC, a cheap way to load the database and the node. It now serves the reserves
// job's last reading: after a block is mined, no spelling of the request may come back with a newer block
// (that would be a read).
test('GET /api/solvency in any cache-bypass spelling serves the reading the reserves job took, never a fresh one', async () => {
  const first = await world.t.app.inject({ method: 'GET', url: ROUTES.solvency.path });
  const { blockNumber, checkedAt } = first.json() as { blockNumber: string; checkedAt: string };
  await world.t.chain.testClient.mine({ blocks: 1 });
  const spelling = fc.record({
    path: respell(ROUTES.solvency.path),
    query: fc.option(queryString(['fresh', 'nocache', '_', 't', 'pm_fresh'], { fresh: ['1', 'true'] }), {
      nil: undefined,
    }),
    cookie: fc.option(
      oneOf(['pm_fresh=1', 'pm_fresh=', 'a=b; pm_fresh=x', 'pm_fresh=1; pm_fresh=2', 'PM_FRESH=1']),
      { nil: undefined },
    ),
    cacheControl: fc.option(oneOf(['no-cache', 'no-store', 'max-age=0']), { nil: undefined }),
  });
  const answers = new Set<string>();
  await fc.assert(
    fc.asyncProperty(spelling, async ({ path, query, cookie, cacheControl }) => {
      const headers: Record<string, string> = {};
      if (cookie !== undefined) headers.cookie = cookie;
      if (cacheControl !== undefined) {
        headers['cache-control'] = cacheControl;
        headers.pragma = 'no-cache';
      }
      const url = query === undefined ? path : `${path}?${query}`;
      const response = await world.t.app.inject({ method: 'GET', url, headers });
      if (response.statusCode >= 500) throw new Error(`${url} answered ${response.statusCode}`);
      if (response.statusCode !== 200) return;
      const body = response.json() as { blockNumber: string; checkedAt: string };
      answers.add(`${body.blockNumber} ${body.checkedAt}`);
      if (body.blockNumber !== blockNumber || body.checkedAt !== checkedAt)
        throw new Error(`${url} (${JSON.stringify(headers)}) read afresh: block ${body.blockNumber}`);
    }),
    fuzzParameters(300),
  );
  expect([...answers]).toEqual([`${blockNumber} ${checkedAt}`]);
});

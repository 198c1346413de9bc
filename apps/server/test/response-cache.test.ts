import { MarketBetsResponseSchema } from '@pm/core/contract/market-bets';
import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { RealtimeMessageSchema } from '@pm/core/contract/realtime';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { bets, markets } from '../src/db/schema.ts';
import { createFeatures } from '../src/features.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 017: ETags and 304s on the reads, and the in-process cache of the public hot
// reads: never older than the reader's own confirmed bet, dropped by the realtime events of every
// instance, and otherwise served for at most its TTL.

/** Long: within a test, an answer that changes can only have changed through an invalidation. */
const LONG_TTL_MS = 10_000;
const SHORT_TTL_MS = 400;
const onPostgres = process.env.TEST_DB === 'postgres';

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
const others: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await startTestApp({ RESPONSE_CACHE_MS: String(LONG_TTL_MS) });
  m = marketHelpers(t);
});
afterAll(async () => {
  for (const stop of others) await stop();
  await t?.close();
});

/**
 * Another instance on the same database, as behind a load balancer: its own app, realtime hub
 * (LISTEN connection) and cache; on PostgreSQL its own pool too. PGlite lives in one process, so
 * there the two apps share it.
 */
async function startOtherInstance(ttlMs: number) {
  const url = t.database.url;
  const database: Database =
    onPostgres && url ? await openDatabase({ url, schema: t.database.schema, poolSize: 4 }) : t.database;
  const config = loadConfig({
    RPC_URL: t.chain.rpcUrl,
    LOG_LEVEL: 'silent',
    JOBS: 'false',
    RESPONSE_CACHE_MS: String(ttlMs),
  });
  const deps = { ...t.deps, config, database };
  const app: FastifyInstance = await createApp(deps, {
    features: createFeatures(deps, t.app.log).routes,
    rateLimitPerMinute: 100_000,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  others.push(async () => {
    await app.close();
    if (database !== t.database) await database.close();
  });
  return { app, ws: `${address.replace('http', 'ws')}/api/realtime` };
}

async function detail(app: FastifyInstance, id: number, headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'GET', url: `/api/markets/${id}`, headers });
  return { response, body: MarketDetailResponseSchema.parse(response.json()) };
}

describe('ETags', () => {
  test('a read carries a weak ETag, and the same ETag in If-None-Match answers 304 with no body', async () => {
    await m.createMarket();
    const first = await t.app.inject({ method: 'GET', url: '/api/markets' });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');

    const again = await t.app.inject({
      method: 'GET',
      url: '/api/markets',
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    // Decided by the route that matched, not the raw URL.
    const encoded = await t.app.inject({ method: 'GET', url: '/%61pi/markets' });
    expect(encoded.headers['cache-control']).toBe('no-cache');
  });

  test('per-user reads are private to the browser, and revalidate the same way', async () => {
    const url = `/api/users/${m.player(1).account.address}/claimable`;
    const first = await t.app.inject({ method: 'GET', url });
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  test('an answer from the cache has the bytes and ETag of one computed afresh', async () => {
    const { market } = await m.createMarket();
    const url = `/api/markets/${market.id}`;
    const cached = await t.app.inject({ method: 'GET', url });
    const fresh = await t.app.inject({ method: 'GET', url, headers: { cookie: 'pm_fresh=1' } });
    expect(cached.body).toBe(fresh.body);
    expect(cached.headers.etag).toBe(fresh.headers.etag);
    expect(cached.headers['content-type']).toBe(fresh.headers['content-type']);
    expect(cached.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test('the OpenAPI document shows If-None-Match, the ETag and the 304 on reads', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const read = document.paths['/api/markets'].get;
    expect(read.parameters).toContainEqual(expect.objectContaining({ name: 'If-None-Match', in: 'header' }));
    expect(read.responses['200'].headers.ETag).toBeDefined();
    expect(read.responses['304']).toBeDefined();
    expect(document.paths['/api/markets'].post.responses['304']).toBeUndefined();
  });
});

describe('the response cache on the instance that records a bet', () => {
  test('a bet recorded through the API is in the very next read, under a new ETag', async () => {
    const { market } = await m.createMarket({ prediction: 'YES' }, { amountWei: parseEther('0.01') });
    const before = await detail(t.app, market.id);
    const listBefore = await t.app.inject({ method: 'GET', url: '/api/markets' });

    const { response } = await m.postJoin(market.id, {
      player: 2,
      prediction: 'NO',
      amountWei: parseEther('0.02'),
    });
    expect(response.statusCode).toBe(201);
    expect(String(response.headers['set-cookie'])).toMatch(
      /^pm_fresh=1; Max-Age=11; Path=\/api; HttpOnly; SameSite=Strict$/,
    );

    // No cookie here: the instance dropped its copies before it answered the 201.
    const after = await detail(t.app, market.id);
    expect(after.body.market.totalNoWei).toBe(parseEther('0.02').toString());
    expect(after.response.headers.etag).not.toBe(before.response.headers.etag);
    const revalidated = await t.app.inject({
      method: 'GET',
      url: '/api/markets',
      headers: { 'if-none-match': String(listBefore.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(200);
    const listed = revalidated.json().markets.find((row: { id: number }) => row.id === market.id);
    expect(listed.totalNoWei).toBe(parseEther('0.02').toString());
  });

  test('a change without an event waits for the TTL, except for a client that has just written', async () => {
    const { market } = await m.createMarket();
    await detail(t.app, market.id);
    await t.db.update(markets).set({ title: 'Changed behind the API' }).where(eq(markets.id, market.id));
    const cached = await detail(t.app, market.id);
    const writer = await detail(t.app, market.id, { cookie: 'pm_fresh=1' });
    expect(writer.body.market.title).toBe('Changed behind the API');
    // On PostgreSQL other test files share the realtime channel; their events may drop our copy.
    if (!onPostgres) expect(cached.body.market.title).not.toBe('Changed behind the API');
  });
});

describe('a market’s bets, page by page', () => {
  const betsOf = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    return { response, body: MarketBetsResponseSchema.parse(response.json()) };
  };

  test('the public pages are cached like the detail and dropped by a bet; a wallet’s own page never is', async () => {
    const { market } = await m.createMarket({ prediction: 'YES' }, { amountWei: parseEther('0.01') });
    const creator = m.player(0).account.address.toLowerCase();
    const publicUrl = `/api/markets/${market.id}/bets`;
    const ownUrl = `${publicUrl}?address=${creator}`;

    const first = await betsOf(publicUrl);
    expect(first.response.headers['cache-control']).toBe('no-cache');
    expect(first.response.headers.etag).toMatch(/^W\/".+"$/);
    const own = await betsOf(ownUrl);
    expect(own.response.headers['cache-control']).toBe('private, no-cache');
    expect(own.body.bets.map((bet) => bet.userAddress)).toEqual([creator]);
    const unchanged = await t.app.inject({
      method: 'GET',
      url: ownUrl,
      headers: { 'if-none-match': String(own.response.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.headers['cache-control']).toBe('private, no-cache');
    // A malformed filter is still the wallet's read: private, and refused.
    const bad = await t.app.inject({ method: 'GET', url: `${publicUrl}?address=0x12` });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['cache-control']).toBe('private, no-cache');

    // Behind the API's back (no event): the shared copy stays, the wallet's own read is always fresh.
    await t.db
      .update(bets)
      .set({ amount: parseEther('0.5') })
      .where(eq(bets.marketId, market.id));
    const cached = await betsOf(publicUrl);
    const ownAgain = await betsOf(ownUrl);
    expect(ownAgain.body.bets[0]?.amountWei).toBe(parseEther('0.5').toString());
    // On PostgreSQL other test files share the realtime channel; their events may drop our copy.
    if (!onPostgres) expect(cached.body.bets[0]?.amountWei).toBe(parseEther('0.01').toString());

    // A bet recorded through the API drops the shared pages before its 201 leaves.
    await m.joinMarket(market.id, { player: 2, prediction: 'NO', amountWei: parseEther('0.02') });
    const after = await betsOf(publicUrl);
    expect(after.body.bets.map((bet) => bet.userAddress)).toEqual([
      m.player(2).account.address.toLowerCase(),
      creator,
    ]);
    expect(after.response.headers.etag).not.toBe(first.response.headers.etag);
  });
});

describe('the response cache on another instance', () => {
  test('another instance drops its copy when the realtime event of the bet reaches it', async () => {
    const other = await startOtherInstance(LONG_TTL_MS);
    const { market } = await m.createMarket({ prediction: 'YES' }, { amountWei: parseEther('0.01') });
    const before = await detail(other.app, market.id);
    expect(before.body.market.noCount).toBe(0);
    const betsUrl = `/api/markets/${market.id}/bets`;
    const betsBefore = (await other.app.inject({ method: 'GET', url: betsUrl })).json();
    expect(betsBefore.bets).toHaveLength(1);

    const socket = new WebSocket(other.ws);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const heard = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        const message = RealtimeMessageSchema.safeParse(JSON.parse(String(data)));
        if (message.success && message.data.topic === 'bets' && message.data.marketId === market.id)
          resolve();
      });
    });
    await m.joinMarket(market.id, { player: 1, prediction: 'NO', amountWei: parseEther('0.02') });
    await heard;
    socket.close();

    // The hub drops the cache before it tells any socket: a client that heard the event reads the bet.
    const after = await detail(other.app, market.id);
    expect(after.body.market.noCount).toBe(1);
    expect(after.body.market.totalNoWei).toBe(parseEther('0.02').toString());
    expect(after.body.bets).toHaveLength(2);
    expect((await other.app.inject({ method: 'GET', url: betsUrl })).json().bets).toHaveLength(2);
  });

  test('without an event, another instance serves its copy for at most the TTL', async () => {
    const other = await startOtherInstance(SHORT_TTL_MS);
    const { market } = await m.createMarket();
    await detail(other.app, market.id);
    const changedAt = performance.now();
    await t.db.update(markets).set({ title: 'Changed quietly' }).where(eq(markets.id, market.id));
    const soon = await detail(other.app, market.id);
    if (!onPostgres && performance.now() - changedAt < SHORT_TTL_MS / 2)
      expect(soon.body.market.title).not.toBe('Changed quietly');
    await new Promise((resolve) => setTimeout(resolve, SHORT_TTL_MS));
    const later = await detail(other.app, market.id);
    expect(later.body.market.title).toBe('Changed quietly');
  });
});

import { PRICE_SYMBOLS } from '@pm/core/constants';
import {
  PriceHistoryResponseSchema,
  PriceResponseSchema,
  PricesResponseSchema,
} from '@pm/core/contract/vault';
import { parseUsdPrice } from '@pm/core/price';
import { desc, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { outbox, priceSamples } from '../src/db/schema.ts';
import { createPriceSampler } from '../src/prices/price-sampler.ts';
import { createSimulatedFeed } from '../src/prices/simulated-feed.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ROUND_INTERVAL_S: '60', BETTING_WINDOW_S: '30' });
});
afterAll(() => t?.close());

const getPrice = () => t.app.inject({ method: 'GET', url: '/api/prices/BNB' });
const setPrice = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/dev/price', payload: body });

describe('BNB price endpoints', () => {
  test('before the first sample the price is 503 PRICE_UNAVAILABLE', async () => {
    const response = await getPrice();
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('PRICE_UNAVAILABLE');
  });

  test('the sampler stores a reading and the price is served from it, labelled simulated', async () => {
    await t.runJobs();
    const response = await getPrice();
    expect(response.statusCode).toBe(200);
    const body = PriceResponseSchema.parse(response.json());
    expect(body).toMatchObject({ symbol: 'BNB', source: 'simulated', stale: false });
    const events = await t.db.select().from(outbox).where(eq(outbox.topic, 'prices'));
    expect(events.length).toBeGreaterThan(0);
    // The push carries the sample itself and its coin, so a page shows it without asking (decision 015).
    const bnbEvents = events.filter(
      (event) => (event.payload as { sample?: { symbol?: string } }).sample?.symbol === 'BNB',
    );
    expect(bnbEvents.at(-1)?.payload).toEqual({
      sample: {
        symbol: 'BNB',
        usd: body.usd,
        source: 'simulated',
        updatedAt: body.updatedAt,
        sampledAt: expect.any(String),
      },
    });
  });

  test('on the local chain POST /api/dev/price sets the simulated price and samples it at once', async () => {
    const response = await setPrice({ usd: '612.34' });
    expect(response.statusCode).toBe(200);
    expect(PriceResponseSchema.parse(response.json()).usd).toBe('612.34000000');
    expect(PriceResponseSchema.parse((await getPrice()).json()).usd).toBe('612.34000000');
    // Held by default: the sampler keeps reading it.
    await t.advanceTime(3);
    await t.runJobs();
    const [latest] = await t.db
      .select()
      .from(priceSamples)
      .where(eq(priceSamples.symbol, 'BNB'))
      .orderBy(desc(priceSamples.sampledAt))
      .limit(1);
    expect(latest?.price).toBe(612_34000000n);
  });

  test('the dev price control refuses nonsense', async () => {
    expect((await setPrice({ usd: '-1' })).statusCode).toBe(400);
    expect((await setPrice({ usd: '612.34', extra: 1 })).statusCode).toBe(400);
  });

  test('the dev price control refuses a zero price and one too large to store, with 400 not 500', async () => {
    for (const usd of ['0', '00', '0.00000000', '1'.repeat(31)]) {
      const response = await setPrice({ usd });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await setPrice({ usd: '9'.repeat(30) })).statusCode).toBe(200);
  });

  test('the history of the last hour is thinned to one point per 30 s, oldest first', async () => {
    for (let i = 0; i < 5; i++) {
      await t.advanceTime(20);
      await setPrice({ usd: `${600 + i}` });
    }
    const body = PriceHistoryResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/prices/BNB/history' })).json(),
    );
    const times = body.points.map((point) => Date.parse(point.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(body.points.at(-1)?.usd).toBe('604.00000000');
    expect(body.points.length).toBeGreaterThanOrEqual(4);
    expect(body.points.length).toBeLessThanOrEqual(7);
  });

  test('a price not refreshed for ORACLE_MAX_AGE_S is 503; one not refreshed for a few samples is marked stale', async () => {
    await setPrice({ usd: '601' });
    await t.advanceTime(10);
    expect(PriceResponseSchema.parse((await getPrice()).json()).stale).toBe(true);
    await t.advanceTime(121);
    expect((await getPrice()).statusCode).toBe(503);
  });

  test('two samplers on one database store one sample per interval between them', async () => {
    await t.advanceTime(60);
    const logger = pino({ level: 'silent' });
    const samplers = [1, 2].map((seed) =>
      createPriceSampler({
        db: t.db,
        feeds: new Map([['BNB', createSimulatedFeed({ clock: t.clock, seed })] as const]),
        clock: t.clock,
        logger,
      }),
    );
    const before = (await t.db.select().from(priceSamples)).length;
    await Promise.all(samplers.map((sampler) => sampler.job.run()));
    await Promise.all(samplers.map((sampler) => sampler.job.run()));
    expect((await t.db.select().from(priceSamples)).length).toBe(before + 1);
  });
});

describe("every coin's price", () => {
  test('one sampler run stores a sample of each of the eight coins, and GET /api/prices lists them', async () => {
    await t.advanceTime(5);
    await t.runJobs();
    const body = PricesResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/prices' })).json(),
    );
    expect(body.prices.map((price) => price.symbol).sort()).toEqual([...PRICE_SYMBOLS].sort());
    for (const price of body.prices) expect(price).toMatchObject({ source: 'simulated', stale: false });
  });

  test('each coin walks from a realistic price of its own, so BTC and DOGE are far apart', async () => {
    const btc = PriceResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/prices/BTC' })).json(),
    );
    const doge = PriceResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/prices/DOGE' })).json(),
    );
    expect(btc.symbol).toBe('BTC');
    expect(parseUsdPrice(btc.usd)).toBeGreaterThan(10_000_00000000n);
    expect(parseUsdPrice(doge.usd)).toBeLessThan(10_00000000n);
  });

  test('the dev price control sets one coin when given its symbol and leaves the others alone', async () => {
    const bnbBefore = PriceResponseSchema.parse((await getPrice()).json()).usd;
    const response = await setPrice({ symbol: 'ETH', usd: '4000.5' });
    expect(response.statusCode).toBe(200);
    expect(PriceResponseSchema.parse(response.json())).toMatchObject({ symbol: 'ETH', usd: '4000.50000000' });
    const eth = PriceResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/prices/ETH' })).json(),
    );
    expect(eth.usd).toBe('4000.50000000');
    expect(PriceResponseSchema.parse((await getPrice()).json()).usd).toBe(bnbBefore);
  });

  test('a coin that is not one of the eight is 400, for the price and its history', async () => {
    for (const url of ['/api/prices/SHIB', '/api/prices/btc', '/api/prices/SHIB/history']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(400);
    }
    expect((await setPrice({ symbol: 'SHIB', usd: '1' })).statusCode).toBe(400);
  });

  test('?since= limits the history to samples from that time on', async () => {
    await t.advanceTime(40);
    const since = t.clock.now().toISOString();
    await t.advanceTime(1);
    await setPrice({ symbol: 'SOL', usd: '150' });
    const url = `/api/prices/SOL/history?since=${encodeURIComponent(since)}`;
    const body = PriceHistoryResponseSchema.parse((await t.app.inject({ method: 'GET', url })).json());
    expect(body.symbol).toBe('SOL');
    expect(body.points.map((point) => point.usd)).toEqual(['150.00000000']);
    for (const point of body.points) expect(Date.parse(point.at)).toBeGreaterThanOrEqual(Date.parse(since));
    const bad = await t.app.inject({ method: 'GET', url: '/api/prices/SOL/history?since=yesterday' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('dev price control on a real chain', () => {
  test('is not there unless the chain is local', async () => {
    const { loadConfig } = await import('../src/config/config.ts');
    const config = loadConfig({
      CHAIN_ID: '97',
      PRICE_FEED: 'ticker',
      LOG_LEVEL: 'silent',
    });
    const { createApp } = await import('../src/app.ts');
    const { createFeatures } = await import('../src/features.ts');
    const deps = { ...t.deps, config };
    const features = createFeatures(deps, pino({ level: 'silent' }));
    const app = await createApp(deps, { features: features.routes });
    try {
      const response = await app.inject({ method: 'POST', url: '/api/dev/price', payload: { usd: '1' } });
      expect(response.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

import { PRICE_SYMBOLS } from '@pm/core/constants';
import { PriceResponseSchema } from '@pm/core/contract/vault';
import { formatUsdPrice } from '@pm/core/price';
import { devFeedProxyAbi } from '@pm/escrow/dev-feeds.gen';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.ts';
import type { AppDeps } from '../src/app-deps.ts';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { DEV_FEED_WRITER } from '../src/config/dev-accounts.ts';
import { deployDevFeeds, devFeedSettings } from '../src/dev/dev-feeds.ts';
import { createFeatures, type Features } from '../src/features.ts';
import { SIMULATED_START_PRICES } from '../src/prices/create-coin-feeds.ts';
import { DEV_FEED_HEARTBEAT_MS } from '../src/prices/dev-feed-writer.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// The local chain's price feeds as `npm start` runs them (docs/decisions/029, 031): a Chainlink-compatible
// aggregator and proxy per coin on the chain, the simulated walk published as their rounds by the dev
// feed writer, and the server reading them with PRICE_FEED=chainlink, as it reads Chainlink's on BSC.

let base: TestApp;
let t: TestApp;
let features: Features;
let proxies: Map<(typeof PRICE_SYMBOLS)[number], `0x${string}`>;

const runJob = async (name: string) => {
  const job = features.jobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job ${name}`);
  await job.run();
};

const latestRound = async (symbol: (typeof PRICE_SYMBOLS)[number]) => {
  const address = proxies.get(symbol);
  if (!address) throw new Error(`no feed for ${symbol}`);
  const [roundId, answer, , updatedAt] = await base.chain.publicClient.readContract({
    address,
    abi: devFeedProxyAbi,
    functionName: 'latestRoundData',
  });
  return { roundId, answer, updatedAt };
};

beforeAll(async () => {
  base = await startTestApp({ PAYMENT_WAIT_MS: '1000' });
  const feeds = await deployDevFeeds(base.chain.rpcUrl);
  proxies = new Map([...feeds].map(([symbol, feed]) => [symbol, feed.proxy]));
  const config = loadConfig({
    RPC_URL: base.chain.rpcUrl,
    ...(base.config.escrow.address ? { ESCROW_ADDRESS: base.config.escrow.address } : {}),
    LOG_LEVEL: 'silent',
    JOBS: 'false',
    RESPONSE_CACHE_MS: '0',
    ...devFeedSettings(feeds),
  });
  const deps: AppDeps = { ...base.deps, config };
  features = createFeatures(deps, pino({ level: 'silent' }));
  const app = await createApp(deps, { features: features.routes, rateLimitPerMinute: 100_000 });
  await app.ready();
  t = { ...base, app, config, features, deps };
});
afterAll(async () => {
  await t?.app.close();
  await base?.close();
});

describe('the dev feeds', () => {
  test('every coin has its own feed, read as Chainlink: 8 decimals, "BTC / USD", phase 1', async () => {
    expect(proxies.size).toBe(PRICE_SYMBOLS.length);
    const btc = proxies.get('BTC') as `0x${string}`;
    const read = (functionName: 'decimals' | 'description' | 'phaseId') =>
      base.chain.publicClient.readContract({ address: btc, abi: devFeedProxyAbi, functionName });
    expect(await read('decimals')).toBe(8);
    expect(await read('description')).toBe('BTC / USD');
    expect(await read('phaseId')).toBe(1);
  });

  test('deployed again on the same chain (a replayed one), the feeds are found where they are, not duplicated', async () => {
    const again = await deployDevFeeds(base.chain.rpcUrl);
    expect(new Map([...again].map(([symbol, feed]) => [symbol, feed.proxy]))).toEqual(proxies);
  });

  test('the writer publishes each walk as rounds, the sampler reads them from the chain', async () => {
    await runJob('dev-feed-writer');
    const first = await latestRound('BTC');
    expect(first.roundId).toBe((1n << 64n) | 1n);
    // The walk's first step from its start: at most 0.05 %.
    const start = SIMULATED_START_PRICES.BTC;
    const moved = first.answer > start ? first.answer - start : start - first.answer;
    expect(moved * 10_000n).toBeLessThanOrEqual(start * 5n);
    await runJob('price-sampler');
    const response = await t.app.inject({ method: 'GET', url: '/api/prices/BTC' });
    const price = PriceResponseSchema.parse(response.json());
    expect(price).toMatchObject({ symbol: 'BTC', usd: formatUsdPrice(first.answer, 8), source: 'chainlink' });
    expect(Date.parse(price.updatedAt) / 1000).toBe(Number(first.updatedAt));
  });

  test('a quiet price gets a new round at the heartbeat, as a Chainlink node publishes one', async () => {
    const before = await Promise.all(PRICE_SYMBOLS.map(latestRound));
    await t.advanceTime(DEV_FEED_HEARTBEAT_MS / 1000 + 1);
    await runJob('dev-feed-writer');
    const after = await Promise.all(PRICE_SYMBOLS.map(latestRound));
    // Every coin, in one batch of transactions numbered in order.
    for (const [index, round] of after.entries()) {
      expect(round.roundId).toBeGreaterThan(before[index]?.roundId ?? 0n);
      expect(round.updatedAt).toBeGreaterThan(before[index]?.updatedAt ?? 0n);
    }
  });

  test('POST /api/dev/price publishes the price as the next round and holds it there', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/dev/price',
      payload: { symbol: 'BNB', usd: '612.5', hold: true },
    });
    expect(response.statusCode).toBe(200);
    expect(PriceResponseSchema.parse(response.json())).toMatchObject({
      symbol: 'BNB',
      usd: formatUsdPrice(612_50000000n, 8),
    });
    expect((await latestRound('BNB')).answer).toBe(612_50000000n);
    await t.advanceTime(DEV_FEED_HEARTBEAT_MS / 1000 + 1);
    await runJob('dev-feed-writer');
    const held = await latestRound('BNB');
    expect(held.answer).toBe(612_50000000n);
  });
});

describe('its settings', () => {
  test('the writer key needs PRICE_FEED=chainlink, and the local chain', () => {
    const load = (env: Record<string, string>) => () =>
      loadConfig({ DEV_FEED_WRITER_KEY: DEV_FEED_WRITER.privateKey, ...env });
    expect(load({ PRICE_FEED: 'simulated' })).toThrow(ConfigError);
    expect(load({ PRICE_FEED: 'simulated' })).toThrow(/DEV_FEED_WRITER_KEY/);
    expect(
      load({
        CHAIN_ID: '56',
        RPC_URL: 'https://bsc-dataseed.bnbchain.org',
        PRICE_FEED: 'chainlink',
        CHAINLINK_RPC_URL: 'https://bsc-prices.example',
      }),
    ).toThrow(/DEV_FEED_WRITER_KEY: for the local chain/);
  });
});

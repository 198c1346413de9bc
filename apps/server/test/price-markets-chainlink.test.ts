import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { PricesResponseSchema } from '@pm/core/contract/vault';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.ts';
import type { AppDeps } from '../src/app-deps.ts';
import { loadConfig } from '../src/config/config.ts';
import { createFeatures, type Features } from '../src/features.ts';
import { mockAggregatorAbi, mockAggregatorBytecode } from '../src/prices/mock-aggregator.gen.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { priceMarketHelpers } from './support/price-market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Issue 19 on PRICE_FEED=chainlink: a mock aggregator per coin deployed on the local chain stands
// in for Chainlink's BSC proxies. BTC gets one; ETH is pointed at an address with no contract, as a
// paused or wrong feed would be: it is unavailable, and the others go on.

let base: TestApp;
let t: TestApp;
let features: Features;
let btcAggregator: `0x${string}`;
const MISSING = '0x000000000000000000000000000000000000dead';

async function publishRound(roundId: bigint, usd: bigint) {
  const writer = base.chain.players[0];
  if (!writer) throw new Error('no player');
  const updatedAt = BigInt(Math.floor(base.clock.now().getTime() / 1000));
  const hash = await writer.writeContract({
    address: btcAggregator,
    abi: mockAggregatorAbi,
    functionName: 'setRoundData',
    args: [roundId, usd, updatedAt],
  });
  await writer.waitForTransactionReceipt({ hash });
}

const runJob = async (name: string) => {
  const job = features.jobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job ${name}`);
  await job.run();
};

beforeAll(async () => {
  base = await startTestApp({ PAYMENT_WAIT_MS: '1000' });
  const deployer = base.chain.players[0];
  if (!deployer) throw new Error('no player');
  const hash = await deployer.deployContract({ abi: mockAggregatorAbi, bytecode: mockAggregatorBytecode });
  const receipt = await deployer.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('no contract address');
  btcAggregator = receipt.contractAddress;
  const config = loadConfig({
    RPC_URL: base.chain.rpcUrl,
    LOG_LEVEL: 'silent',
    JOBS: 'false',
    PAYMENT_WAIT_MS: '1000',
    RESOLUTION_REVIEW_WINDOW_S: '0',
    RESPONSE_CACHE_MS: '0',
    PRICE_FEED: 'chainlink',
    CHAINLINK_FEED_ADDRESSES: `BTC=${btcAggregator},ETH=${MISSING}`,
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

describe('price markets on Chainlink aggregators', () => {
  test('a coin whose aggregator cannot be read has no price and takes no market; BTC has both', async () => {
    await publishRound(1n, 97_000_00000000n);
    await runJob('price-sampler');
    const prices = PricesResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/prices' })).json(),
    );
    expect(prices.prices.map((price) => price.symbol)).toEqual(['BTC']);
    expect(prices.prices[0]).toMatchObject({ source: 'chainlink', usd: '97000.00000000' });
    expect((await t.app.inject({ method: 'GET', url: '/api/prices/ETH' })).statusCode).toBe(503);
    const p = priceMarketHelpers(t, marketHelpers(t));
    const refused = await p.postCreatePrice({ targetSymbol: 'ETH', targetPrice: '3000' });
    expect(refused.response.json().error.code).toBe('PRICE_UNAVAILABLE');
  });

  test('a BTC market records the aggregator as its feed and settles with the round that decided it', async () => {
    const m = marketHelpers(t);
    const p = priceMarketHelpers(t, m);
    const { market } = await p.createPriceMarket({ targetPrice: '98000', comparisonType: 'above' });
    expect(market).toMatchObject({ priceFeed: btcAggregator.toLowerCase(), startPrice: '97000.00000000' });
    await t.advanceTime(3601);
    await publishRound(7n, 98_000_00000001n);
    await runJob('price-sampler');
    await runJob('market-settlement');
    await runJob('price-market-settlement');
    const detail = MarketDetailResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/markets/${market.id}` })).json(),
    );
    expect(detail.market).toMatchObject({
      status: 'settled',
      result: 'YES',
      settlementPrice: '98000.00000001',
      settlementRoundId: '7',
    });
  });
});

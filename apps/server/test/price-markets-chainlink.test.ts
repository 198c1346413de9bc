import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { PricesResponseSchema } from '@pm/core/contract/vault';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.ts';
import type { AppDeps } from '../src/app-deps.ts';
import { loadConfig } from '../src/config/config.ts';
import { bets } from '../src/db/schema.ts';
import { createFeatures, type Features } from '../src/features.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { deployMockAggregator, publishAggregatorRound } from './support/mock-aggregator.ts';
import { priceMarketHelpers } from './support/price-market-helpers.ts';
import { type RpcProxy, startRpcProxy } from './support/rpc-proxy.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Price markets (decision 020) on PRICE_FEED=chainlink: a mock aggregator per coin deployed on the local
// chain stands in for Chainlink's BSC proxies. BTC gets one; ETH is pointed at an address with no contract,
// as a paused or wrong feed would be: it is unavailable, and the others go on. The aggregators are read
// through a loopback proxy of their own (CHAINLINK_RPC_URL) that a test can make refuse every call, as a
// rate-limited provider does, while the aggregator goes on publishing rounds.

let base: TestApp;
let t: TestApp;
let features: Features;
let btcAggregator: `0x${string}`;
let proxy: RpcProxy;
let scrape: () => Promise<string>;
const MISSING = '0x000000000000000000000000000000000000dead';

/** BTC's aggregator publishes `roundId`: `usd` × 1e8, updated at `updatedAtMs` (default: now). */
async function publishRound(roundId: bigint, usd: bigint, updatedAtMs = base.clock.now().getTime()) {
  const updatedAt = BigInt(Math.floor(updatedAtMs / 1000));
  await publishAggregatorRound(base.chain, btcAggregator, { roundId, answer: usd, updatedAt });
}

const runJob = async (name: string) => {
  const job = features.jobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job ${name}`);
  await job.run();
};

beforeAll(async () => {
  base = await startTestApp({ PAYMENT_WAIT_MS: '1000' });
  btcAggregator = await deployMockAggregator(base.chain);
  proxy = await startRpcProxy(base.chain.rpcUrl);
  const config = loadConfig({
    RPC_URL: base.chain.rpcUrl,
    // Markets are created by deposits into the escrow the base app deployed (decision 026).
    ...(base.config.escrow.address ? { ESCROW_ADDRESS: base.config.escrow.address } : {}),
    LOG_LEVEL: 'silent',
    JOBS: 'false',
    PAYMENT_WAIT_MS: '1000',
    RESOLUTION_REVIEW_WINDOW_S: '0',
    RESPONSE_CACHE_MS: '0',
    PRICE_FEED: 'chainlink',
    CHAINLINK_FEED_ADDRESSES: `BTC=${btcAggregator},ETH=${MISSING}`,
    CHAINLINK_RPC_URL: proxy.url,
  });
  const deps: AppDeps = { ...base.deps, config };
  scrape = () => deps.metrics.scrape();
  features = createFeatures(deps, pino({ level: 'silent' }));
  const app = await createApp(deps, { features: features.routes, rateLimitPerMinute: 100_000 });
  await app.ready();
  t = { ...base, app, config, features, deps };
});
afterAll(async () => {
  await t?.app.close();
  await proxy?.close();
  await base?.close();
});

const detail = async (id: number) =>
  MarketDetailResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/markets/${id}` })).json());

/** Moves chain time (and the server's clock) to `ms`, or a second or two past it. */
async function advanceTo(ms: number) {
  const seconds = Math.ceil((ms - t.clock.now().getTime()) / 1000);
  if (seconds > 0) await t.advanceTime(seconds);
}

/** What the server does every few seconds: sample, close what is due, settle price markets. */
async function settleTick() {
  await runJob('price-sampler');
  await runJob('market-settlement');
  await runJob('price-market-settlement');
}

/** A series of the feed-wait metrics, for price markets. */
async function feedMetric(name: 'bnbpredict_price_feed_waiting' | 'bnbpredict_price_feed_unreachable_total') {
  const line = (await scrape()).split('\n').find((row) => row.startsWith(`${name}{kind="price_market"}`));
  return Number(line?.split(' ').at(-1));
}

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

describe('a starved sampler no longer voids a price market', () => {
  /** A BTC market above $98,000 with 0.01 BNB on YES and 0.02 BNB on NO, on a fresh price. */
  async function openMarket(roundId: bigint) {
    const m = marketHelpers(t);
    const p = priceMarketHelpers(t, m);
    await publishRound(roundId, 97_000_00000000n);
    await runJob('price-sampler');
    const { market } = await p.createPriceMarket({ targetPrice: '98000', comparisonType: 'above' });
    await m.joinMarket(market.id, { player: 1, prediction: 'NO', amountWei: parseEther('0.02') });
    return { ...market, deadlineMs: Date.parse(market.deadline) };
  }

  test('starved over the deadline: it waits while the price RPC refuses, then settles YES from the aggregator’s round at the deadline', async () => {
    const market = await openMarket(8n);
    // From 130 s before the deadline every read of the price RPC is refused: no sample covers it.
    await advanceTo(market.deadlineMs - 130_000);
    proxy.fail();
    await advanceTo(market.deadlineMs - 60_000);
    await publishRound(9n, 99_000_00000000n, market.deadlineMs - 60_000);
    await settleTick();
    // A round after the deadline, below the target: it must not decide.
    await advanceTo(market.deadlineMs + 5_000);
    await publishRound(10n, 96_000_00000000n);
    await settleTick();
    expect((await detail(market.id)).market).toMatchObject({ status: 'settling', result: null });
    // Past the time a sample could still qualify: without the feed's own reading the market would be
    // void here, every stake refunded.
    await advanceTo(market.deadlineMs + 301_000);
    await settleTick();
    expect((await detail(market.id)).market).toMatchObject({ status: 'settling', result: null });
    expect(await feedMetric('bnbpredict_price_feed_waiting')).toBe(1);

    proxy.heal();
    await settleTick();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'YES',
      settlementPrice: '99000.00000000',
      settlementRoundId: '9',
      // The aggregator keeps whole seconds.
      settlementUpdatedAt: new Date(Math.floor((market.deadlineMs - 60_000) / 1000) * 1000).toISOString(),
    });
    expect(after.market.aiVerdict).toMatch(/read from the feed's own history/);
    expect(await feedMetric('bnbpredict_price_feed_waiting')).toBe(0);
  });

  test('a price RPC still refusing ORACLE_FEED_WAIT_S after the deadline voids the market, for that reason, and refunds every stake', async () => {
    const market = await openMarket(11n);
    const unreachableBefore = await feedMetric('bnbpredict_price_feed_unreachable_total');
    await advanceTo(market.deadlineMs - 130_000);
    proxy.fail();
    await advanceTo(market.deadlineMs - 60_000);
    await publishRound(12n, 99_000_00000000n, market.deadlineMs - 60_000);
    await advanceTo(market.deadlineMs + (t.config.prices.feedWaitS - 10) * 1000);
    await settleTick();
    expect((await detail(market.id)).market).toMatchObject({ status: 'settling', result: null });

    await advanceTo(market.deadlineMs + t.config.prices.feedWaitS * 1000);
    await settleTick();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({ status: 'settled', result: 'VOID', settlementPrice: null });
    expect(after.market.aiVerdict).toMatch(/the price feed could not be reached for 1800 s/);
    expect(await feedMetric('bnbpredict_price_feed_unreachable_total')).toBe(unreachableBefore + 1);
    expect(await feedMetric('bnbpredict_price_feed_waiting')).toBe(0);
    const rows = await t.db.select().from(bets).where(eq(bets.marketId, market.id));
    expect(rows.every((row) => row.status === 'refunded' && row.payoutAmount === row.amount)).toBe(true);
    proxy.heal();
  });

  test('an aggregator with no fresh round at the deadline still voids the market, as before', async () => {
    const market = await openMarket(13n);
    // Its last round before the deadline is the one the market opened on, an hour old.
    await advanceTo(market.deadlineMs + 301_000);
    await settleTick();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({ status: 'settled', result: 'VOID' });
    expect(after.market.aiVerdict).toMatch(/or is in the feed's own history/);
  });
});

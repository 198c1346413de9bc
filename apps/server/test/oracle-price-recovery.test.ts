import { asc, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AppDeps } from '../src/app-deps.ts';
import { loadConfig } from '../src/config/config.ts';
import { oracleBets, oracleRounds } from '../src/db/schema.ts';
import { createFeatures, type Features } from '../src/features.ts';
import { createPricesModule } from '../src/prices/prices-module.ts';
import { createFaultyChainClient } from './support/faulty-chain.ts';
import { deployMockAggregator, publishAggregatorRound } from './support/mock-aggregator.ts';
import { PLAYERS, placeBet } from './support/oracle-fixtures.ts';
import { type RpcProxy, startRpcProxy } from './support/rpc-proxy.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 029: a loser who starves the price sampler around a round's lock or close must
// not get the round cancelled and every stake back. The real server on PRICE_FEED=chainlink reads a
// mock aggregator deployed on the local Hardhat chain through an RPC of its own (CHAINLINK_RPC_URL, a
// loopback proxy the test can make refuse every call, as a rate-limited provider does); the
// aggregator keeps publishing rounds whatever our reads do, as Chainlink's oracles would. The wait
// for a price RPC that cannot be asked is bounded (ORACLE_FEED_WAIT_S, 400 s here so that a round
// waits past its own close but not past the next round's lock).

const PHASE_1 = 1n << 64n;
const ONE_BNB = 10n ** 18n;
const FEED_WAIT_S = 400;

let t: TestApp;
let proxy: RpcProxy;
let features: Features;
let aggregator: `0x${string}`;
let scrape: () => Promise<string>;

beforeAll(async () => {
  t = await startTestApp();
  aggregator = await deployMockAggregator(t.chain);
  proxy = await startRpcProxy(t.chain.rpcUrl);
  const config = loadConfig({
    RPC_URL: t.chain.rpcUrl,
    LOG_LEVEL: 'silent',
    JOBS: 'false',
    PRICE_FEED: 'chainlink',
    CHAINLINK_FEED_ADDRESS: aggregator,
    CHAINLINK_RPC_URL: proxy.url,
    ORACLE_FEED_WAIT_S: String(FEED_WAIT_S),
  });
  const deps: AppDeps = { ...t.deps, config };
  features = createFeatures(deps, pino({ level: 'silent' }));
  scrape = () => deps.metrics.scrape();
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
});

const runJob = async (name: string) => {
  const job = features.jobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job ${name}`);
  await job.run();
};
/** What the server does every second: sample the prices, then move the rounds. */
const tick = async () => {
  await runJob('price-sampler');
  await runJob('oracle-rounds');
};

/** Moves chain time (and the server's clock) to `ms`, or a second or two past it. */
async function advanceTo(ms: number) {
  const seconds = Math.ceil((ms - t.clock.now().getTime()) / 1000);
  if (seconds > 0) await t.advanceTime(seconds);
}

/** The aggregator publishes round `n` of phase 1: `usd` (whole dollars) updated at `updatedAtMs`. */
async function publish(n: bigint, usd: bigint, updatedAtMs = t.clock.now().getTime()) {
  await publishAggregatorRound(t.chain, aggregator, {
    roundId: PHASE_1 | n,
    answer: usd * 100_000_000n,
    updatedAt: BigInt(Math.floor(updatedAtMs / 1000)),
  });
}

async function round(epoch: number) {
  const [row] = await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
  if (!row) throw new Error(`no round ${epoch}`);
  return row;
}
const payouts = async (epoch: number) =>
  (await t.db.select().from(oracleBets).where(eq(oracleBets.epoch, epoch)).orderBy(asc(oracleBets.id))).map(
    (bet) => bet.payoutAmount,
  );

/** A series of the feed-wait metrics, for oracle rounds. */
async function feedMetric(name: 'bnbpredict_price_feed_waiting' | 'bnbpredict_price_feed_unreachable_total') {
  const line = (await scrape()).split('\n').find((row) => row.startsWith(`${name}{kind="oracle_round"}`));
  return Number(line?.split(' ').at(-1));
}

/** 1 BNB on bull from the first player and 1 BNB on bear from the second, paid now. */
async function betBothSides(epoch: number) {
  const blockTime = t.clock.now();
  await placeBet(t.db, { epoch, position: 'bull', bnb: '1', user: PLAYERS[0], blockTime });
  await placeBet(t.db, { epoch, position: 'bear', bnb: '1', user: PLAYERS[1], blockTime });
}

describe('a starved sampler no longer cancels a round', () => {
  let epoch: number;

  test('the rounds start on the aggregator’s price, read through CHAINLINK_RPC_URL', async () => {
    await publish(1n, 600n);
    await tick();
    // The first round whose lock leaves room to bet and to starve the sampler before it.
    const rounds = await t.db.select().from(oracleRounds).orderBy(asc(oracleRounds.epoch));
    const nowMs = t.clock.now().getTime();
    const target = rounds.find((row) => row.lockTime.getTime() - nowMs >= 200_000);
    if (!target) throw new Error('no round ahead');
    epoch = target.epoch;
    await advanceTo(target.startTime.getTime() + 1_000);
    await publish(2n, 600n);
    await tick();
    expect(await round(epoch)).toMatchObject({ status: 'live' });
    expect(proxy.bodies().length).toBeGreaterThan(0);
  });

  test('starved over the lock: while the price RPC refuses, the round waits; then it locks at the feed’s round of the lock', async () => {
    const { lockTime } = await round(epoch);
    const lockMs = lockTime.getTime();
    await publish(3n, 600n);
    await tick();
    await betBothSides(epoch);

    // From 130 s before the lock every read of the price RPC is refused: no sample covers the lock.
    await advanceTo(lockMs - 130_000);
    proxy.fail();
    await advanceTo(lockMs - 100_000);
    await publish(4n, 610n, lockMs - 100_000);
    await tick();
    await advanceTo(lockMs + 2_000);
    // A round after the lock: it must not be taken for the lock price.
    await publish(5n, 620n);
    await tick();
    await tick();
    // Without the feed's own reading the round would end here, cancelled (lock_price_missing), every
    // stake refunded.
    expect(await round(epoch)).toMatchObject({ status: 'live', result: null, lockPrice: null });
    expect(await payouts(epoch)).toEqual([null, null]);

    proxy.heal();
    await tick();
    expect(await round(epoch)).toMatchObject({
      status: 'locked',
      lockPrice: 610_00000000n,
      lockPriceRoundId: (PHASE_1 | 4n).toString(),
      lockPriceAt: new Date(lockMs - 100_000),
    });
  });

  test('starved over the close: the round settles from the feed’s round of the close, with its result', async () => {
    const { closeTime } = await round(epoch);
    const closeMs = closeTime.getTime();
    await advanceTo(closeMs - 200_000);
    await publish(6n, 612n);
    await tick();

    await advanceTo(closeMs - 130_000);
    proxy.fail();
    await advanceTo(closeMs - 50_000);
    await publish(7n, 605n, closeMs - 50_000);
    await tick();
    await advanceTo(closeMs + 1_000);
    // Up after the close: read as the close price, it would make the round bull.
    await publish(8n, 650n);
    await tick();
    expect(await round(epoch)).toMatchObject({ status: 'locked', result: null });

    proxy.heal();
    await tick();
    expect(await round(epoch)).toMatchObject({
      status: 'ended',
      result: 'bear',
      closePrice: 605_00000000n,
      closePriceRoundId: (PHASE_1 | 7n).toString(),
      cancelReason: null,
    });
    // The bear side takes the pool; the bull side loses its stake.
    expect(await payouts(epoch)).toEqual([0n, 2n * ONE_BNB]);
  });

  test('a feed that itself has no fresh round at the lock still cancels the round and refunds', async () => {
    const next = epoch + 1;
    const { lockTime } = await round(next);
    expect((await round(next)).status).toBe('live');
    await betBothSides(next);
    const lockMs = lockTime.getTime();
    // The aggregator's last round before the lock is round 8, from the start of this round: 299 s old.
    await advanceTo(lockMs + 5_000);
    await publish(9n, 700n);
    await tick();
    expect(await round(next)).toMatchObject({
      status: 'ended',
      result: 'cancelled',
      cancelReason: 'lock_price_missing',
    });
    expect(await payouts(next)).toEqual([ONE_BNB, ONE_BNB]);
  });
});

describe('the price feeds’ own RPC client', () => {
  test('every call to CHAINLINK_RPC_URL goes alone, never in a batch, though eight coins are read at once', async () => {
    const bodies = proxy.bodies();
    expect(bodies.length).toBeGreaterThan(8);
    expect(bodies.filter((body) => Array.isArray(body))).toEqual([]);
  });

  test('without CHAINLINK_RPC_URL on the local chain the feeds read RPC_URL through a client of their own', async () => {
    const payments = createFaultyChainClient(t.chain.rpcUrl);
    const config = loadConfig({
      RPC_URL: t.chain.rpcUrl,
      LOG_LEVEL: 'silent',
      JOBS: 'false',
      PRICE_FEED: 'chainlink',
      CHAINLINK_FEED_ADDRESS: aggregator,
    });
    const prices = createPricesModule(
      { ...t.deps, config, chain: payments.client },
      pino({ level: 'silent' }),
    );
    await publish(10n, 640n);
    expect(await prices.sampler.sampleNow('BNB')).toMatchObject({ price: 640_00000000n });
    expect(payments.calls('eth_call')).toBe(0);
  });
});

describe('a price RPC that stays down: the wait is bounded by ORACLE_FEED_WAIT_S', () => {
  let epoch: number;

  test('refused for longer than the wait after the lock: the round is cancelled (price_feed_unreachable) and refunded', async () => {
    await publish(11n, 600n);
    await tick();
    const nowMs = t.clock.now().getTime();
    const rounds = await t.db.select().from(oracleRounds).orderBy(asc(oracleRounds.epoch));
    const target = rounds.find((row) => row.status !== 'ended' && row.lockTime.getTime() - nowMs >= 200_000);
    if (!target) throw new Error('no round ahead');
    epoch = target.epoch;
    await advanceTo(target.startTime.getTime() + 1_000);
    await publish(12n, 600n);
    await tick();
    expect(await round(epoch)).toMatchObject({ status: 'live' });
    await betBothSides(epoch);
    const lockMs = target.lockTime.getTime();
    const unreachableBefore = await feedMetric('bnbpredict_price_feed_unreachable_total');

    await advanceTo(lockMs - 130_000);
    proxy.fail();
    // The aggregator has a fresh round at the lock: only the RPC's silence keeps it from us.
    await advanceTo(lockMs - 100_000);
    await publish(13n, 610n, lockMs - 100_000);
    await tick();
    await advanceTo(lockMs + 2_000);
    await tick();
    expect(await round(epoch)).toMatchObject({ status: 'live', result: null });
    expect(await feedMetric('bnbpredict_price_feed_waiting')).toBe(1);
    // Past its own close, a few seconds short of the bound: still waiting.
    await advanceTo(lockMs + (FEED_WAIT_S - 10) * 1000);
    await tick();
    expect(await round(epoch)).toMatchObject({ status: 'live', result: null });

    await advanceTo(lockMs + FEED_WAIT_S * 1000);
    await tick();
    expect(await round(epoch)).toMatchObject({
      status: 'ended',
      result: 'cancelled',
      cancelReason: 'price_feed_unreachable',
      lockPrice: null,
    });
    expect(await payouts(epoch)).toEqual([ONE_BNB, ONE_BNB]);
    expect(await feedMetric('bnbpredict_price_feed_unreachable_total')).toBe(unreachableBefore + 1);
    expect(await feedMetric('bnbpredict_price_feed_waiting')).toBe(0);
  });

  test('the next round, starved over its lock and close, heals a few seconds before the bound: it settles from the aggregator’s rounds', async () => {
    const next = epoch + 1;
    // It opened for bets while the round before it waited.
    expect(await round(next)).toMatchObject({ status: 'live' });
    await betBothSides(next);
    const { lockTime, closeTime } = await round(next);
    const lockMs = lockTime.getTime();
    const closeMs = closeTime.getTime();
    // The RPC has refused since before the last round's lock; the aggregator goes on publishing.
    await advanceTo(lockMs - 100_000);
    await publish(14n, 620n, lockMs - 100_000);
    await advanceTo(closeMs - 50_000);
    await publish(15n, 615n, closeMs - 50_000);
    await advanceTo(lockMs + (FEED_WAIT_S - 10) * 1000);
    await tick();
    expect(await round(next)).toMatchObject({ status: 'live', result: null });
    expect(await feedMetric('bnbpredict_price_feed_waiting')).toBe(1);

    proxy.heal();
    await tick();
    expect(await round(next)).toMatchObject({
      status: 'ended',
      result: 'bear',
      lockPrice: 620_00000000n,
      lockPriceRoundId: (PHASE_1 | 14n).toString(),
      closePrice: 615_00000000n,
      closePriceRoundId: (PHASE_1 | 15n).toString(),
      cancelReason: null,
    });
    expect(await payouts(next)).toEqual([0n, 2n * ONE_BNB]);
    expect(await feedMetric('bnbpredict_price_feed_waiting')).toBe(0);
  });

  test('the rounds after it go on from the samples again', async () => {
    const after = epoch + 2;
    const { lockTime } = await round(after);
    await advanceTo(lockTime.getTime() - 10_000);
    await publish(16n, 630n);
    await tick();
    await advanceTo(lockTime.getTime() + 1_000);
    await tick();
    expect(await round(after)).toMatchObject({
      status: 'locked',
      lockPrice: 630_00000000n,
      lockPriceRoundId: (PHASE_1 | 16n).toString(),
    });
  });
});

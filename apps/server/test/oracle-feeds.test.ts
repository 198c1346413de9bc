import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildContracts } from '../scripts/build-contracts.ts';
import { createManualClock } from '../src/chain/clock.ts';
import { createChainlinkFeed } from '../src/prices/chainlink-feed.ts';
import { PriceFeedError } from '../src/prices/price-feed.ts';
import { createSimulatedFeed } from '../src/prices/simulated-feed.ts';
import { createTickerFeed } from '../src/prices/ticker-feed.ts';
import { createFaultyChainClient } from './support/faulty-chain.ts';
import { deployMockAggregator, publishAggregatorRound } from './support/mock-aggregator.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';

const NOW = new Date('2025-06-01T12:00:00Z');
const nowS = BigInt(NOW.getTime() / 1000);

async function expectFeedError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PriceFeedError);
  expect(error instanceof PriceFeedError && error.code).toBe(code);
}

describe('chainlink feed against an aggregator deployed on the local chain', () => {
  let chain: TestChain;
  let aggregator: `0x${string}`;
  const clock = createManualClock(NOW);

  beforeAll(async () => {
    chain = await startTestChain();
    aggregator = await deployMockAggregator(chain);
  });
  afterAll(() => chain?.stop());

  async function publishRound(roundId: bigint, answer: bigint, updatedAt: bigint) {
    await publishAggregatorRound(chain, aggregator, { roundId, answer, updatedAt });
  }

  const feed = () =>
    createChainlinkFeed({ client: chain.publicClient, address: aggregator, maxAgeS: 120, clock });

  test('a fresh positive answer is read with its round id and update time', async () => {
    await publishRound(18446744073709551617n, 612_34000000n, nowS - 10n);
    expect(await feed().read()).toEqual({
      price: 612_34000000n,
      updatedAt: new Date((Number(nowS) - 10) * 1000),
      roundId: '18446744073709551617',
      source: 'chainlink',
      stale: false,
    });
  });

  test('an answer updated more than ORACLE_MAX_AGE_S ago is STALE', async () => {
    await publishRound(2n, 612_34000000n, nowS - 121n);
    await expectFeedError(feed().read(), 'STALE');
    await publishRound(3n, 612_34000000n, nowS - 120n);
    await expect(feed().read()).resolves.toMatchObject({ roundId: '3' });
  });

  test('a zero or negative answer is refused', async () => {
    await publishRound(4n, -1n, nowS);
    await expectFeedError(feed().read(), 'NON_POSITIVE');
    await publishRound(5n, 0n, nowS);
    await expectFeedError(feed().read(), 'NON_POSITIVE');
  });

  test('a round id older than the last one used is refused; the same one again is fine', async () => {
    const reader = feed();
    await publishRound(10n, 600_00000000n, nowS);
    await expect(reader.read()).resolves.toMatchObject({ roundId: '10' });
    await expect(reader.read()).resolves.toMatchObject({ roundId: '10' });
    await publishRound(9n, 601_00000000n, nowS);
    await expectFeedError(reader.read(), 'ROUND_REGRESSED');
    await publishRound(11n, 602_00000000n, nowS);
    await expect(reader.read()).resolves.toMatchObject({ roundId: '11', price: 602_00000000n });
  });

  test('an address with no aggregator is UNAVAILABLE', async () => {
    const missing = createChainlinkFeed({
      client: chain.publicClient,
      address: '0x000000000000000000000000000000000000dead',
      maxAgeS: 120,
      clock,
    });
    await expectFeedError(missing.read(), 'UNAVAILABLE');
  });

  describe('the round at a past instant', () => {
    const phase = (n: bigint) => n << 64n;
    const at = (offsetS: number) => new Date((Number(nowS) + offsetS) * 1000);

    test('is the last round updated at or before the instant, read back through getRoundData', async () => {
      // Phase 3, rounds 1–6, one a minute from now − 300 s.
      for (let n = 1n; n <= 6n; n++)
        await publishRound(phase(3n) | n, 600_00000000n + n, nowS - 360n + 60n * n);
      expect(await feed().roundAt(at(-150), 120)).toEqual({
        found: true,
        reading: {
          price: 600_00000003n,
          updatedAt: at(-180),
          roundId: (phase(3n) | 3n).toString(),
          source: 'chainlink',
          stale: false,
        },
      });
      expect(await feed().roundAt(at(10), 120)).toMatchObject({
        reading: { roundId: (phase(3n) | 6n).toString() },
      });
      // Round 1 (now − 300 s) covers now − 270 s but is 30 s older than a 20 s limit allows.
      expect(await feed().roundAt(at(-270), 20)).toEqual({ found: false, reason: 'stale' });
    });

    test('an id without data (the aggregator reverts) is a hole; the phase’s first round ends the search', async () => {
      await publishRound(phase(4n) | 1n, 500_00000000n, nowS - 200n);
      await publishRound(phase(4n) | 2n, 501_00000000n, nowS - 100n);
      await publishRound(phase(4n) | 4n, 504_00000000n, nowS);
      expect(await feed().roundAt(at(-50), 120)).toMatchObject({ reading: { price: 501_00000000n } });
      // Before phase 4's first round: the previous phase is never read.
      expect(await feed().roundAt(at(-250), 120)).toEqual({ found: false, reason: 'before_history' });
    });

    test('an RPC that fails is UNAVAILABLE, for the caller to retry; no aggregator is an answer', async () => {
      const faulty = createFaultyChainClient(chain.rpcUrl);
      faulty.fail('eth_call');
      const failing = createChainlinkFeed({
        client: faulty.client,
        address: aggregator,
        maxAgeS: 120,
        clock,
      });
      await expectFeedError(failing.roundAt(at(-50), 120), 'UNAVAILABLE');
      faulty.heal();
      expect(await failing.roundAt(at(-50), 120)).toMatchObject({ found: true });
      const missing = createChainlinkFeed({
        client: chain.publicClient,
        address: '0x000000000000000000000000000000000000dead',
        maxAgeS: 120,
        clock,
      });
      expect(await missing.roundAt(at(0), 120)).toMatchObject({ found: false });
    });
  });

  test('the checked-in bytecode of each chain/contracts source is what it compiles to', async () => {
    const built = await buildContracts();
    expect(built.length).toBeGreaterThan(0);
    for (const generated of built) {
      expect(await readFile(new URL(`../../../${generated.path}`, import.meta.url), 'utf8')).toBe(
        generated.text,
      );
    }
  });
});

describe('ticker feed against a loopback exchange', () => {
  let server: Server;
  let baseUrl: string;
  const clock = createManualClock(NOW);

  beforeAll(async () => {
    server = createServer((request, response) => {
      const mode = new URL(request.url ?? '/', 'http://x').searchParams.get('mode');
      if (mode === 'slow') return void setTimeout(() => response.end('{}'), 1_000);
      if (mode === 'error') {
        response.statusCode = 500;
        return void response.end('{"code":-1000,"msg":"An unknown error occurred"}');
      }
      if (mode === 'garbage') return void response.end('<html>rate limited</html>');
      if (mode === 'shape') return void response.end('{"symbol":"BNBUSDT","last":"612.34"}');
      if (mode === 'nan') return void response.end('{"symbol":"BNBUSDT","price":"NaN"}');
      response.setHeader('content-type', 'application/json');
      response.end('{"symbol":"BNBUSDT","price":"612.34000000"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    baseUrl = `http://127.0.0.1:${address.port}/api/v3/ticker/price?symbol=BNBUSDT`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ticker = (mode = 'ok') => createTickerFeed({ url: `${baseUrl}&mode=${mode}`, clock, timeoutMs: 200 });

  test('a ticker answer is read exactly, as of now', async () => {
    expect(await ticker().read()).toEqual({
      price: 612_34000000n,
      updatedAt: NOW,
      roundId: null,
      source: 'ticker',
      stale: false,
    });
  });

  test('a ticker that does not answer in time is TIMEOUT', async () => {
    await expectFeedError(ticker('slow').read(), 'TIMEOUT');
  });

  test('an HTTP 500 is HTTP_ERROR', async () => {
    await expectFeedError(ticker('error').read(), 'HTTP_ERROR');
  });

  test('garbage, a missing price or a price that is not a number is BAD_RESPONSE', async () => {
    await expectFeedError(ticker('garbage').read(), 'BAD_RESPONSE');
    await expectFeedError(ticker('shape').read(), 'BAD_RESPONSE');
    await expectFeedError(ticker('nan').read(), 'BAD_RESPONSE');
  });

  test('after a good reading, a failure answers the last good value marked stale, with its own time', async () => {
    let mode = 'ok';
    const feed = createTickerFeed({
      url: baseUrl,
      clock,
      timeoutMs: 200,
      fetch: (input, init) => fetch(`${String(input)}&mode=${mode}`, init),
    });
    await feed.read();
    clock.advance(30_000);
    mode = 'error';
    expect(await feed.read()).toEqual({
      price: 612_34000000n,
      updatedAt: NOW,
      roundId: null,
      source: 'ticker',
      stale: true,
    });
  });
});

describe('ticker feed at a past instant', () => {
  let server: Server;
  let url: string;
  let up = true;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.statusCode = up ? 200 : 503;
      response.end('{"symbol":"BNBUSDT","price":"612.34000000"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}/api/v3/ticker/price?symbol=BNBUSDT`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('answers from its own fresh readings, never from the stale value it repeats when the exchange fails', async () => {
    const clock = createManualClock(NOW);
    const feed = createTickerFeed({ url, clock, timeoutMs: 2_000 });
    await feed.read();
    clock.advance(30_000);
    up = false;
    expect((await feed.read()).stale).toBe(true);
    const instant = new Date(NOW.getTime() + 30_000);
    expect(await feed.roundAt(instant, 120)).toEqual({
      found: true,
      reading: { price: 612_34000000n, updatedAt: NOW, roundId: null, source: 'ticker', stale: false },
    });
    expect(await feed.roundAt(instant, 20)).toEqual({ found: false, reason: 'stale' });
  });
});

describe('simulated feed', () => {
  const clock = createManualClock(NOW);

  test('the same seed walks the same way, in small steps', async () => {
    const a = createSimulatedFeed({ clock, seed: 7 });
    const b = createSimulatedFeed({ clock, seed: 7 });
    const walkA = [];
    const walkB = [];
    for (let i = 0; i < 50; i++) {
      walkA.push((await a.read()).price);
      walkB.push((await b.read()).price);
    }
    expect(walkA).toEqual(walkB);
    for (const [i, price] of walkA.entries()) {
      const previous = walkA[i - 1] ?? 600_00000000n;
      const change = price > previous ? price - previous : previous - price;
      expect(change * 10_000n).toBeLessThanOrEqual(previous * 5n);
    }
  });

  test('a set price is the next reading, and the walk goes on from it unless held', async () => {
    const feed = createSimulatedFeed({ clock, seed: 1 });
    feed.setPrice(700_00000000n);
    expect((await feed.read()).price).toBe(700_00000000n);
    expect((await feed.read()).price).not.toBe(700_00000000n);
    feed.setPrice(650_00000000n, { hold: true });
    expect([(await feed.read()).price, (await feed.read()).price]).toEqual([650_00000000n, 650_00000000n]);
  });
});

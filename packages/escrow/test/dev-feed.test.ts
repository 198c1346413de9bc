import { PRICE_SYMBOLS } from '@pm/core/constants';
import { type Abi, type Address, encodeDeployData, getAddress, parseEventLogs, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeRevert } from '../src/decode-revert.ts';
import { DEV_FEED_DECIMALS, deployDevFeed, devFeedDescription } from '../src/deploy-dev-feed.ts';
import { devFeedAggregatorAbi, devFeedAggregatorBytecode, devFeedProxyAbi } from '../src/dev-feeds.gen.ts';
import { devAccount } from './chain-clients.ts';
import { createFeedWorld, type FeedWorld, OWNER, roundIdOf, STRANGER, WRITER } from './feed-world.ts';

// The local chain's Chainlink-compatible feeds: only the writer publishes, each answer is a round
// numbered from 1 and updated at its block's time, and the proxy's owner moves it to a new aggregator,
// a new phase whose ids sit above the old ones (docs/decisions/029-price-outcomes-from-the-feed.md).

let world: FeedWorld;
beforeAll(async () => {
  world = await createFeedWorld();
});
afterAll(() => world?.stop());

const PRICE = 612_34000000n;

/** The revert a call would make, by its error's name, or undefined when it would succeed. */
async function revertOf(call: () => Promise<unknown>, abi: Abi) {
  try {
    await call();
    return undefined;
  } catch (error) {
    const revert = decodeRevert(error, abi);
    if (!revert) throw error;
    return revert;
  }
}

async function newFeed(symbol = 'BNB') {
  return deployDevFeed(world.walletOf(OWNER), world.publicClient, {
    symbol,
    writer: devAccount(WRITER).address,
  });
}

const readProxy = (proxy: Address) => ({
  latest: () =>
    world.publicClient.readContract({
      address: proxy,
      abi: devFeedProxyAbi,
      functionName: 'latestRoundData',
    }),
  round: (roundId: bigint) =>
    world.publicClient.readContract({
      address: proxy,
      abi: devFeedProxyAbi,
      functionName: 'getRoundData',
      args: [roundId],
    }),
  call: <const F extends 'phaseId' | 'aggregator' | 'decimals' | 'description' | 'version' | 'owner'>(
    functionName: F,
  ) => world.publicClient.readContract({ address: proxy, abi: devFeedProxyAbi, functionName }),
});

async function publish(aggregator: Address, answer: bigint, from = WRITER) {
  return world.mined(
    world.walletOf(from).writeContract({
      address: aggregator,
      abi: devFeedAggregatorAbi,
      functionName: 'publish',
      args: [answer],
    }),
  );
}

describe('deploying a coin’s feed', () => {
  test('every coin gets a proxy over its aggregator, described as Chainlink names it, in 8 decimals', async () => {
    for (const symbol of PRICE_SYMBOLS) {
      const feed = await newFeed(symbol);
      const proxy = readProxy(feed.proxy);
      expect(feed.description).toBe(`${symbol} / USD`);
      expect(await proxy.call('description')).toBe(devFeedDescription(symbol));
      expect(await proxy.call('decimals')).toBe(DEV_FEED_DECIMALS);
      expect(await proxy.call('version')).toBe(1n);
      expect(await proxy.call('phaseId')).toBe(1);
      expect(getAddress(await proxy.call('aggregator'))).toBe(feed.aggregator);
      expect(getAddress(await proxy.call('owner'))).toBe(devAccount(OWNER).address);
      // No answer yet: round 0 of phase 1, all zeros, as an OCR aggregator answers.
      expect(await proxy.latest()).toEqual([roundIdOf(1, 0n), 0n, 0n, 0n, roundIdOf(1, 0n)]);
    }
  });

  test('a writer of the zero address is refused', async () => {
    const revert = await revertOf(
      () =>
        world.publicClient.call({
          account: devAccount(OWNER),
          data: encodeDeployData({
            abi: devFeedAggregatorAbi,
            bytecode: devFeedAggregatorBytecode,
            args: [zeroAddress, 8, 'BNB / USD'],
          }),
        }),
      devFeedAggregatorAbi,
    );
    expect(revert?.errorName).toBe('ZeroAddress');
  });
});

describe('publishing', () => {
  test('only the writer publishes: not the proxy’s owner, not anyone else', async () => {
    const feed = await newFeed();
    for (const from of [OWNER, STRANGER]) {
      const revert = await revertOf(
        () =>
          world.publicClient.simulateContract({
            account: devAccount(from),
            address: feed.aggregator,
            abi: devFeedAggregatorAbi,
            functionName: 'publish',
            args: [PRICE],
          }),
        devFeedAggregatorAbi,
      );
      expect(revert).toEqual({ errorName: 'NotWriter', args: [devAccount(from).address] });
    }
    expect((await readProxy(feed.proxy).latest())[3]).toBe(0n);
  });

  test('rounds are numbered from 1, each updated at its block’s time, and read through the proxy with their phase', async () => {
    const feed = await newFeed();
    const proxy = readProxy(feed.proxy);
    const times: bigint[] = [];
    for (let i = 1n; i <= 3n; i++) {
      const receipt = await publish(feed.aggregator, PRICE + i);
      const block = await world.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      times.push(block.timestamp);
      const [event] = parseEventLogs({
        abi: devFeedAggregatorAbi,
        logs: receipt.logs,
        eventName: 'AnswerUpdated',
      });
      expect(event?.args).toEqual({ current: PRICE + i, roundId: i, updatedAt: block.timestamp });
      await world.testClient.increaseTime({ seconds: 30 });
    }
    for (let i = 1n; i <= 3n; i++) {
      const updatedAt = times[Number(i) - 1];
      // startedAt is updatedAt and answeredInRound the round itself, as OCR answers.
      expect(await proxy.round(roundIdOf(1, i))).toEqual([
        roundIdOf(1, i),
        PRICE + i,
        updatedAt,
        updatedAt,
        roundIdOf(1, i),
      ]);
    }
    expect(await proxy.latest()).toEqual([
      roundIdOf(1, 3n),
      PRICE + 3n,
      times[2],
      times[2],
      roundIdOf(1, 3n),
    ]);
    // A round not published yet answers zeros (no revert), through the proxy as from the aggregator.
    expect(await proxy.round(roundIdOf(1, 4n))).toEqual([roundIdOf(1, 4n), 0n, 0n, 0n, roundIdOf(1, 4n)]);
    expect(
      await world.publicClient.readContract({
        address: feed.aggregator,
        abi: devFeedAggregatorAbi,
        functionName: 'getRoundData',
        args: [4n],
      }),
    ).toEqual([4n, 0n, 0n, 0n, 4n]);
  });
});

describe('phases', () => {
  test('the owner moves the proxy to a new aggregator: a new phase, answered from now on, the old rounds kept', async () => {
    const feed = await newFeed();
    const proxy = readProxy(feed.proxy);
    await publish(feed.aggregator, PRICE);
    await publish(feed.aggregator, PRICE + 1n);
    const next = await world.deploy(
      encodeDeployData({
        abi: devFeedAggregatorAbi,
        bytecode: devFeedAggregatorBytecode,
        args: [devAccount(WRITER).address, 8, 'BNB / USD v2'],
      }),
    );

    const receipt = await world.setAggregator(feed.proxy, next);
    const [event] = parseEventLogs({ abi: devFeedProxyAbi, logs: receipt.logs, eventName: 'AggregatorSet' });
    expect(event?.args).toEqual({ phaseId: 2, aggregator: next });
    expect(await proxy.call('phaseId')).toBe(2);
    expect(getAddress(await proxy.call('aggregator'))).toBe(next);
    expect(await proxy.call('description')).toBe('BNB / USD v2');
    const phases = await Promise.all(
      [1, 2, 3].map((phase) =>
        world.publicClient.readContract({
          address: feed.proxy,
          abi: devFeedProxyAbi,
          functionName: 'phaseAggregators',
          args: [phase],
        }),
      ),
    );
    expect(phases.map((address) => getAddress(address))).toEqual([feed.aggregator, next, zeroAddress]);

    // The new phase has no round yet: latestRoundData answers its round 0.
    expect((await proxy.latest())[0]).toBe(roundIdOf(2, 0n));
    await publish(next, PRICE + 2n);
    expect((await proxy.latest()).slice(0, 2)).toEqual([roundIdOf(2, 1n), PRICE + 2n]);
    // Ids grow across phases; the old phase's rounds stay readable by their ids.
    expect((await proxy.round(roundIdOf(1, 2n)))[1]).toBe(PRICE + 1n);
    expect((await proxy.round(roundIdOf(2, 1n)))[1]).toBe(PRICE + 2n);
    expect(roundIdOf(2, 1n) > roundIdOf(1, 2n)).toBe(true);
  });

  test('a phase the proxy never had reverts, phase 0 included', async () => {
    const feed = await newFeed();
    for (const phase of [0, 2]) {
      const revert = await revertOf(() => readProxy(feed.proxy).round(roundIdOf(phase, 1n)), devFeedProxyAbi);
      expect(revert).toEqual({ errorName: 'NoSuchPhase', args: [phase] });
    }
  });

  test('only the owner moves the proxy, never to the zero address; ownership moves in two steps', async () => {
    const feed = await newFeed();
    const simulateSet = (from: number, next: Address) => () =>
      world.publicClient.simulateContract({
        account: devAccount(from),
        address: feed.proxy,
        abi: devFeedProxyAbi,
        functionName: 'setAggregator',
        args: [next],
      });
    expect(await revertOf(simulateSet(STRANGER, feed.aggregator), devFeedProxyAbi)).toEqual({
      errorName: 'OwnableUnauthorizedAccount',
      args: [devAccount(STRANGER).address],
    });
    expect((await revertOf(simulateSet(OWNER, zeroAddress), devFeedProxyAbi))?.errorName).toBe('ZeroAddress');

    await world.mined(
      world.walletOf(OWNER).writeContract({
        address: feed.proxy,
        abi: devFeedProxyAbi,
        functionName: 'transferOwnership',
        args: [devAccount(STRANGER).address],
      }),
    );
    // Until the new owner accepts, the old one still owns the proxy.
    expect(getAddress(await readProxy(feed.proxy).call('owner'))).toBe(devAccount(OWNER).address);
    await world.mined(
      world.walletOf(STRANGER).writeContract({
        address: feed.proxy,
        abi: devFeedProxyAbi,
        functionName: 'acceptOwnership',
      }),
    );
    expect(await revertOf(simulateSet(OWNER, feed.aggregator), devFeedProxyAbi)).toEqual({
      errorName: 'OwnableUnauthorizedAccount',
      args: [devAccount(OWNER).address],
    });
    await world.setAggregator(feed.proxy, feed.aggregator, STRANGER);
    expect(await readProxy(feed.proxy).call('phaseId')).toBe(2);
  });
});

import { type Address, encodeDeployData, getAddress, type TransactionReceipt } from 'viem';
import { DEV_FEED_DECIMALS, devFeedDescription } from '../src/deploy-dev-feed.ts';
import { devFeedAggregatorAbi, devFeedAggregatorBytecode, devFeedProxyAbi } from '../src/dev-feeds.gen.ts';
import { devAccount } from './chain-clients.ts';
import {
  ADMIN,
  COINS,
  FEED_WRITER,
  type MarketEscrowWorld,
  type PublishedRound,
} from './market-escrow-world.ts';

// The world's dev feeds across their proxies' phases (docs/decisions/029-price-outcomes-from-the-feed.md):
// the proxy's owner moves it to a fresh aggregator, whose rounds carry the next phase in their ids, and
// the feed's writer publishes to whichever aggregator is current. Every round it publishes is added to
// `world.published`, so the world's `roundAt` and `settleRound` keep finding the round in force across
// phases. Once a coin has moved, publish to it here only: the world's own `publish` knows phase 1 alone.

/** A round id's phase: the bits above 64, as Chainlink's proxies number them. */
export const phaseOf = (roundId: bigint): number => Number(roundId >> 64n);
export const roundIdOf = (phase: number, round: bigint): bigint => (BigInt(phase) << 64n) | round;

export type FeedPhasesOptions = {
  /** The time of the next transaction's block, when the caller keeps the chain's clock itself. */
  nextTimestamp?: () => number;
};

export function createFeedPhases(world: MarketEscrowWorld, options: FeedPhasesOptions = {}) {
  // Made before any move: every coin is in phase 1, at the aggregator the world deployed.
  const current = COINS.map((_, coin) => ({
    phase: 1,
    aggregator: (world.feeds[coin]?.aggregator ?? '0x') as Address,
  }));

  async function atNextTimestamp(at?: number) {
    const timestamp = at ?? options.nextTimestamp?.();
    if (timestamp !== undefined)
      await world.testClient.setNextBlockTimestamp({ timestamp: BigInt(timestamp) });
    return timestamp;
  }

  const rounds = (coin: number): PublishedRound[] => world.published[coin] ?? [];

  /** Publishes `answer` to `coin`'s current aggregator, at `at` if given; answers the round and receipt. */
  async function publish(
    coin: number,
    answer: bigint,
    at?: number,
  ): Promise<{ round: PublishedRound; receipt: TransactionReceipt }> {
    const feed = current[coin];
    if (!feed) throw new Error(`no coin ${coin}`);
    const timestamp = await atNextTimestamp(at);
    const receipt = await world.mined(
      world.walletOf(FEED_WRITER).writeContract({
        address: feed.aggregator,
        abi: devFeedAggregatorAbi,
        functionName: 'publish',
        args: [answer],
      }),
    );
    const updatedAt =
      timestamp ??
      Number((await world.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp);
    const inPhase = rounds(coin).filter((round) => phaseOf(round.roundId) === feed.phase).length;
    const round = { roundId: roundIdOf(feed.phase, BigInt(inPhase + 1)), answer, updatedAt };
    rounds(coin).push(round);
    return { round, receipt };
  }

  /** Deploys a fresh aggregator for `coin` and moves its proxy to it: a new phase with no round yet. */
  async function newPhase(coin: number): Promise<{ phase: number; receipts: TransactionReceipt[] }> {
    const feed = current[coin];
    const proxy = world.feeds[coin]?.proxy;
    if (!feed || !proxy) throw new Error(`no coin ${coin}`);
    await atNextTimestamp();
    const deployed = await world.mined(
      world.walletOf(ADMIN).sendTransaction({
        data: encodeDeployData({
          abi: devFeedAggregatorAbi,
          bytecode: devFeedAggregatorBytecode,
          args: [devAccount(FEED_WRITER).address, DEV_FEED_DECIMALS, devFeedDescription(COINS[coin] ?? '')],
        }),
      }),
    );
    if (!deployed.contractAddress) throw new Error('no aggregator deployed');
    const next = getAddress(deployed.contractAddress);
    await atNextTimestamp();
    const moved = await world.mined(
      world.walletOf(ADMIN).writeContract({
        address: proxy,
        abi: devFeedProxyAbi,
        functionName: 'setAggregator',
        args: [next],
      }),
    );
    feed.phase += 1;
    feed.aggregator = next;
    return { phase: feed.phase, receipts: [deployed, moved] };
  }

  /** The round of `coin` in force at `instant`: the last one updated at or before it, in any phase. */
  function roundAt(coin: number, instant: number): PublishedRound | undefined {
    return rounds(coin)
      .filter((round) => round.updatedAt <= instant)
      .at(-1);
  }

  return {
    publish,
    newPhase,
    roundAt,
    rounds,
    phase: (coin: number) => current[coin]?.phase ?? 1,
    /** What a chain snapshot taken now holds of the feeds, for `restore` after reverting to it. */
    save(): FeedPhasesState {
      return current.map((feed, coin) => ({ ...feed, published: rounds(coin).length }));
    },
    /** Back to a saved state, as the chain is after reverting to the snapshot taken with it. */
    restore(saved: FeedPhasesState) {
      for (const [coin, feed] of current.entries()) {
        const state = saved[coin];
        if (!state) continue;
        feed.phase = state.phase;
        feed.aggregator = state.aggregator;
        rounds(coin).length = state.published;
      }
    },
  };
}

export type FeedPhases = ReturnType<typeof createFeedPhases>;
export type FeedPhasesState = { phase: number; aggregator: Address; published: number }[];

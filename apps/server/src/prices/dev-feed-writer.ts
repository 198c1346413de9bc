import type { PriceSymbol } from '@pm/core/constants';
import { devFeedAggregatorAbi, devFeedProxyAbi } from '@pm/escrow/dev-feeds.gen';
import type { FastifyBaseLogger } from 'fastify';
import { type Address, createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Clock } from '../chain/clock.ts';
import type { Job } from '../jobs/job-runner.ts';
import { SIMULATED_START_PRICES } from './create-coin-feeds.ts';
import { createSimulatedFeed, type SimulatedFeed } from './simulated-feed.ts';

// The local chain's Chainlink node (docs/decisions/029, 031): each coin's simulated walk, published as
// rounds of its dev aggregator the way a Chainlink node updates a feed: when the price moved by the
// deviation threshold, or when the heartbeat is due. The server reads those feeds as it reads
// Chainlink's on BSC (PRICE_FEED=chainlink), so rounds, price markets and the price cards on the local
// chain decide from the same contracts, and by the same reads, as in production.

/** How often the walk steps and the writer looks at each coin. */
export const DEV_FEED_TICK_MS = 5_000;
/** A new round when the price moved this much (basis points) since the last one published. */
export const DEV_FEED_DEVIATION_BPS = 5n;
/** A new round at least this often, moved or not (Chainlink's BNB/USD heartbeat on BSC is a minute). */
export const DEV_FEED_HEARTBEAT_MS = 60_000;

export type DevFeedWriter = {
  job: Job;
  /**
   * Publishes `price` (8 decimals) as `symbol`'s next round now, and with `hold` keeps the walk on it
   * until the next call: how the e2e suite and a demo decide a round or a price market.
   */
  setPrice(symbol: PriceSymbol, price: bigint, options?: { hold?: boolean }): Promise<void>;
};

type CoinState = { walk: SimulatedFeed; aggregator?: Address; last?: { price: bigint; atMs: number } };

export function createDevFeedWriter(deps: {
  rpcUrl: string;
  privateKey: Hex;
  /** Each coin's feed proxy, as the server reads it. */
  proxies: Readonly<Record<PriceSymbol, Address>>;
  clock: Clock;
  logger: FastifyBaseLogger;
}): DevFeedWriter {
  const transport = http(deps.rpcUrl, { timeout: 10_000 });
  const client = createPublicClient({ transport, pollingInterval: 250 });
  const account = privateKeyToAccount(deps.privateKey);
  const wallet = createWalletClient({ transport, account });
  const coins = new Map<PriceSymbol, CoinState>();
  for (const symbol of Object.keys(deps.proxies) as PriceSymbol[]) {
    coins.set(symbol, {
      walk: createSimulatedFeed({ clock: deps.clock, start: SIMULATED_START_PRICES[symbol] }),
    });
  }
  let resumed = false;
  // One batch of rounds at a time (a tick's, or a dev price set meanwhile), each numbered from the
  // account's pending nonce: a batch that fails leaves no gap for the next one to trip over.
  let batches: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = batches.then(work, work);
    batches = next.catch(() => undefined);
    return next;
  };

  const state = (symbol: PriceSymbol): CoinState => {
    const coin = coins.get(symbol);
    if (!coin) throw new Error(`no dev feed for ${symbol}`);
    return coin;
  };

  const aggregatorOf = async (symbol: PriceSymbol): Promise<Address> => {
    const coin = state(symbol);
    coin.aggregator ??= await client.readContract({
      address: deps.proxies[symbol],
      abi: devFeedProxyAbi,
      functionName: 'aggregator',
    });
    return coin.aggregator;
  };

  // The walks go on from each feed's latest answer, so a restarted server does not jump the price.
  const resume = async () => {
    if (resumed) return;
    for (const [symbol, coin] of coins) {
      const [roundId, answer] = await client.readContract({
        address: deps.proxies[symbol],
        abi: devFeedProxyAbi,
        functionName: 'latestRoundData',
      });
      if (roundId !== 0n && answer > 0n) coin.walk.resumeFrom(answer);
    }
    resumed = true;
  };

  /** Publishes each coin's price as its feed's next round: sent in nonce order, then awaited. */
  const publish = (prices: ReadonlyArray<readonly [PriceSymbol, bigint]>) =>
    serially(async () => {
      if (prices.length === 0) return;
      let nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      const sent: Array<{ symbol: PriceSymbol; price: bigint; hash: Hex }> = [];
      for (const [symbol, price] of prices) {
        const hash = await wallet.writeContract({
          address: await aggregatorOf(symbol),
          abi: devFeedAggregatorAbi,
          functionName: 'publish',
          args: [price],
          chain: null,
          nonce,
        });
        nonce += 1;
        sent.push({ symbol, price, hash });
      }
      for (const { symbol, price, hash } of sent) {
        const receipt = await client.waitForTransactionReceipt({ hash });
        if (receipt.status !== 'success') throw new Error(`the ${symbol} feed's round ${hash} reverted`);
        state(symbol).last = { price, atMs: deps.clock.now().getTime() };
      }
    });

  const due = (coin: CoinState, price: bigint, nowMs: number): boolean => {
    const { last } = coin;
    if (!last) return true;
    if (nowMs - last.atMs >= DEV_FEED_HEARTBEAT_MS) return true;
    const moved = price > last.price ? price - last.price : last.price - price;
    return moved * 10_000n >= last.price * DEV_FEED_DEVIATION_BPS;
  };

  const job: Job = {
    name: 'dev-feed-writer',
    intervalMs: DEV_FEED_TICK_MS,
    async run() {
      await resume();
      const nowMs = deps.clock.now().getTime();
      const prices: Array<readonly [PriceSymbol, bigint]> = [];
      for (const [symbol, coin] of coins) {
        const reading = await coin.walk.read();
        if (due(coin, reading.price, nowMs)) prices.push([symbol, reading.price]);
      }
      // A round that was not published is due again on the next tick.
      await publish(prices).catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'dev feed rounds were not published'),
      );
    },
  };

  return {
    job,
    async setPrice(symbol, price, options = {}) {
      const coin = state(symbol);
      coin.walk.setPrice(price, { hold: options.hold ?? true });
      const reading = await coin.walk.read();
      await publish([[symbol, reading.price]]);
    },
  };
}

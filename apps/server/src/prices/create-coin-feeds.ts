import { PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import type { PublicClient } from 'viem';
import type { Clock } from '../chain/clock.ts';
import type { Config } from '../config/config.ts';
import { createChainlinkFeed } from './chainlink-feed.ts';
import type { PriceFeed, PriceSource } from './price-feed.ts';
import { createSimulatedFeed, type SimulatedFeed } from './simulated-feed.ts';
import { createTickerFeed, tickerUrlFor } from './ticker-feed.ts';

// Every coin's feed, of the one kind PRICE_FEED names (docs/decisions/020): one prices module for all
// coins, BNB included, which the oracle game reads too (docs/architecture.md "Oracle rounds").

/** A plausible late-2025 USD price per coin (× 1e8), where each simulated walk starts. */
export const SIMULATED_START_PRICES: Readonly<Record<PriceSymbol, bigint>> = {
  BTC: 95_000_00000000n,
  ETH: 3_300_00000000n,
  BNB: 600_00000000n,
  SOL: 180_00000000n,
  XRP: 2_20000000n,
  ADA: 90000000n,
  AVAX: 35_00000000n,
  DOGE: 35000000n,
};

export type CoinFeeds = {
  source: PriceSource;
  feeds: Map<PriceSymbol, PriceFeed>;
  /** The simulated walks (PRICE_FEED=simulated), for the dev price control. */
  simulated: Map<PriceSymbol, SimulatedFeed>;
  /** What decides a coin, as a price market records it: an aggregator address, a ticker host, "simulated". */
  feedLabel(symbol: PriceSymbol): string;
};

export function createCoinFeeds(deps: {
  config: Config;
  clock: Clock;
  chainlinkClient: () => PublicClient;
}): CoinFeeds {
  const { config, clock } = deps;
  const feeds = new Map<PriceSymbol, PriceFeed>();
  const simulated = new Map<PriceSymbol, SimulatedFeed>();
  const source = config.prices.feed;
  switch (source) {
    case 'chainlink': {
      const client = deps.chainlinkClient();
      for (const symbol of PRICE_SYMBOLS) {
        feeds.set(
          symbol,
          createChainlinkFeed({
            client,
            address: config.prices.chainlinkAddresses[symbol],
            maxAgeS: config.prices.maxAgeS,
            clock,
          }),
        );
      }
      break;
    }
    case 'ticker':
      for (const symbol of PRICE_SYMBOLS) {
        feeds.set(symbol, createTickerFeed({ url: tickerUrlFor(config.prices.tickerUrl, symbol), clock }));
      }
      break;
    case 'simulated':
      for (const symbol of PRICE_SYMBOLS) {
        const feed = createSimulatedFeed({ clock, start: SIMULATED_START_PRICES[symbol] });
        simulated.set(symbol, feed);
        feeds.set(symbol, feed);
      }
      break;
  }
  return {
    source,
    feeds,
    simulated,
    feedLabel(symbol) {
      if (source === 'chainlink') return config.prices.chainlinkAddresses[symbol];
      if (source === 'ticker') return new URL(tickerUrlFor(config.prices.tickerUrl, symbol)).host;
      return 'simulated';
    },
  };
}

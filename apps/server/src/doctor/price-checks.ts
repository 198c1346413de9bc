import type { PriceSymbol } from '@pm/core/constants';
import { formatUsdPrice } from '@pm/core/price';
import type { PublicClient } from 'viem';
import type { Clock } from '../chain/clock.ts';
import type { Config } from '../config/config.ts';
import { describeError } from '../errors/describe-error.ts';
import { createCoinFeeds } from '../prices/create-coin-feeds.ts';
import type { PriceFeed } from '../prices/price-feed.ts';
import { PriceFeedError } from '../prices/price-feed.ts';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

// Each configured price feed answers and is fresh (docs/operations.md "Preflight"): the prices
// module's own feeds, built from the settings as the server builds them, read once each.

export type CoinFeedToCheck = { symbol: PriceSymbol; label: string; feed: PriceFeed };

/** Every coin's feed of the kind PRICE_FEED names, with what decides it (aggregator, ticker host). */
export function coinFeedsToCheck(deps: {
  config: Config;
  clock: Clock;
  chainlinkClient: () => PublicClient;
}): { source: Config['prices']['feed']; coins: CoinFeedToCheck[] } {
  const coins = createCoinFeeds(deps);
  return {
    source: coins.source,
    coins: [...coins.feeds].map(([symbol, feed]) => ({ symbol, feed, label: coins.feedLabel(symbol) })),
  };
}

/**
 * One reading: it must come (the feed answers) and be no older than ORACLE_MAX_AGE_S by the server's
 * clock (the Chainlink reader refuses an older one as STALE, and says when it was updated).
 */
export async function checkCoinFeed(
  feed: PriceFeed,
  options: { clock: Clock; maxAgeS: number },
): Promise<CheckOutcome> {
  try {
    const reading = await feed.read();
    const ageS = secondsSince(reading.updatedAt, options.clock);
    if (reading.stale || ageS > options.maxAgeS) return failed(staleReason(ageS, options.maxAgeS));
    return passed(`${formatUsdPrice(reading.price, 4)} USD, updated ${ageS} s ago`);
  } catch (error) {
    if (error instanceof PriceFeedError && error.code === 'STALE' && error.updatedAt) {
      return failed(staleReason(secondsSince(error.updatedAt, options.clock), options.maxAgeS));
    }
    if (error instanceof PriceFeedError) {
      const cause = error.cause === undefined ? '' : `: ${describeError(error.cause)}`;
      return failed(`${error.code}: ${error.message}${cause}`);
    }
    throw error;
  }
}

function staleReason(ageS: number, maxAgeS: number): string {
  return `stale: updated ${ageS} s ago (ORACLE_MAX_AGE_S is ${maxAgeS})`;
}

function secondsSince(time: Date, clock: Clock): number {
  return Math.max(0, Math.floor((clock.now().getTime() - time.getTime()) / 1000));
}

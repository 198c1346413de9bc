import { CHAIN_ID, PRICE_DECIMALS, PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import { formatUsdPrice, usdFeedDescription } from '@pm/core/price';
import { type Address, getAddress, type PublicClient, parseAbi } from 'viem';
import type { Clock } from '../chain/clock.ts';
import { CHAINLINK_BSC_MAINNET_USD_FEEDS } from '../config/chainlink-bsc-mainnet-usd-feeds.ts';
import type { Config } from '../config/config.ts';
import { describeError } from '../errors/describe-error.ts';
import { createCoinFeeds } from '../prices/create-coin-feeds.ts';
import type { PriceFeed } from '../prices/price-feed.ts';
import { PriceFeedError } from '../prices/price-feed.ts';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

// Each configured price feed answers and is fresh (docs/operations.md "Preflight"): the prices
// module's own feeds, built from the settings as the server builds them, read once each. With
// PRICE_FEED=chainlink, each feed also says it is its coin's USD feed in 8 decimals, and on BSC mainnet
// each address is Chainlink's published proxy: a swapped or mistyped address fails loudly rather than
// deciding a coin's markets by another coin's price.

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

/** What a Chainlink USD feed says of itself; the local chain's dev feeds answer the same. */
const feedIdentityAbi = parseAbi([
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
]);

/** The title of a coin's identity check: what the feed at its address must say of itself. */
export function feedIdentityTitle(symbol: PriceSymbol): string {
  return `price feed ${symbol} answers as "${usdFeedDescription(symbol)}" with ${PRICE_DECIMALS} decimals`;
}

/**
 * The feed at `address` is `symbol`'s USD feed: its `description()` is "<COIN> / USD", as Chainlink
 * names its feeds, and its `decimals()` is 8, the scale of every price (docs/architecture.md "Money,
 * time and identity"). Another coin's feed at the address fails naming both coins.
 */
export async function checkFeedIdentity(
  client: PublicClient,
  symbol: PriceSymbol,
  address: Address,
): Promise<CheckOutcome> {
  let decimals: number;
  let description: string;
  try {
    [decimals, description] = await Promise.all([
      client.readContract({ address, abi: feedIdentityAbi, functionName: 'decimals' }),
      client.readContract({ address, abi: feedIdentityAbi, functionName: 'description' }),
    ]);
  } catch (error) {
    return failed(`decimals() and description() could not be read: ${describeError(error)}`);
  }
  const expected = usdFeedDescription(symbol);
  if (description !== expected) {
    const other = PRICE_SYMBOLS.find((coin) => usdFeedDescription(coin) === description);
    if (other) return failed(`the address holds "${description}", ${other}'s feed, not ${symbol}'s`);
    return failed(`its description is "${description}", not "${expected}": not ${symbol}'s USD feed`);
  }
  if (decimals !== PRICE_DECIMALS) {
    return failed(
      `it answers with ${decimals} decimals, not ${PRICE_DECIMALS}: every price would be mis-scaled`,
    );
  }
  return passed();
}

/**
 * Every coin's address is Chainlink's published proxy on BSC mainnet (chainlink-bsc-mainnet-usd-feeds.ts)
 * when the feeds are read there (`chainId`, their RPC's); on another chain, such as the local one with
 * its dev feeds, the addresses that differ are named for information only.
 */
export function checkFeedAddresses(
  chainId: number,
  addresses: Readonly<Record<PriceSymbol, Address>>,
): CheckOutcome {
  const others = PRICE_SYMBOLS.filter(
    (symbol) => addresses[symbol].toLowerCase() !== CHAINLINK_BSC_MAINNET_USD_FEEDS[symbol].toLowerCase(),
  );
  if (chainId === CHAIN_ID.bscMainnet) {
    if (others.length === 0) return passed(`all ${PRICE_SYMBOLS.length} on chain ${chainId}`);
    return failed(
      others
        .map(
          (symbol) =>
            `${symbol} ${getAddress(addresses[symbol])} is not Chainlink's ${getAddress(CHAINLINK_BSC_MAINNET_USD_FEEDS[symbol])}`,
        )
        .join('; '),
    );
  }
  const named = others.map((symbol) => `${symbol} ${getAddress(addresses[symbol])}`).join(', ');
  return passed(
    others.length === 0
      ? `chain ${chainId} is not BSC mainnet; every address is Chainlink's mainnet one (information only)`
      : `chain ${chainId} is not BSC mainnet; not Chainlink's mainnet proxies (information only): ${named}`,
  );
}

import { PRICE_SYMBOLS } from '@pm/core/constants';
import type { MarketEscrowSettings } from '@pm/escrow/deploy-market-escrow';
import { type Address, getAddress } from 'viem';
import type { Config } from '../config/config.ts';
import { devFeedAddresses } from '../config/dev-feed-addresses.ts';

// What MarketEscrow fixes for good that the server's settings also name (docs/decisions/031, 034): the
// round's and the price market's fees, the oldest price it takes, and each coin's feed by coin index
// (a coin's index is its place in PRICE_SYMBOLS). `vault:deploy` deploys with these, and doctor checks a
// deployed contract against them, so the server and the contract decide by the same numbers.

export type MarketEscrowServerSettings = Pick<
  MarketEscrowSettings,
  'roundFeeBps' | 'priceMarketFeeBps' | 'maxPriceAge' | 'feeds'
>;

/** The fees and price age: ORACLE_FEE_BPS (rounds), MARKET_FEE_BPS (price markets), ORACLE_MAX_AGE_S. */
export function marketEscrowFees(
  config: Pick<Config, 'fees' | 'prices'>,
): Omit<MarketEscrowServerSettings, 'feeds'> {
  return {
    roundFeeBps: config.fees.oracleBps,
    priceMarketFeeBps: config.fees.marketBps,
    maxPriceAge: config.prices.maxAgeS,
  };
}

/**
 * Each coin's feed in coin order: the Chainlink proxies the server reads with PRICE_FEED=chainlink
 * (CHAINLINK_FEED_ADDRESS, CHAINLINK_FEED_ADDRESSES, Chainlink's BSC mainnet proxies for the rest); on
 * the local chain read another way (a simulated walk, a ticker), the dev feeds, which only the local
 * chain has.
 */
export function marketEscrowFeeds(config: Pick<Config, 'chain' | 'prices'>): Address[] {
  const devFeeds = config.chain.isLocal && config.prices.feed !== 'chainlink';
  return PRICE_SYMBOLS.map((symbol) =>
    devFeeds ? devFeedAddresses(symbol).proxy : getAddress(config.prices.chainlinkAddresses[symbol]),
  );
}

export function marketEscrowServerSettings(
  config: Pick<Config, 'chain' | 'fees' | 'prices'>,
): MarketEscrowServerSettings {
  return { ...marketEscrowFees(config), feeds: marketEscrowFeeds(config) };
}

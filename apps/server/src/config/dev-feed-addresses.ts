import { PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import { type Address, getAddress, getContractAddress } from 'viem';
import { DEV_FEED_WRITER } from './dev-accounts.ts';

/**
 * Where `symbol`'s dev feed is on every dev chain: the writer's first transactions are these
 * deployments, an aggregator then a proxy per coin in PRICE_SYMBOLS' order, so their addresses follow
 * from its nonces.
 */
export function devFeedAddresses(symbol: PriceSymbol): { aggregator: Address; proxy: Address } {
  const index = PRICE_SYMBOLS.indexOf(symbol);
  const from = getAddress(DEV_FEED_WRITER.address);
  return {
    aggregator: getContractAddress({ from, nonce: BigInt(2 * index) }),
    proxy: getContractAddress({ from, nonce: BigInt(2 * index + 1) }),
  };
}

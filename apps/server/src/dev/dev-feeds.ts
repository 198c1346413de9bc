import { CHAIN_ID, PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import { type DevFeed, deployDevFeed, devFeedDescription } from '@pm/escrow/deploy-dev-feed';
import { createChainClient, createChainWallet } from '../chain/chain-client.ts';
import { DEV_FEED_WRITER } from '../config/dev-accounts.ts';
import { devFeedAddresses } from '../config/dev-feed-addresses.ts';

/**
 * The local chain's Chainlink-compatible price feeds (docs/decisions/029-price-outcomes-from-the-feed.md):
 * for each coin an aggregator and a proxy, deployed by the dev feed writer, which alone publishes their
 * rounds (the server's dev feed writer, prices/dev-feed-writer.ts). The server reads them as it reads
 * Chainlink's on BSC (PRICE_FEED=chainlink), so the dev stack runs what production runs.
 */
export async function deployDevFeeds(rpcUrl: string): Promise<Map<PriceSymbol, DevFeed>> {
  const chain = { id: CHAIN_ID.local, rpcUrl };
  const wallet = createChainWallet(chain, DEV_FEED_WRITER.privateKey);
  const client = createChainClient(chain);
  const feeds = new Map<PriceSymbol, DevFeed>();
  const writer = wallet.account.address;
  // Each where the writer's nonces put it (config/dev-feed-addresses.ts): a chain replayed from the data folder
  // has them already, with their rounds; a fresh one gets them, one after another.
  for (const symbol of PRICE_SYMBOLS) {
    const { aggregator, proxy } = devFeedAddresses(symbol);
    const code = await client.getCode({ address: proxy });
    if (code && code !== '0x') {
      feeds.set(symbol, { description: devFeedDescription(symbol), proxy, aggregator });
      continue;
    }
    const deployed = await deployDevFeed(wallet, client, { symbol, writer });
    if (deployed.proxy !== proxy || deployed.aggregator !== aggregator) {
      throw new Error(
        `the ${symbol} feed is not where the writer's nonces put it: was the writer used for anything else?`,
      );
    }
    feeds.set(symbol, deployed);
  }
  return feeds;
}

/** The server's settings for reading these feeds: `CHAINLINK_FEED_ADDRESSES` and the writer's key. */
export function devFeedSettings(feeds: Map<PriceSymbol, DevFeed>): Record<string, string> {
  return {
    PRICE_FEED: 'chainlink',
    CHAINLINK_FEED_ADDRESSES: [...feeds].map(([symbol, feed]) => `${symbol}=${feed.proxy}`).join(','),
    DEV_FEED_WRITER_KEY: DEV_FEED_WRITER.privateKey,
  };
}

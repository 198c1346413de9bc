import { PRICE_DECIMALS } from '@pm/core/constants';
import { usdFeedDescription } from '@pm/core/price';
import {
  type Account,
  type Address,
  type Chain,
  encodeDeployData,
  getAddress,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import {
  devFeedAggregatorAbi,
  devFeedAggregatorBytecode,
  devFeedProxyAbi,
  devFeedProxyBytecode,
} from './dev-feeds.gen.ts';

// The local chain's price feeds (docs/decisions/029-price-outcomes-from-the-feed.md): per coin, a
// Chainlink-compatible aggregator that only its writer (the simulated price walk) publishes to, behind
// a proxy with phases, read as a BSC feed is read.

/** Chainlink's USD feeds answer in 8 decimals (the BNB / USD feed's, docs/architecture.md). */
export const DEV_FEED_DECIMALS = PRICE_DECIMALS;

/** A coin's feed description, as Chainlink names its USD feeds: "BNB / USD". */
export function devFeedDescription(symbol: string): string {
  return usdFeedDescription(symbol);
}

export type DevFeedDeployment = {
  /** The coin, as `PRICE_SYMBOLS` of @pm/core/constants spells it. */
  symbol: string;
  /** The only account that may publish answers. */
  writer: Address;
  /** Who may move the proxy to a new aggregator (a new phase); the deploying account by default. */
  owner?: Address;
  decimals?: number;
};

export type DevFeed = {
  description: string;
  /** The address to read the feed from (AggregatorV3Interface, with phases). */
  proxy: Address;
  /** The phase-1 aggregator, which the writer publishes to. */
  aggregator: Address;
};

/** Deploys a coin's aggregator, then its proxy pointing to it (phase 1), and waits for both. */
export async function deployDevFeed(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  deployment: DevFeedDeployment,
): Promise<DevFeed> {
  const description = devFeedDescription(deployment.symbol);
  const aggregator = await deployContract(
    walletClient,
    publicClient,
    encodeDeployData({
      abi: devFeedAggregatorAbi,
      bytecode: devFeedAggregatorBytecode,
      args: [deployment.writer, deployment.decimals ?? DEV_FEED_DECIMALS, description],
    }),
    'DevFeedAggregator',
  );
  const proxy = await deployContract(
    walletClient,
    publicClient,
    encodeDeployData({
      abi: devFeedProxyAbi,
      bytecode: devFeedProxyBytecode,
      args: [deployment.owner ?? walletClient.account.address, aggregator],
    }),
    'DevFeedProxy',
  );
  return { description, proxy, aggregator };
}

async function deployContract(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  data: Hex,
  name: string,
): Promise<Address> {
  const { account } = walletClient;
  const hash = await walletClient.sendTransaction({ account, chain: walletClient.chain, data });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`The ${name} deployment ${hash} reverted`);
  if (!receipt.contractAddress) throw new Error(`The ${name} deployment ${hash} created no contract`);
  return getAddress(receipt.contractAddress);
}

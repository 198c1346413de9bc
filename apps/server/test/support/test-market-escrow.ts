import { CHAIN_ID, PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import type { DevFeed } from '@pm/escrow/deploy-dev-feed';
import { deployMarketEscrow, type MarketEscrowSettings } from '@pm/escrow/deploy-market-escrow';
import { devFeedAggregatorAbi, devFeedProxyAbi } from '@pm/escrow/dev-feeds.gen';
import { decodeMarketDeposits } from '@pm/escrow/market-deposits/decode-market-deposits';
import {
  type MarketDeposit,
  marketDepositCall,
  type StakeRef,
} from '@pm/escrow/market-deposits/market-deposit';
import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import { MARKET_OUTCOME } from '@pm/escrow/market-settlement';
import { buildPayoutTree, type Payout, type PayoutTree } from '@pm/escrow/payout-tree';
import { type Hash, type Hex, keccak256, parseEventLogs, toHex } from 'viem';
import { createChainClient, createChainWallet } from '../../src/chain/chain-client.ts';
import { loadConfig } from '../../src/config/config.ts';
import { DEV_ESCROW_ROLES, DEV_FEED_WRITER, DEV_OPERATOR } from '../../src/config/dev-accounts.ts';
import { deployDevFeeds } from '../../src/dev/dev-feeds.ts';
import { type DevMarketEscrowConfig, devMarketEscrowSettings } from '../../src/dev/dev-market-escrow.ts';
import type { TestChain } from './test-chain.ts';

// MarketEscrow (docs/decisions/031, 034) on a server test's chain, as `npm start` will have it: the dev
// feeds (one per coin of PRICE_SYMBOLS, in that order: a coin's index is its feed's), the escrow deployed
// by the dev admin with the server's key as its operator and the dev guardian and treasury (accounts no
// test pays from), the price kinds' fees and price age the server's config has; and what a test does on
// it: publish a coin's price as the feed's node does, bet from a player's wallet as the web does, and
// post a judged settlement as the operator key does.

type Wallet = TestChain['players'][number];

/** A price a feed published: its round id through the proxy, its answer (8 decimals), its block time. */
export type PublishedPrice = { roundId: bigint; answer: bigint; updatedAt: number };

/** A deposit's stake, as its `Deposited` event names it, and the transaction that made it. */
export type PlacedStake = StakeRef & { txHash: Hash; blockNumber: bigint };

/** The server's settings the deployment takes: the fees (ORACLE_FEE_BPS, MARKET_FEE_BPS) and ORACLE_MAX_AGE_S. */
export type MarketEscrowConfig = DevMarketEscrowConfig;

/**
 * Deploys the dev feeds and MarketEscrow on `chain` (a fresh one: the feeds' addresses follow from the
 * feed writer's first nonces). The round fee is `config.fees.oracleBps`, the price market fee
 * `config.fees.marketBps`, the price age `config.prices.maxAgeS`: a test app's config, or the server's
 * defaults. The roles and the judged markets' limits are the dev ones (src/dev/dev-market-escrow.ts), as
 * `npm start` deploys it.
 */
export async function deployTestMarketEscrow(
  chain: TestChain,
  config: MarketEscrowConfig = loadConfig({ RPC_URL: chain.rpcUrl }),
) {
  const settingsOfChain = { id: CHAIN_ID.local, rpcUrl: chain.rpcUrl };
  const feedsBySymbol = await deployDevFeeds(chain.rpcUrl);
  const feeds = PRICE_SYMBOLS.map((symbol) => {
    const feed = feedsBySymbol.get(symbol);
    if (!feed) throw new Error(`no dev feed for ${symbol}`);
    return feed;
  });
  const settings: MarketEscrowSettings = devMarketEscrowSettings(feedsBySymbol, config);
  const deployed = await deployMarketEscrow(
    createChainWallet(settingsOfChain, DEV_ESCROW_ROLES.admin.privateKey),
    chain.publicClient,
    settings,
  );
  const address = deployed.address;
  const writer = createChainWallet(settingsOfChain, DEV_FEED_WRITER.privateKey);
  const reader = createChainClient({ ...settingsOfChain, rpcBatchSize: 1 });
  const operator = createChainWallet(settingsOfChain, DEV_OPERATOR.privateKey);

  const feedOf = (symbol: PriceSymbol): DevFeed => {
    const feed = feeds[coinOf(symbol)];
    if (!feed) throw new Error(`no dev feed for ${symbol}`);
    return feed;
  };

  const mined = async (hash: Hash) => {
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };

  /** `wallet` pays `amount` wei into the escrow for `deposit`, as the web has a wallet sign it. */
  async function place(wallet: Wallet, deposit: MarketDeposit, amount: bigint): Promise<PlacedStake> {
    const call = marketDepositCall(address, deposit, amount);
    const receipt = await mined(
      await wallet.sendTransaction({
        account: wallet.account,
        to: call.to,
        value: call.value,
        data: call.data,
      }),
    );
    const [event] = decodeMarketDeposits(address, receipt.logs);
    if (!event) throw new Error(`no deposit in ${receipt.transactionHash}`);
    return {
      stakeId: event.stakeId,
      owner: event.owner,
      market: event.market,
      amount: event.amount,
      side: event.side,
      txHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber,
    };
  }

  return {
    address,
    /** The deployment's block: where reading the escrow's events starts. */
    deployBlock: deployed.blockNumber,
    /** Each coin's feed, by coin index (PRICE_SYMBOLS' order). */
    feeds,
    settings,
    coinOf,
    feedOf,

    /**
     * Publishes `answer` (8 decimals) as `symbol`'s next round, from the feed writer (the only account
     * its aggregator takes), in the next block, mined at `at` (unix seconds) when given.
     */
    async publishPrice(symbol: PriceSymbol, answer: bigint, at?: number): Promise<PublishedPrice> {
      const feed = feedOf(symbol);
      if (at !== undefined) await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(at) });
      const aggregator = await reader.readContract({
        address: feed.proxy,
        abi: devFeedProxyAbi,
        functionName: 'aggregator',
      });
      const receipt = await mined(
        await writer.writeContract({
          address: aggregator,
          abi: devFeedAggregatorAbi,
          functionName: 'publish',
          args: [answer],
        }),
      );
      const [roundId, published, , updatedAt] = await reader.readContract({
        address: feed.proxy,
        abi: devFeedProxyAbi,
        functionName: 'latestRoundData',
        blockNumber: receipt.blockNumber,
      });
      return { roundId, answer: published, updatedAt: Number(updatedAt) };
    },

    /** A bet on `symbol`'s round from `lockAt` to `closeAt` (unix seconds); the first one opens it. */
    betRound(
      wallet: Wallet,
      round: { symbol: PriceSymbol; lockAt: number; closeAt: number; side: 'UP' | 'DOWN' },
      amount: bigint,
    ): Promise<PlacedStake> {
      const { symbol, ...terms } = round;
      return place(wallet, { kind: 'round', coin: coinOf(symbol), ...terms }, amount);
    },

    /** A price market's creation with its first bet; `target` in the feed's units (8 decimals). */
    createPriceMarket(
      wallet: Wallet,
      market: {
        id: Hex;
        symbol: PriceSymbol;
        target: bigint;
        above: boolean;
        closesAt: number;
        side: 'YES' | 'NO';
      },
      amount: bigint,
    ): Promise<PlacedStake> {
      const { symbol, ...terms } = market;
      return place(wallet, { kind: 'createPriceMarket', coin: coinOf(symbol), ...terms }, amount);
    },

    /** A judged market's creation with its first bet, as the web creates one; its key is the stake's market. */
    createJudgedMarket(
      wallet: Wallet,
      market: { id: Hex; closesAt: number; contentHash: Hex; side: 'YES' | 'NO' },
      amount: bigint,
    ): Promise<PlacedStake> {
      return place(wallet, { kind: 'createJudgedMarket', ...market }, amount);
    },

    /**
     * The operator key posts a judged market's settlement: this list's root and total, the rest of the
     * pool as the fee, payouts opening `delay` seconds on (the dev escrow's least by default). Honest or
     * not: the list is the caller's.
     */
    async settleJudged(
      key: Hex,
      payouts: readonly Payout[],
      options: { outcome: 'YES' | 'NO' | 'VOID'; delay?: number },
    ): Promise<{ tree: PayoutTree; claimableAt: bigint; blockNumber: bigint }> {
      const tree = buildPayoutTree(payouts);
      const [pool] = await reader.readContract({
        address,
        abi: marketEscrowAbi,
        functionName: 'markets',
        args: [key],
      });
      const receipt = await mined(
        await operator.writeContract({
          address,
          abi: marketEscrowAbi,
          functionName: 'settle',
          args: [
            key,
            MARKET_OUTCOME[options.outcome],
            keccak256(toHex(`verdict of ${key}`)),
            tree.root,
            tree.total,
            pool - tree.total,
            options.delay ?? settings.minPayoutDelay,
          ],
        }),
      );
      const [settled] = parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Settled' });
      if (!settled) throw new Error(`no Settled in ${receipt.transactionHash}`);
      return { tree, claimableAt: settled.args.claimableAt, blockNumber: receipt.blockNumber };
    },

    /** A bet into an open market or round by its key (a round's YES is UP, NO is DOWN). */
    bet(wallet: Wallet, market: Hex, side: 'YES' | 'NO', amount: bigint): Promise<PlacedStake> {
      return place(wallet, { kind: 'bet', market, side }, amount);
    },
  };
}

export type TestMarketEscrow = Awaited<ReturnType<typeof deployTestMarketEscrow>>;

/** A coin's index on the escrow: its place in PRICE_SYMBOLS, as the deployment's feeds are ordered. */
export function coinOf(symbol: PriceSymbol): number {
  const index = PRICE_SYMBOLS.indexOf(symbol);
  if (index < 0) throw new Error(`no coin ${symbol}`);
  return index;
}

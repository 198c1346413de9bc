import type { FastifyBaseLogger } from 'fastify';
import { createPublicClient, http } from 'viem';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createCoinFeeds } from './create-coin-feeds.ts';
import { createDevFeedWriter } from './dev-feed-writer.ts';
import { registerPriceRoutes } from './price-routes.ts';
import { createPriceSampler } from './price-sampler.ts';
import { latestPriceSample } from './price-samples-repository.ts';

/**
 * Every coin's USD price (docs/architecture.md "Oracle rounds", docs/decisions/020): the feeds chosen
 * by PRICE_FEED, one sampler job that stores a reading per coin and publishes `prices`, and the read
 * endpoints. The oracle game (BNB) and price markets (every coin) both read the stored samples.
 */
export function createPricesModule(deps: AppDeps, logger: FastifyBaseLogger) {
  const { config, clock } = deps;
  const coins = createCoinFeeds({
    config,
    clock,
    // The aggregators are read through a client of their own on CHAINLINK_RPC_URL (required off the
    // local chain), never batched with the payment client's calls: a flood
    // of payment checks cannot delay or starve a price reading, nor the engine's recovery of one.
    // The aggregators may live on another chain than the deployment (mainnet prices for testnet).
    chainlinkClient: () =>
      createPublicClient({
        transport: http(config.prices.chainlinkRpcUrl, { timeout: 5_000, batch: false }),
      }),
  });
  const sampler = createPriceSampler({ db: deps.database.db, feeds: coins.feeds, clock, logger });
  // bnbpredict_oracle_price_age_seconds: each coin's latest sample, by the feed's own time.
  deps.metrics.observePriceTimes(async () => {
    const symbols = [...coins.feeds.keys()];
    const latest = await Promise.all(
      symbols.map((symbol) => latestPriceSample(deps.database.db, sampler.source, symbol)),
    );
    return new Map(symbols.map((symbol, index) => [symbol, latest[index]?.updatedAt ?? null]));
  });
  // The local chain's own feeds (npm start deploys them): the walk published as their rounds.
  const { devFeedWriterKey } = config.prices;
  const devFeedWriter =
    config.chain.isLocal && coins.source === 'chainlink' && devFeedWriterKey
      ? createDevFeedWriter({
          rpcUrl: config.prices.chainlinkRpcUrl,
          privateKey: devFeedWriterKey,
          proxies: config.prices.chainlinkAddresses,
          clock,
          logger,
        })
      : undefined;
  const routes: AppFeature = (app) => registerPriceRoutes(app, deps, { coins, sampler, devFeedWriter });
  const jobs: Job[] = [sampler.job, ...(devFeedWriter ? [devFeedWriter.job] : [])];
  return {
    source: coins.source,
    coins,
    sampler,
    routes,
    jobs,
    /**
     * Start-up check on a real feed (decision 020): each coin is read once and logged as usable or
     * not (Chainlink: 8 decimals and a round within ORACLE_MAX_AGE_S). A coin that fails is not
     * refused at start-up: it simply has no fresh sample, so it reads as PRICE_UNAVAILABLE and no
     * price market on it can be created, until its feed answers; the other coins go on.
     */
    async checkFeeds(): Promise<Record<string, 'ok' | string>> {
      const report: Record<string, string> = {};
      if (coins.source !== 'chainlink') return report;
      await Promise.all(
        [...coins.feeds].map(async ([symbol, feed]) => {
          try {
            await feed.read();
            report[symbol] = 'ok';
          } catch (error) {
            report[symbol] = error instanceof Error ? error.message : String(error);
          }
        }),
      );
      const unavailable = Object.entries(report).filter(([, status]) => status !== 'ok');
      if (unavailable.length > 0)
        logger.error(
          { source: coins.source, unavailable: Object.fromEntries(unavailable) },
          'price feeds unavailable at start-up',
        );
      else logger.info({ source: coins.source }, 'every coin has a usable price feed');
      return report;
    },
  };
}

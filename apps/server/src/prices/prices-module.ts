import type { FastifyBaseLogger } from 'fastify';
import { createPublicClient, http } from 'viem';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createChainlinkFeed } from './chainlink-feed.ts';
import type { PriceFeed } from './price-feed.ts';
import { registerPriceRoutes } from './price-routes.ts';
import { createPriceSampler } from './price-sampler.ts';
import { createSimulatedFeed, type SimulatedFeed } from './simulated-feed.ts';
import { createTickerFeed } from './ticker-feed.ts';

/**
 * The BNB/USD price (docs/architecture.md "Oracle rounds"): the feed chosen by PRICE_FEED, a sampler job that
 * stores readings and publishes `prices`, and the read endpoints.
 */
export function createPricesModule(deps: AppDeps, logger: FastifyBaseLogger) {
  const { config, clock } = deps;
  let simulated: SimulatedFeed | null = null;
  let feed: PriceFeed;
  switch (config.prices.feed) {
    case 'chainlink': {
      // The aggregator may live on another chain than the deployment (say, mainnet prices for a
      // testnet deployment): read it through its own RPC when CHAINLINK_RPC_URL says so.
      const client =
        config.prices.chainlinkRpcUrl === config.chain.rpcUrl
          ? deps.chain
          : createPublicClient({ transport: http(config.prices.chainlinkRpcUrl, { timeout: 5_000 }) });
      feed = createChainlinkFeed({
        client,
        address: config.prices.chainlinkAddress,
        maxAgeS: config.prices.maxAgeS,
        clock,
      });
      break;
    }
    case 'ticker':
      feed = createTickerFeed({ url: config.prices.tickerUrl, clock });
      break;
    case 'simulated':
      simulated = createSimulatedFeed({ clock });
      feed = simulated;
      break;
  }
  const sampler = createPriceSampler({ db: deps.database.db, feed, clock, logger });
  const routes: AppFeature = (app) => registerPriceRoutes(app, deps, { feed, sampler, simulated });
  const jobs: Job[] = [sampler.job];
  return { feed, sampler, simulated, routes, jobs };
}

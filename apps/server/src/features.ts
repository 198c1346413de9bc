import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from './app-deps.ts';
import { claimableBetViews } from './claimable-bet-views.ts';
import { registerClaimsRoutes } from './escrow/claims/claims-routes.ts';
import { createEscrowReconciliationJob } from './escrow/deposits/reconcile-escrow-job.ts';
import { createEscrowModule } from './escrow/escrow-module.ts';
import { createMarketFatesJob } from './escrow/market-fates/market-fates-job.ts';
import { registerHistoryRoutes } from './history/history-routes.ts';
import type { Job } from './jobs/job-runner.ts';
import { registerLeaderboardRoutes } from './leaderboard/leaderboard-routes.ts';
import { createMarketsModule } from './markets/markets-module.ts';
import { registerOperatorRoutes } from './operators/operator-routes.ts';
import { createOracleModule } from './oracle/oracle-module.ts';
import { refundRoundOnEscrowFate } from './oracle/refund-on-escrow-fate.ts';
import { createPendingPaymentsJob } from './payments/pending-payments-job.ts';
import { createPriceMarketsModule } from './price-markets/price-markets-module.ts';
import { createPricesModule } from './prices/prices-module.ts';
import { createPruneOutboxJob } from './realtime/prune-outbox-job.ts';
import { refundMarketOnEscrowFate } from './settlement/refund-on-escrow-fate.ts';
import { createSettlementModule } from './settlement/settlement-module.ts';
import { createSolvencyModule } from './solvency/solvency-module.ts';
import { registerSystemRoutes } from './system/system-routes.ts';

export type Features = {
  routes: AppFeature[];
  jobs: Job[];
  /** Demo content for `npm start` on an empty database (DEMO_DATA=true). */
  seedDemoData?: () => Promise<void>;
  stop?: () => Promise<void>;
};

/**
 * The product's capabilities, each a module with its routes and background jobs
 * (markets, oracle, claims, …). One place to see what the server runs.
 */
export function createFeatures(deps: AppDeps, logger: FastifyBaseLogger): Features {
  // The escrow contract (decision 026): GET /api/vault, payout lists, and the operator key's
  // sender, settlements and relayed claims (POST /api/claims).
  const escrow = createEscrowModule(deps, logger);
  const prices = createPricesModule(deps, logger);
  const priceMarkets = createPriceMarketsModule(deps, logger, {
    source: prices.source,
    feedLabel: prices.coins.feedLabel,
    feeds: prices.coins.feeds,
  });
  const settlement = createSettlementModule(deps, logger);
  const markets = createMarketsModule(deps, logger, {
    createPriceMarket: priceMarkets.createPriceMarket,
    readResolutionRecord: settlement.readResolutionRecord,
  });
  const oracle = createOracleModule(deps, logger, {
    priceSource: prices.source,
    feed: prices.coins.feeds.get('BNB'),
  });
  const solvency = createSolvencyModule(deps, logger);
  // A real feed is checked once at start-up: a coin that does not answer is logged and stays
  // unavailable until it does (decision 020).
  if (deps.config.prices.feed === 'chainlink' && deps.config.jobs) void prices.checkFeeds().catch(() => {});
  // How each kind of payment is recorded when no browser request is at hand: a 202 replayed once final.
  const paymentHandlers = {
    oracle_bet: oracle.pendingPaymentHandler,
    ...markets.paymentHandlers,
    ...settlement.paymentHandlers,
  };
  const pendingPayments = createPendingPaymentsJob({
    db: deps.database.db,
    clock: deps.clock,
    logger,
    handlers: paymentHandlers,
    expiryS: deps.config.chain.pendingPaymentExpiryS,
  });
  // Every deposit into the escrow, posted or not (decision 026); refused ones are given back through
  // the operator key's sender (the escrow module's).
  const escrowAddress = deps.config.escrow.address;
  const escrowReconciliation = escrowAddress
    ? [
        createEscrowReconciliationJob({
          db: deps.database.db,
          chain: deps.chain,
          chainId: deps.config.chain.id,
          escrowAddress,
          confirmations: deps.config.chain.confirmations,
          clock: deps.clock,
          logger,
          rounds: oracle.roundDeposits,
          markets: markets.deposits,
          sender: escrow.sender,
          startFrom: deps.config.escrow.deployBlock,
          metrics: deps.metrics,
        }),
      ]
    : [];
  // The escrow's own refunds of a market (a guardian's veto, an escape: docs/architecture.md
  // "Following the chain"), shown by the rooms that own markets and rounds.
  const marketFates = escrowAddress
    ? [
        createMarketFatesJob({
          db: deps.database.db,
          chain: deps.chain,
          chainId: deps.config.chain.id,
          escrow: escrowAddress,
          confirmations: deps.config.chain.confirmations,
          now: () => deps.clock.now(),
          log: logger,
          handlers: { refundMarket: refundMarketOnEscrowFate, refundRound: refundRoundOnEscrowFate },
          startFrom: deps.config.escrow.deployBlock,
          metrics: deps.metrics,
        }),
      ]
    : [];
  return {
    routes: [
      registerSystemRoutes,
      registerLeaderboardRoutes,
      registerHistoryRoutes,
      (app) => registerClaimsRoutes(app, deps, escrow.claims, claimableBetViews),
      escrow.routes,
      prices.routes,
      registerOperatorRoutes,
      oracle.routes,
      markets.routes,
      settlement.routes,
      solvency.routes,
    ],
    // The sampler runs before the round engine, so a tick finds the sample of its own instant.
    jobs: [
      ...prices.jobs,
      ...oracle.jobs,
      pendingPayments,
      ...escrowReconciliation,
      // After the round engine, which makes a round's settlement due, and after escrow reconciliation:
      // the sender in it sends what they asked for in the same round.
      ...escrow.jobs,
      ...marketFates,
      ...settlement.jobs,
      // After the settlement job, which moves a price market to settling at its deadline.
      ...priceMarkets.jobs,
      createPruneOutboxJob(deps.database.db),
      // Last: it reads what every job before it changed.
      ...solvency.jobs,
    ],
    seedDemoData: () => markets.seedDemoData(),
  };
}

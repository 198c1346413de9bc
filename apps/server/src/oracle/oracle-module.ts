import { PlaceOracleBetBodySchema } from '@pm/core/contract/oracle';
import { roundMarketId } from '@pm/escrow/deposit-terms';
import { MAX_BETTING_PERIOD } from '@pm/escrow/escrow-constants';
import { marketKey } from '@pm/escrow/market-key';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from '../app-deps.ts';
import type { RoundDeposits } from '../escrow/deposits/reconcile-escrow-job.ts';
import type { Job } from '../jobs/job-runner.ts';
import { createPaymentContext } from '../payments/create-payment-context.ts';
import type { PendingPaymentHandler } from '../payments/pending-payments-job.ts';
import type { PriceFeed, PriceSource } from '../prices/price-feed.ts';
import { listRoundLocksBetween } from './oracle-repository.ts';
import { registerOracleRoutes } from './oracle-routes.ts';
import { createOracleService } from './oracle-service.ts';
import { lockSeconds } from './place-oracle-bet.ts';
import { createRoundEngine } from './round-engine.ts';

/**
 * BNB UP/DOWN rounds (docs/decisions/004): the round engine job, the rounds and bets endpoints, the
 * signed operator actions, the replay of bets whose payment was not final yet ('oracle_bet'), and the
 * recording of round deposits escrow reconciliation finds unposted.
 */
export function createOracleModule(
  deps: AppDeps,
  logger: FastifyBaseLogger,
  options: { priceSource: PriceSource; feed: PriceFeed | undefined },
) {
  const { config, database, clock } = deps;
  const engine = createRoundEngine({
    db: database.db,
    clock,
    timings: config.rounds,
    feeBps: config.fees.oracleBps,
    maxAgeS: config.prices.maxAgeS,
    priceSource: options.priceSource,
    // `npm start` on the local chain shows live rounds with no operator step (docs/decisions).
    autoGenesis: config.chain.isLocal,
    logger,
    metrics: deps.metrics,
    // Asked for its own round at a lock or close the samples missed, so starving the sampler voids
    // no round; for at most ORACLE_FEED_WAIT_S while it cannot be asked.
    recovery: options.feed && { feed: options.feed, waitS: config.prices.feedWaitS },
    // Rounds with stakes on the escrow settle there (decision 026).
    ...(config.escrow.address
      ? { escrow: { chainId: config.chain.id, address: config.escrow.address } }
      : {}),
  });
  const service = createOracleService({ payments: createPaymentContext(deps), clock });
  const routes: AppFeature = (app) => registerOracleRoutes(app, deps, { service, engine });
  const jobs: Job[] = [engine.job];
  const pendingPaymentHandler: PendingPaymentHandler = async (request) => {
    const outcome = await service.placeBet(PlaceOracleBetBodySchema.parse(request));
    return outcome.status;
  };
  // Round deposits nobody posted, as escrow reconciliation finds them (decision 026).
  const roundDeposits: RoundDeposits = {
    async epochOfKey(key, blockTime) {
      const until = new Date(blockTime.getTime() + Number(MAX_BETTING_PERIOD) * 1000);
      const rounds = await listRoundLocksBetween(database.db, blockTime, until);
      const wanted = key.toLowerCase();
      const round = rounds.find(
        (each) => marketKey(roundMarketId(each.epoch), lockSeconds(each.lockTime)).toLowerCase() === wanted,
      );
      return round?.epoch ?? null;
    },
    async record(body, stakeId) {
      return (await service.placeBet(body, { stakeId })).status;
    },
  };
  return { engine, service, routes, jobs, pendingPaymentHandler, roundDeposits };
}

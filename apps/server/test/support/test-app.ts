import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { PublicClient } from 'viem';
import { createApp } from '../../src/app.ts';
import type { AppDeps } from '../../src/app-deps.ts';
import { createChainClock } from '../../src/chain/clock.ts';
import { loadConfig } from '../../src/config/config.ts';
import { deployDevEscrow } from '../../src/dev/dev-escrow.ts';
import { findFreePort } from '../../src/dev/local-chain.ts';
import { createFeatures } from '../../src/features.ts';
import { createJobRunner } from '../../src/jobs/job-runner.ts';
import { createMetrics } from '../../src/metrics/metrics.ts';
import { startMetricsListener } from '../../src/metrics/metrics-server.ts';
import { startTestChain } from './test-chain.ts';
import { openTestDatabase } from './test-database.ts';

/**
 * The whole server for an integration test file: a real Hardhat node, a real database (PGlite, or
 * PostgreSQL under TEST_DB=postgres), the real app with every feature, driven with `app.inject`.
 * Jobs do not run on their own: a test calls `runJobs()` to move the world one step.
 * The server clock follows chain time, so `advanceTime` moves deadlines for both (a test may set it
 * ahead of the chain's: setServerClockAhead). A test that
 * needs what the server logs (the fuzz suite reads the stack of each 5xx) passes its own logger.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: {
    /** The server's RPC client, given the node's URL (e.g. one with faults at hand); default a plain one. */
    chainClient?: (rpcUrl: string) => PublicClient;
    logger?: FastifyBaseLogger;
    /** The app's reserves callback, as the metrics would pass it. */
    onReserves?: AppDeps['onReserves'];
    /**
     * Deploy the dev escrow (decision 026 "The chain": the server's key its operator) and give its
     * address as ESCROW_ADDRESS, as `npm start` does; default true. False: a server with no escrow.
     */
    escrow?: boolean;
  } = {},
) {
  const chain = await startTestChain();
  const database = await openTestDatabase();
  const deployed =
    env.ESCROW_ADDRESS !== undefined || options.escrow === false
      ? undefined
      : await deployDevEscrow(chain.rpcUrl);
  const escrowAddress = env.ESCROW_ADDRESS ?? deployed?.address;
  const config = loadConfig({
    ...(escrowAddress ? { ESCROW_ADDRESS: escrowAddress } : {}),
    // As `vault:deploy` prints it and `npm start` passes it: reading the escrow starts there.
    ...(deployed ? { ESCROW_DEPLOY_BLOCK: String(deployed.blockNumber) } : {}),
    RPC_URL: chain.rpcUrl,
    LOG_LEVEL: 'silent',
    JOBS: 'false',
    PAYMENT_WAIT_MS: '3000',
    // Today's settle-at-once unless a test is about the review window (review-window.test.ts).
    RESOLUTION_REVIEW_WINDOW_S: '0',
    // Tests change rows behind the API's back and run jobs, then read at once: the response cache
    // (decision 017) is tested on its own, in response-cache.test.ts.
    RESPONSE_CACHE_MS: '0',
    // Likewise the wallet read cache (decision 032): its changes arrive by NOTIFY, a few ms after a
    // commit on PostgreSQL; wallet-read-cache.test.ts and multi-instance.test.ts run it on.
    WALLET_READ_CACHE_MS: process.env.TEST_WALLET_READ_CACHE_MS ?? '0',
    ...env,
  });
  const chainClock = createChainClock(chain.testClient);
  await chainClock.sync();
  // The server's clock ahead of the chain's by this much (setServerClockAhead): two clocks apart.
  let aheadMs = 0;
  const clock = {
    now: () => new Date(chainClock.now().getTime() + aheadMs),
    sync: chainClock.sync,
  };
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const deps: AppDeps = {
    config,
    database,
    chain: options.chainClient?.(chain.rpcUrl) ?? chain.publicClient,
    clock,
    // Its own registry; no listener unless a test starts one (metrics.test.ts).
    metrics: createMetrics({ now: () => clock.now() }),
    ...(options.onReserves ? { onReserves: options.onReserves } : {}),
  };
  const features = createFeatures(deps, logger);
  const app = await createApp(deps, { logger, features: features.routes, rateLimitPerMinute: 100_000 });
  await app.ready();
  const jobs = createJobRunner(features.jobs, logger, deps.metrics);
  return {
    app,
    chain,
    database,
    db: database.db,
    config,
    clock,
    metrics: deps.metrics,
    features,
    deps,
    /** Runs every background job once, in order. */
    runJobs: () => jobs.runOnce(),
    /** The background job called `name` (to run one alone); throws when the server has none. */
    job(name: string) {
      const found = features.jobs.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`the server runs no ${name} job`);
      return found;
    },
    async advanceTime(seconds: number) {
      await chain.advanceTime(seconds);
      await clock.sync();
    },
    /** Moves the server's clock alone `seconds` ahead of the chain's (0: back with it), as a skewed host's is. */
    setServerClockAhead(seconds: number) {
      aheadMs = seconds * 1000;
    },
    async close() {
      await app.close();
      await features.stop?.();
      await database.close();
      await chain.stop();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/** A metrics listener of `t`'s registry on a free loopback port, as METRICS_PORT opens one; the caller closes it. */
export async function listenForMetrics(t: TestApp) {
  const started = await startMetricsListener({ host: '127.0.0.1', port: await findFreePort() }, t.metrics);
  if (!started) throw new Error('a listener was asked for');
  return started;
}

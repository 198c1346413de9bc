import './runtime/require-supported-node.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestClient, http } from 'viem';
import { createApp } from './app.ts';
import { createChainClient } from './chain/chain-client.ts';
import { type Clock, createChainClock, systemClock } from './chain/clock.ts';
import { loadConfigOrExit } from './config/load-config-or-exit.ts';
import { createLogger, redactUrl } from './config/logger.ts';
import { DataFolderHeldError } from './db/data-folder-lock.ts';
import { openConfiguredDatabase } from './db/open-configured-database.ts';
import { createFeatures } from './features.ts';
import { createJobRunner } from './jobs/job-runner.ts';
import { createMetrics } from './metrics/metrics.ts';
import { startMetricsListener } from './metrics/metrics-server.ts';

// Start-up: parse the environment once, wire the dependencies, listen, and shut down gracefully.

async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config);
  const database = await openConfiguredDatabase(config.database).catch((error: unknown) => {
    // PGlite's files are one process's (decision 033): a second server on them stops at once.
    if (!(error instanceof DataFolderHeldError)) throw error;
    logger.fatal(
      `cannot start: ${error.message} (DATA_DIR): stop it first, or give this one another DATA_DIR`,
    );
    process.exit(75);
  });

  const chain = createChainClient(config.chain);
  const rpcChainId = await chain.getChainId().catch((error: unknown) => {
    logger.fatal({ err: error, rpcUrl: redactUrl(config.chain.rpcUrl) }, 'cannot reach RPC_URL');
    process.exit(1);
  });
  if (rpcChainId !== config.chain.id) {
    logger.fatal(`RPC_URL serves chain ${rpcChainId}, but CHAIN_ID is ${config.chain.id}`);
    process.exit(78);
  }

  let clock: Clock = systemClock;
  let stopClock = () => {};
  if (config.clock === 'chain') {
    const chainClock = createChainClock(
      createTestClient({ mode: 'hardhat', transport: http(config.chain.rpcUrl) }),
    );
    await chainClock.start();
    clock = chainClock;
    stopClock = () => chainClock.stop();
  }

  const metrics = createMetrics({ now: () => clock.now() });
  const deps = {
    config: { ...config, webDist: config.webDist ?? builtWebApp() },
    database,
    chain,
    clock,
    metrics,
  };
  const features = createFeatures(deps, logger);
  const app = await createApp(deps, { logger, features: features.routes });
  const jobs = createJobRunner(features.jobs, logger, metrics);
  // Prometheus scrapes its own listener, never the public port (docs/operations.md "Metrics");
  // it closes with the app. Opened before any job runs, so a taken port stops a start cleanly.
  const metricsListener = await startMetricsListener(config.metrics, metrics, logger).catch(
    (error: unknown) => {
      logger.fatal(
        { err: error },
        `cannot listen for metrics on ${config.metrics.host}:${config.metrics.port} (METRICS_HOST, METRICS_PORT; 0 turns it off)`,
      );
      process.exit(1);
    },
  );
  if (metricsListener) app.addHook('onClose', () => metricsListener.close());
  if (config.demoData) await features.seedDemoData?.();
  if (config.jobs) jobs.start();
  await app.listen({ host: config.host, port: config.port });
  logger.info(
    {
      db: database.kind,
      chainId: config.chain.id,
      escrow: config.escrow.address ?? 'unset',
      priceFeed: config.prices.feed,
      metrics: metricsListener?.url ?? 'off',
    },
    'server ready',
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await jobs.stop();
    await features.stop?.();
    stopClock();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * Without WEB_DIST, the server serves the web app built beside it (apps/web/dist) when there is one:
 * `npm run build && npm run serve` is the whole product on one port.
 */
function builtWebApp(): string | undefined {
  // src/main.ts and dist/main.js both sit one level below apps/server.
  const dir = fileURLToPath(new URL('../../web/dist/', import.meta.url));
  return existsSync(`${dir}index.html`) ? dir : undefined;
}

await main();

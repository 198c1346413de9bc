import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import { type Address, getAddress, type PublicClient } from 'viem';
import { createChainClient, createChainWallet } from '../chain/chain-client.ts';
import type { Config } from '../config/config.ts';
import { type MetricsListener, startMetricsListener } from '../metrics/metrics-server.ts';
import { createGuardianMetrics, type GuardianMetrics } from './guardian-metrics.ts';
import { createGuardianWatch, type GuardianLogger, type GuardianWatch } from './guardian-watch.ts';

// The guardian's watcher as a running loop (docs/operations.md "The guardian's watcher"): what
// `npm run ops -- guardian:watch` runs in its own process, and what a script may start in its own.
// It holds the guardian's key, never the operator's, and reads no database.

/** How often a pass runs: well under the payout delay (60 s at least), a few blocks on BSC. */
export const GUARDIAN_INTERVAL_MS = 2_000;

/** What the watcher cannot start without: its settings, or an escrow whose guardian is not its key. */
export class GuardianWatchRefused extends Error {
  override name = 'GuardianWatchRefused';
}

export type StartGuardianWatchOptions = {
  config: Config;
  logger: GuardianLogger;
  /** Between the end of one pass and the start of the next (default GUARDIAN_INTERVAL_MS). */
  intervalMs?: number;
  /** The watcher's own metrics listener, on config.metrics' host and token; 0 or unset: none. */
  metricsPort?: number;
  /** Most blocks per eth_getLogs request, for RPCs that cap the range. */
  maxBlockRange?: bigint;
  /** The chain read (default: built from config.chain); the vetoes are signed for config.chain. */
  client?: PublicClient;
};

export type RunningGuardianWatch = {
  watch: GuardianWatch;
  metrics: GuardianMetrics;
  escrow: Address;
  guardian: Address;
  fromBlock: bigint;
  /** The metrics listener's URL, if one was asked for. */
  metricsUrl: string | null;
  /** Ends the loop after the pass in flight, and closes the metrics listener. */
  stop(): Promise<void>;
};

/**
 * Checks the settings and that the key is the escrow's guardian (a watcher that cannot veto would
 * watch for nothing), then runs a pass every `intervalMs` until `stop`. A pass never throws: what
 * fails is logged and tried again on the next one.
 */
export async function startGuardianWatch(options: StartGuardianWatchOptions): Promise<RunningGuardianWatch> {
  const { config, logger } = options;
  const settings = config.marketEscrow;
  if (!settings)
    throw new GuardianWatchRefused(
      'MARKET_ESCROW_ADDRESS is not set: the escrow whose settlements it watches.',
    );
  const key = config.escrow.guardianPrivateKey;
  if (!key)
    throw new GuardianWatchRefused(
      "ESCROW_GUARDIAN_PRIVATE_KEY is not set: the watcher vetoes with the guardian's key.",
    );
  const client = options.client ?? createChainClient(config.chain);
  const guardian = createChainWallet(config.chain, key);
  const escrow = getAddress(settings.address);
  const code = await client.getCode({ address: escrow });
  if (!code || code === '0x')
    throw new GuardianWatchRefused(
      `MARKET_ESCROW_ADDRESS ${escrow} has no code on chain ${config.chain.id}.`,
    );
  const role = getAddress(
    await client.readContract({ address: escrow, abi: marketEscrowAbi, functionName: 'guardian' }),
  );
  const signer = getAddress(guardian.account.address);
  if (role !== signer)
    throw new GuardianWatchRefused(
      `ESCROW_GUARDIAN_PRIVATE_KEY is the key of ${signer}, but MarketEscrow ${escrow}'s guardian is ${role}: its vetoes would revert.`,
    );

  const metrics = createGuardianMetrics();
  let listener: MetricsListener | null = null;
  if (options.metricsPort)
    listener = await startMetricsListener(
      { host: config.metrics.host, port: options.metricsPort, token: config.metrics.token },
      metrics,
      logger,
    );
  const watch = createGuardianWatch({
    client,
    guardian,
    escrow,
    deployBlock: settings.deployBlock,
    feeBps: config.fees.marketBps,
    confirmations: config.chain.confirmations,
    ...(options.maxBlockRange === undefined ? {} : { maxBlockRange: options.maxBlockRange }),
    logger,
    metrics,
  });

  const intervalMs = options.intervalMs ?? GUARDIAN_INTERVAL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | null = null;
  const tick = () => {
    inFlight = watch.checkOnce().then(
      () => undefined,
      (error: unknown) => logger.error({ err: error }, 'guardian: a pass failed; the next one runs as usual'),
    );
    void inFlight.finally(() => {
      inFlight = null;
      if (!stopped) timer = setTimeout(tick, intervalMs);
    });
  };
  tick();
  logger.info(
    {
      escrow,
      guardian: signer,
      fromBlock: String(settings.deployBlock),
      feeBps: config.fees.marketBps,
      intervalMs,
      metrics: listener?.url,
    },
    "guardian: watching MarketEscrow's judged settlements",
  );

  return {
    watch,
    metrics,
    escrow,
    guardian: signer,
    fromBlock: settings.deployBlock,
    metricsUrl: listener?.url ?? null,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
      await listener?.close();
    },
  };
}

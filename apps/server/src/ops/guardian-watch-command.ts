import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { createLogger } from '../config/logger.ts';
import {
  GUARDIAN_INTERVAL_MS,
  GuardianWatchRefused,
  startGuardianWatch,
} from '../guardian-watch/start-guardian-watch.ts';
import { type OpsCommand, RefusedError, UsageError } from './ops-commands.ts';

// `npm run ops -- guardian:watch` (docs/operations.md "The guardian's watcher"): the watcher in a process
// of its own, with the guardian's key and no database, until SIGTERM or SIGINT. Its log lines are the
// server's (JSON, secrets blanked); its metrics have a listener of their own.

export type GuardianWatchContext = {
  config: Config;
  out: (line: string) => void;
  /** The log (default: the server's logger on stdout, at LOG_LEVEL). */
  logger?: Logger;
};

/** The watcher's metrics port by default: the server's is METRICS_PORT (9464). */
export const GUARDIAN_METRICS_PORT = 9465;

export const guardianWatchCommand: OpsCommand<GuardianWatchContext> = {
  name: 'guardian:watch',
  usage: 'guardian:watch [--interval-ms N] [--metrics-port N] [--max-block-range N]',
  summary: `Watch MarketEscrow (MARKET_ESCROW_ADDRESS) from MARKET_ESCROW_DEPLOY_BLOCK: recompute every judged settlement and veto one that differs before its payouts open, as the guardian (ESCROW_GUARDIAN_PRIVATE_KEY); runs until SIGTERM; metrics on --metrics-port (default ${GUARDIAN_METRICS_PORT}, 0: none)`,
  options: {
    'interval-ms': { type: 'string' },
    'metrics-port': { type: 'string' },
    'max-block-range': { type: 'string' },
  },
  async run(context, { values, positionals }) {
    if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
    const whole = (name: string, fallback: number, min: number, max: number) => {
      const value = values[name];
      if (value === undefined) return fallback;
      if (typeof value !== 'string' || !/^[0-9]{1,10}$/.test(value) || +value < min || +value > max)
        throw new UsageError(`--${name} takes a whole number from ${min} to ${max}, not '${String(value)}'.`);
      return Number(value);
    };
    const intervalMs = whole('interval-ms', GUARDIAN_INTERVAL_MS, 100, 60_000);
    const metricsPort = whole('metrics-port', GUARDIAN_METRICS_PORT, 0, 65_535);
    const range = values['max-block-range'];
    const maxBlockRange = range === undefined ? undefined : BigInt(whole('max-block-range', 0, 1, 1_000_000));
    const logger = context.logger ?? createLogger(context.config);

    const stopRequested = new Promise<string>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    let running: Awaited<ReturnType<typeof startGuardianWatch>>;
    try {
      running = await startGuardianWatch({
        config: context.config,
        logger,
        intervalMs,
        metricsPort,
        ...(maxBlockRange === undefined ? {} : { maxBlockRange }),
      });
    } catch (error) {
      if (error instanceof GuardianWatchRefused) throw new RefusedError(error.message);
      throw error;
    }
    context.out(
      `Watching MarketEscrow ${running.escrow} from block ${running.fromBlock} as the guardian ${running.guardian}${running.metricsUrl ? `; metrics at ${running.metricsUrl}` : ''}. SIGTERM or Ctrl-C stops it.`,
    );
    const signal = await stopRequested;
    await running.stop();
    context.out(`Stopped on ${signal}: the pass in flight finished.`);
  },
};

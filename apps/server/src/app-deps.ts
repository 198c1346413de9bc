import type { FastifyInstance } from 'fastify';
import type { PublicClient } from 'viem';
import type { Clock } from './chain/clock.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/client.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { ReservesReading } from './solvency/read-reserves.ts';

// What the app is built from, and the shape of a feature that adds routes to it. Kept apart from
// app.ts so feature modules can name these types without importing the app that registers them
// (that import would be a cycle).

export type AppDeps = {
  config: Config;
  database: Database;
  chain: PublicClient;
  clock: Clock;
  /** This app's Prometheus registry and the figures the modules record (docs/operations.md "Metrics"). */
  metrics: Metrics;
  /**
   * Called with each reserves check (`solvency/reserves-job.ts`, docs/architecture.md "Proof of
   * reserves"): the escrow's report at one block, its levels and the operator key's gas balance.
   * Optional: tests listen here.
   */
  onReserves?: (reading: ReservesReading) => void;
};

export type AppFeature = (app: FastifyInstance, deps: AppDeps) => void | Promise<void>;

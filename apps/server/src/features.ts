import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, AppFeature } from './app.ts';
import type { Job } from './jobs/job-runner.ts';

export type Features = {
  routes: AppFeature[];
  jobs: Job[];
  /** Demo content for `npm start` on an empty database (DEMO_DATA=true). */
  seedDemoData?: () => Promise<void>;
  stop?: () => Promise<void>;
};

/**
 * The product's capabilities, each a module with its routes and background jobs
 * (markets, oracle, payouts, …). One place to see what the server runs.
 */
export function createFeatures(_deps: AppDeps, _logger: FastifyBaseLogger): Features {
  return { routes: [], jobs: [] };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../metrics/metrics.ts';

export type Job = {
  name: string;
  intervalMs: number;
  /** Must be safe to run on every instance at once (advisory lock or FOR UPDATE SKIP LOCKED). */
  run(): Promise<void>;
};

/**
 * Runs each job on its own interval, one run at a time per job; an error is logged and the job
 * runs again next tick. `stop` waits for runs in flight, for a graceful shutdown. Every run and
 * every failure is counted (bnbpredict_job_runs_total, bnbpredict_job_failures_total).
 */
export function createJobRunner(
  jobs: Job[],
  logger: FastifyBaseLogger,
  metrics?: Pick<Metrics, 'countJobRun'>,
) {
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = true;

  const runCounted = async (job: Job) => {
    try {
      await job.run();
      metrics?.countJobRun(job.name, 'ok');
    } catch (error) {
      metrics?.countJobRun(job.name, 'failed');
      throw error;
    }
  };

  const schedule = (job: Job, delayMs: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      const run = runCounted(job)
        .catch((error: unknown) => logger.error({ err: error, job: job.name }, 'job failed'))
        .finally(() => {
          running.delete(run);
          schedule(job, job.intervalMs);
        });
      running.add(run);
    }, delayMs);
    timers.set(job.name, timer);
  };

  return {
    start() {
      stopped = false;
      for (const job of jobs) schedule(job, 0);
    },
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.allSettled([...running]);
    },
    /** Runs every job once now, in order (tests and the ops CLI). */
    async runOnce() {
      for (const job of jobs) await runCounted(job);
    },
  };
}

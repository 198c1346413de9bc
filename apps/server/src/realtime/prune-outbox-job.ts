import type { Db } from '../db/client.ts';
import type { Job } from '../jobs/job-runner.ts';
import { pruneOutbox } from './outbox-repository.ts';

/**
 * The outbox only has to outlive its NOTIFY (delivered at commit); prices alone add a row every
 * 2 s. Rows older than ten minutes are deleted. Safe on every instance: a delete is idempotent.
 */
export function createPruneOutboxJob(db: Db, keepMinutes = 10): Job {
  return {
    name: 'prune-outbox',
    intervalMs: 60_000,
    async run() {
      await pruneOutbox(db, keepMinutes);
    },
  };
}

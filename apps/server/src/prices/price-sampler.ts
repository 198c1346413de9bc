import { formatUsdPrice } from '@pm/core/price';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../chain/clock.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import type { Job } from '../jobs/job-runner.ts';
import { publish } from '../realtime/publish.ts';
import { type PriceFeed, PriceFeedError, type PriceReading } from './price-feed.ts';
import { insertPriceSample, latestPriceSample, pruneOldPriceSamples } from './price-samples.ts';

/** A new sample every 2 s: the spec's price refresh is 3 s (§9), and a lock or close price is then at most 2 s old. */
export const SAMPLE_EVERY_MS = 2_000;
const SAMPLER_LOCK_KEY = 8_173_201;
const KEEP_SAMPLES_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const WARN_EVERY_MS = 60_000;

/**
 * Reads the feed and stores a sample, at most one per SAMPLE_EVERY_MS across every instance: each
 * instance skips when a recent sample exists, and the insert runs under a try-advisory-lock that
 * re-checks it (the upstream read itself happens outside any transaction, so a slow feed never
 * holds the database). Each stored sample publishes `prices` carrying it.
 */
export function createPriceSampler(deps: {
  db: Db;
  feed: PriceFeed & { resumeFrom?: (price: bigint) => void };
  clock: Clock;
  logger: FastifyBaseLogger;
  everyMs?: number;
}) {
  const everyMs = deps.everyMs ?? SAMPLE_EVERY_MS;
  // A little slack so a tick that comes a few ms early does not skip a whole interval.
  const minGapMs = everyMs - Math.min(250, everyMs / 4);
  let lastPrunedAt = 0;
  let lastWarnedAt = 0;
  let resumed = false;

  const isRecent = async (nowMs: number, db: DbOrTx) => {
    const latest = await latestPriceSample(db, deps.feed.source);
    if (!latest) return false;
    const ageMs = nowMs - latest.sampledAt.getTime();
    // A sample "from the future" (the chain clock was reset) does not count as recent.
    return ageMs >= 0 && ageMs < minGapMs;
  };

  const read = async (): Promise<PriceReading | null> => {
    try {
      const reading = await deps.feed.read();
      if (!reading.stale) return reading;
      warn(new PriceFeedError('UNAVAILABLE', 'the feed failed; serving its last good value as stale'));
      return null;
    } catch (error) {
      warn(error);
      return null;
    }
  };

  const warn = (error: unknown) => {
    const nowMs = Date.now();
    if (nowMs - lastWarnedAt < WARN_EVERY_MS) return;
    lastWarnedAt = nowMs;
    deps.logger.warn({ err: error, source: deps.feed.source }, 'price feed reading not usable');
  };

  /** Stores a reading unless another instance stored one within the interval (`force` stores anyway). */
  const store = async (reading: PriceReading, force: boolean): Promise<boolean> =>
    deps.db.transaction(async (tx) => {
      const [lock] = await queryRows(
        tx,
        sql`select pg_try_advisory_xact_lock(${SAMPLER_LOCK_KEY}, hashtext(current_schema())) as locked`,
        z.object({ locked: z.boolean() }),
      );
      if (!lock?.locked && !force) return false;
      const nowMs = deps.clock.now().getTime();
      if (!force && (await isRecent(nowMs, tx))) return false;
      const sampledAt = new Date(nowMs);
      await insertPriceSample(tx, reading, sampledAt);
      // The sample rides along: a page shows it as it comes instead of asking for it (decision 015).
      await publish(tx, {
        topic: 'prices',
        sample: {
          usd: formatUsdPrice(reading.price, 8),
          source: reading.source,
          updatedAt: reading.updatedAt.toISOString(),
          sampledAt: sampledAt.toISOString(),
        },
      });
      if (nowMs - lastPrunedAt > PRUNE_EVERY_MS) {
        lastPrunedAt = nowMs;
        await pruneOldPriceSamples(tx, new Date(nowMs - KEEP_SAMPLES_MS));
      }
      return true;
    });

  const resumeWalk = async () => {
    if (resumed) return;
    resumed = true;
    // The simulated walk goes on from the last price it showed, so a restart does not jump.
    if (!deps.feed.resumeFrom) return;
    const latest = await latestPriceSample(deps.db, deps.feed.source);
    if (latest) deps.feed.resumeFrom(latest.price);
  };

  const job: Job = {
    name: 'price-sampler',
    intervalMs: Math.max(200, Math.floor(everyMs / 4)),
    async run() {
      await resumeWalk();
      if (await isRecent(deps.clock.now().getTime(), deps.db)) return;
      const reading = await read();
      if (reading) await store(reading, false);
    },
  };

  return {
    job,
    /** Reads the feed and stores the sample now, whatever was stored before (dev price control). */
    async sampleNow(): Promise<PriceReading | null> {
      resumed = true;
      const reading = await read();
      if (reading) await store(reading, true);
      return reading;
    },
  };
}

export type PriceSampler = ReturnType<typeof createPriceSampler>;

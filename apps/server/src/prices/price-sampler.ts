import type { PriceSymbol } from '@pm/core/constants';
import { formatUsdPrice } from '@pm/core/price';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import type { Job } from '../jobs/job-runner.ts';
import { publish } from '../realtime/outbox-repository.ts';
import { type PriceFeed, PriceFeedError, type PriceReading } from './price-feed.ts';
import {
  insertPriceSample,
  latestPriceSample,
  latestSampleTimes,
  pruneOldPriceSamples,
  tryLockSampler,
} from './price-samples-repository.ts';

/** A new sample every 2 s: the spec's price refresh is 3 s (§9), and a lock or close price is then at most 2 s old. */
export const SAMPLE_EVERY_MS = 2_000;
const KEEP_SAMPLES_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const WARN_EVERY_MS = 60_000;

export type SampledFeed = PriceFeed & { resumeFrom?: (price: bigint) => void };

/**
 * Reads every coin's feed and stores a sample per coin, at most one per coin per SAMPLE_EVERY_MS
 * across every instance (one sampler for all coins, BNB included: docs/decisions/020): each instance
 * skips a coin with a recent sample, and the insert runs under a try-advisory-lock that re-checks it
 * (the upstream reads happen outside any transaction, in parallel, so a slow feed never holds the
 * database). Each stored sample publishes `prices` carrying it and its symbol. A coin whose feed
 * fails gets no sample: it ages out and reads as unavailable, the others go on.
 */
export function createPriceSampler(deps: {
  db: Db;
  feeds: ReadonlyMap<PriceSymbol, SampledFeed>;
  clock: Clock;
  logger: FastifyBaseLogger;
  everyMs?: number;
}) {
  const everyMs = deps.everyMs ?? SAMPLE_EVERY_MS;
  // A little slack so a tick that comes a few ms early does not skip a whole interval.
  const minGapMs = everyMs - Math.min(250, everyMs / 4);
  const source = [...deps.feeds.values()][0]?.source ?? 'simulated';
  let lastPrunedAt = 0;
  const lastWarnedAt = new Map<PriceSymbol, number>();
  let resumed = false;

  /** The coins without a sample in the last interval. */
  const dueSymbols = async (nowMs: number, db: DbOrTx): Promise<PriceSymbol[]> => {
    const latest = await latestSampleTimes(db, { source, since: new Date(nowMs - minGapMs) });
    return [...deps.feeds.keys()].filter((symbol) => {
      const at = latest.get(symbol);
      if (!at) return true;
      const ageMs = nowMs - at.getTime();
      // A sample "from the future" (the chain clock was reset) does not count as recent.
      return !(ageMs >= 0 && ageMs < minGapMs);
    });
  };

  const read = async (symbol: PriceSymbol): Promise<PriceReading | null> => {
    const feed = deps.feeds.get(symbol);
    if (!feed) return null;
    try {
      const reading = await feed.read();
      if (!reading.stale) return reading;
      warn(
        symbol,
        new PriceFeedError('UNAVAILABLE', 'the feed failed; serving its last good value as stale'),
      );
      return null;
    } catch (error) {
      warn(symbol, error);
      return null;
    }
  };

  const warn = (symbol: PriceSymbol, error: unknown) => {
    const nowMs = Date.now();
    if (nowMs - (lastWarnedAt.get(symbol) ?? 0) < WARN_EVERY_MS) return;
    lastWarnedAt.set(symbol, nowMs);
    deps.logger.warn({ err: error, source, symbol }, 'price feed reading not usable');
  };

  /** Stores readings unless another instance stored them within the interval (`force` stores anyway). */
  const store = async (readings: Array<[PriceSymbol, PriceReading]>, force: boolean): Promise<number> =>
    deps.db.transaction(async (tx) => {
      if (!(await tryLockSampler(tx)) && !force) return 0;
      const nowMs = deps.clock.now().getTime();
      const due = force ? null : new Set(await dueSymbols(nowMs, tx));
      const sampledAt = new Date(nowMs);
      let stored = 0;
      for (const [symbol, reading] of readings) {
        if (due && !due.has(symbol)) continue;
        await insertPriceSample(tx, symbol, reading, sampledAt);
        // The sample rides along: a page shows it as it comes instead of asking for it (decision 015).
        await publish(tx, {
          topic: 'prices',
          sample: {
            symbol,
            usd: formatUsdPrice(reading.price, 8),
            source: reading.source,
            updatedAt: reading.updatedAt.toISOString(),
            sampledAt: sampledAt.toISOString(),
          },
        });
        stored += 1;
      }
      if (nowMs - lastPrunedAt > PRUNE_EVERY_MS) {
        lastPrunedAt = nowMs;
        await pruneOldPriceSamples(tx, new Date(nowMs - KEEP_SAMPLES_MS));
      }
      return stored;
    });

  const readAll = async (symbols: PriceSymbol[]) => {
    const readings = await Promise.all(symbols.map(async (symbol) => [symbol, await read(symbol)] as const));
    return readings.filter((entry): entry is [PriceSymbol, PriceReading] => entry[1] !== null);
  };

  const resumeWalk = async () => {
    if (resumed) return;
    resumed = true;
    // The simulated walks go on from the last price they showed, so a restart does not jump.
    for (const [symbol, feed] of deps.feeds) {
      if (!feed.resumeFrom) continue;
      const latest = await latestPriceSample(deps.db, source, symbol);
      if (latest) feed.resumeFrom(latest.price);
    }
  };

  const job: Job = {
    name: 'price-sampler',
    intervalMs: Math.max(200, Math.floor(everyMs / 4)),
    async run() {
      await resumeWalk();
      const due = await dueSymbols(deps.clock.now().getTime(), deps.db);
      if (due.length === 0) return;
      const readings = await readAll(due);
      if (readings.length > 0) await store(readings, false);
    },
  };

  return {
    job,
    source,
    /** Reads one coin's feed (default BNB) and stores the sample now, whatever was stored before (dev price control). */
    async sampleNow(symbol: PriceSymbol = 'BNB'): Promise<PriceReading | null> {
      resumed = true;
      const reading = await read(symbol);
      if (reading) await store([[symbol, reading]], true);
      return reading;
    },
    /** Reads and stores every coin now (tests and start-up). */
    async sampleAllNow(): Promise<number> {
      resumed = true;
      const readings = await readAll([...deps.feeds.keys()]);
      return readings.length > 0 ? store(readings, true) : 0;
    },
  };
}

export type PriceSampler = ReturnType<typeof createPriceSampler>;

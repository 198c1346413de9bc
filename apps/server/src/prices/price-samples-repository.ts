import type { PriceSymbol } from '@pm/core/constants';
import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx, Tx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { priceSamples } from '../db/schema.ts';
import type { PriceReading, PriceSource } from './price-feed.ts';

// The feed readings the server sampled (table price_samples). Lock and close prices are chosen
// from these, never read live at settlement time, so a late or repeated settlement finds the same
// price and a catch-up after downtime finds none (docs/architecture.md "Oracle rounds").

export type PriceSample = typeof priceSamples.$inferSelect;

const SAMPLER_LOCK_KEY = 8_173_201;

/**
 * Takes the sampler's lock for this transaction if no other instance (on this schema) holds it:
 * one instance stores each interval's samples.
 */
export async function tryLockSampler(tx: Tx): Promise<boolean> {
  const [lock] = await queryRows(
    tx,
    sql`select pg_try_advisory_xact_lock(${SAMPLER_LOCK_KEY}, hashtext(current_schema())) as locked`,
    z.object({ locked: z.boolean() }),
  );
  return lock?.locked ?? false;
}

export async function insertPriceSample(
  db: DbOrTx,
  symbol: PriceSymbol,
  reading: PriceReading,
  sampledAt: Date,
): Promise<void> {
  await db.insert(priceSamples).values({
    source: reading.source,
    symbol,
    price: reading.price,
    feedRoundId: reading.roundId,
    updatedAt: reading.updatedAt,
    sampledAt,
  });
}

/** A coin's latest sample (BNB's when no symbol is given: the oracle game's coin). */
export async function latestPriceSample(
  db: DbOrTx,
  source: PriceSource,
  symbol: PriceSymbol = 'BNB',
): Promise<PriceSample | undefined> {
  const [row] = await db
    .select()
    .from(priceSamples)
    .where(and(eq(priceSamples.symbol, symbol), eq(priceSamples.source, source)))
    .orderBy(desc(priceSamples.sampledAt))
    .limit(1);
  return row;
}

/** The sample taken at or just before `instant`, if one was taken within `withinS` before it. */
export async function priceSampleAt(
  db: DbOrTx,
  input: { source: PriceSource; symbol?: PriceSymbol; instant: Date; withinS: number },
): Promise<PriceSample | undefined> {
  const earliest = new Date(input.instant.getTime() - input.withinS * 1000);
  const [row] = await db
    .select()
    .from(priceSamples)
    .where(
      and(
        eq(priceSamples.symbol, input.symbol ?? 'BNB'),
        eq(priceSamples.source, input.source),
        lte(priceSamples.sampledAt, input.instant),
        gte(priceSamples.sampledAt, earliest),
      ),
    )
    .orderBy(desc(priceSamples.sampledAt))
    .limit(1);
  return row;
}

/**
 * The settlement reading of a price market (decision 020): the first sample taken at or after
 * `deadline` whose feed time (updatedAt) lies within `maxAgeS` of the deadline, either side.
 */
export async function firstFreshSampleAfter(
  db: DbOrTx,
  input: { source: PriceSource; symbol: PriceSymbol; deadline: Date; maxAgeS: number },
): Promise<PriceSample | undefined> {
  const maxAgeMs = input.maxAgeS * 1000;
  const [row] = await db
    .select()
    .from(priceSamples)
    .where(
      and(
        eq(priceSamples.symbol, input.symbol),
        eq(priceSamples.source, input.source),
        gte(priceSamples.sampledAt, input.deadline),
        gte(priceSamples.updatedAt, new Date(input.deadline.getTime() - maxAgeMs)),
        lte(priceSamples.updatedAt, new Date(input.deadline.getTime() + maxAgeMs)),
      ),
    )
    .orderBy(asc(priceSamples.sampledAt), asc(priceSamples.id))
    .limit(1);
  return row;
}

/** When each coin was last sampled, among samples since `since` (the sampler's "is it due" check). */
export async function latestSampleTimes(
  db: DbOrTx,
  input: { source: PriceSource; since: Date },
): Promise<Map<string, Date>> {
  const rows = await queryRows(
    db,
    sql`select symbol, max(sampled_at) as at from price_samples
        where source = ${input.source} and sampled_at >= ${input.since}
        group by symbol`,
    z.object({ symbol: z.string(), at: z.union([z.date(), z.string()]) }),
  );
  return new Map(rows.map((row) => [row.symbol, new Date(row.at)]));
}

const HistoryRowSchema = z.object({ price: z.string(), sampled_at: z.union([z.date(), z.string()]) });

/**
 * Samples since `since`, thinned to the last one of every `bucketS` seconds, oldest first: a chart
 * of the last hour needs ~120 points, not the ~1800 the sampler took.
 */
export async function priceHistory(
  db: DbOrTx,
  input: { source: PriceSource; symbol: PriceSymbol; since: Date; bucketS: number },
): Promise<Array<{ price: bigint; at: Date }>> {
  const rows = await queryRows(
    db,
    sql`select price::text as price, sampled_at from (
          select distinct on (bucket) price, sampled_at from (
            select price, sampled_at, floor(extract(epoch from sampled_at) / ${input.bucketS}) as bucket
            from price_samples
            where symbol = ${input.symbol} and source = ${input.source} and sampled_at >= ${input.since}
          ) bucketed
          order by bucket, sampled_at desc
        ) thinned order by sampled_at`,
    HistoryRowSchema,
  );
  return rows.map((row) => ({ price: BigInt(row.price), at: new Date(row.sampled_at) }));
}

/** Samples are only needed for a while: rounds keep the prices they used. */
export async function pruneOldPriceSamples(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(priceSamples).where(lte(priceSamples.sampledAt, before));
}

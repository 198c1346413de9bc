import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { priceSamples } from '../db/schema.ts';
import type { PriceReading, PriceSource } from './price-feed.ts';

// The feed readings the server sampled (table price_samples). Lock and close prices are chosen
// from these, never read live at settlement time, so a late or repeated settlement finds the same
// price and a catch-up after downtime finds none (docs/architecture.md "Oracle rounds").

export type PriceSample = typeof priceSamples.$inferSelect;

export async function insertPriceSample(db: DbOrTx, reading: PriceReading, sampledAt: Date): Promise<void> {
  await db.insert(priceSamples).values({
    source: reading.source,
    price: reading.price,
    feedRoundId: reading.roundId,
    updatedAt: reading.updatedAt,
    sampledAt,
  });
}

export async function latestPriceSample(db: DbOrTx, source: PriceSource): Promise<PriceSample | undefined> {
  const [row] = await db
    .select()
    .from(priceSamples)
    .where(eq(priceSamples.source, source))
    .orderBy(desc(priceSamples.sampledAt))
    .limit(1);
  return row;
}

/** The sample taken at or just before `instant`, if one was taken within `withinS` before it. */
export async function priceSampleAt(
  db: DbOrTx,
  input: { source: PriceSource; instant: Date; withinS: number },
): Promise<PriceSample | undefined> {
  const earliest = new Date(input.instant.getTime() - input.withinS * 1000);
  const [row] = await db
    .select()
    .from(priceSamples)
    .where(
      and(
        eq(priceSamples.source, input.source),
        lte(priceSamples.sampledAt, input.instant),
        gte(priceSamples.sampledAt, earliest),
      ),
    )
    .orderBy(desc(priceSamples.sampledAt))
    .limit(1);
  return row;
}

const HistoryRowSchema = z.object({ price: z.string(), sampled_at: z.union([z.date(), z.string()]) });

/**
 * Samples since `since`, thinned to the last one of every `bucketS` seconds, oldest first: a chart
 * of the last hour needs ~120 points, not the ~1800 the sampler took.
 */
export async function priceHistory(
  db: DbOrTx,
  input: { source: PriceSource; since: Date; bucketS: number },
): Promise<Array<{ price: bigint; at: Date }>> {
  const rows = await queryRows(
    db,
    sql`select price::text as price, sampled_at from (
          select distinct on (bucket) price, sampled_at from (
            select price, sampled_at, floor(extract(epoch from sampled_at) / ${input.bucketS}) as bucket
            from price_samples
            where source = ${input.source} and sampled_at >= ${input.since}
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

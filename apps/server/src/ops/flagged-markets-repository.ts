import { and, asc, eq, gt, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { marketFlags, markets } from '../db/schema.ts';

// What `ops markets:flagged` reads: proposed verdicts bettors flagged, waiting for an operator.

/** Markets in review with a proposed verdict and at least one flag, the longest-waiting first. */
export async function listFlaggedMarkets(db: DbOrTx) {
  return db
    .select()
    .from(markets)
    .where(and(eq(markets.status, 'settling'), isNotNull(markets.proposedAt), gt(markets.flagCount, 0)))
    .orderBy(asc(markets.reviewEndsAt));
}

/** A market's flags in the order they came. */
export async function listMarketFlags(db: DbOrTx, marketId: number) {
  return db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId)).orderBy(asc(marketFlags.id));
}

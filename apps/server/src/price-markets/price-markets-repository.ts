import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { markets } from '../db/schema.ts';

// Reads and writes of price markets the settlement job needs; the rest is the markets
// module's (one table, one serializer).

const DueMarketSchema = z.object({
  id: z.number(),
  target_symbol: z.string(),
  comparison_type: z.enum(['above', 'below']),
  target_price: z.string(),
  deadline: z.coerce.date(),
});
export type DuePriceMarket = {
  id: number;
  targetSymbol: string;
  comparisonType: 'above' | 'below';
  targetScaled: bigint;
  deadline: Date;
};

/** Price markets past their deadline and not settled yet, oldest deadline first (partial index 0009). */
export async function listSettlingPriceMarkets(db: DbOrTx, limit: number): Promise<DuePriceMarket[]> {
  const rows = await queryRows(
    db,
    sql`select id, target_symbol, comparison_type, target_price::text as target_price, deadline
        from markets
        where status = 'settling' and bet_type = 'price_prediction'
        order by deadline, id limit ${limit}`,
    DueMarketSchema,
  );
  return rows.map((row) => ({
    id: row.id,
    targetSymbol: row.target_symbol,
    comparisonType: row.comparison_type,
    targetScaled: BigInt(row.target_price),
    deadline: row.deadline,
  }));
}

/** The reading that settled a price market, next to its result (settleMarket wrote the result). */
export async function recordSettlementReading(
  tx: DbOrTx,
  input: { marketId: number; price: bigint; roundId: string | null; updatedAt: Date },
): Promise<void> {
  await tx
    .update(markets)
    .set({
      settlementPrice: input.price,
      settlementRoundId: input.roundId,
      settlementUpdatedAt: input.updatedAt,
    })
    .where(eq(markets.id, input.marketId));
}

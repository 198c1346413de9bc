import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from './client.ts';

const ResultSchema = z.object({ rows: z.array(z.unknown()) });

/**
 * Runs raw SQL and parses each row: both drivers answer `{ rows }`, but under the shared `Db` type
 * the result is `unknown`, so we parse rather than cast.
 */
export async function queryRows<T extends z.ZodType>(db: DbOrTx, query: SQL, row: T): Promise<z.infer<T>[]> {
  const result = ResultSchema.parse(await db.execute(query));
  return result.rows.map((value) => row.parse(value));
}

/** Runs raw SQL for its effect and answers how many rows it touched, where the driver says. */
export async function execute(db: DbOrTx, query: SQL): Promise<number> {
  const result = z
    .object({ rowCount: z.number().nullish(), affectedRows: z.number().nullish() })
    .parse(await db.execute(query));
  return result.rowCount ?? result.affectedRows ?? 0;
}

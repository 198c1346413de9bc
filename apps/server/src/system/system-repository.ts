import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';

/** Whether the database answers at all: the health check's one query (GET /api/health). */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}

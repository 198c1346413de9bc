import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';

/**
 * The deployment's secret called `name` (32 random bytes, hex): made by the first instance that asks
 * (an insert that loses a race changes nothing) and read back, so every instance on one database
 * holds the same key. Cached per process and per database.
 */
export function createServerSecret(db: Db, name: string): () => Promise<Buffer> {
  let cached: Promise<Buffer> | null = null;
  const load = async () => {
    await db.execute(
      sql`insert into server_secrets (name, value) values (${name}, ${randomBytes(32).toString('hex')})
          on conflict (name) do nothing`,
    );
    const [row] = await queryRows(
      db,
      sql`select value from server_secrets where name = ${name}`,
      z.object({ value: z.string().regex(/^[0-9a-f]{64}$/) }),
    );
    if (!row) throw new Error(`server secret ${name} could not be read back`);
    return Buffer.from(row.value, 'hex');
  };
  return () => {
    // A failed read (database down) is not cached: the next request tries again.
    cached ??= load().catch((error: unknown) => {
      cached = null;
      throw error;
    });
    return cached;
  };
}

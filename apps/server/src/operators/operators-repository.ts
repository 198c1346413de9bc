import { lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { operatorNonces } from '../db/schema.ts';

// The operators' rows (decision 007): used nonces and the deployment's secrets. Each function takes
// the pool or the caller's transaction.

/**
 * Uses an operator nonce up: prunes the expired ones (a signature over one is refused anyway), then
 * one atomic insert, so two requests with one signature cannot both pass. False: already used.
 */
export async function useOperatorNonce(
  db: DbOrTx,
  input: { nonce: string; expiresAt: Date; now: Date },
): Promise<boolean> {
  await db.delete(operatorNonces).where(lte(operatorNonces.expiresAt, input.now));
  const used = await db
    .insert(operatorNonces)
    .values({ nonce: input.nonce, expiresAt: input.expiresAt, usedAt: input.now })
    .onConflictDoNothing()
    .returning({ nonce: operatorNonces.nonce });
  return used.length > 0;
}

/**
 * The secret called `name`, stored as `candidateHex` unless one is there already (an insert that
 * loses a race changes nothing), then read back: every instance on one database gets the same.
 */
export async function storeOrReadServerSecret(
  db: DbOrTx,
  name: string,
  candidateHex: string,
): Promise<string | undefined> {
  await db.execute(
    sql`insert into server_secrets (name, value) values (${name}, ${candidateHex})
        on conflict (name) do nothing`,
  );
  const [row] = await queryRows(
    db,
    sql`select value from server_secrets where name = ${name}`,
    z.object({ value: z.string().regex(/^[0-9a-f]{64}$/) }),
  );
  return row?.value;
}

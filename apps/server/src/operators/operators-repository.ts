import { lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { operatorNonces } from '../db/schema.ts';

// The operators' rows (decision 007): used nonces and the deployment's secrets. Each function takes
// the pool or the caller's transaction.

/**
 * Uses an operator nonce up: prunes those expired before `forgetBefore` (their expiry less a
 * clock-skew margin: another instance's clock may be behind ours), then
 * one atomic insert, so two requests with one signature cannot both pass. False: already used.
 */
export async function useOperatorNonce(
  db: DbOrTx,
  input: { nonce: string; expiresAt: Date; now: Date; forgetBefore: Date },
): Promise<boolean> {
  await db.delete(operatorNonces).where(lte(operatorNonces.expiresAt, input.forgetBefore));
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

/** The note's name in `server_secrets` (http/untrusted-forwarded-for.ts). */
export const UNTRUSTED_FORWARDED_FOR_NOTE = 'notice:x-forwarded-for-with-trust-proxy-0';

/** Writes the note (once per deployment: a later one changes nothing). */
export async function noteUntrustedForwardedFor(db: DbOrTx): Promise<void> {
  await db.execute(
    sql`insert into server_secrets (name, value) values (${UNTRUSTED_FORWARDED_FOR_NOTE}, 'seen')
        on conflict (name) do nothing`,
  );
}

/** When an instance of this deployment first saw X-Forwarded-For with TRUST_PROXY=0, or null. */
export async function readUntrustedForwardedFor(db: DbOrTx): Promise<Date | null> {
  const [row] = await queryRows(
    db,
    sql`select created_at as "seenAt" from server_secrets where name = ${UNTRUSTED_FORWARDED_FOR_NOTE}`,
    z.object({ seenAt: z.coerce.date() }),
  );
  return row?.seenAt ?? null;
}

import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';

/** Serialises nonce assignment for the vault across every instance (transaction-scoped). */
const NONCE_LOCK = 8173002;

/**
 * Takes the vault's nonce lock for this transaction and answers the next free nonce: one past the
 * highest the database ever assigned, or the chain's pending count if that is ahead (the key was
 * used elsewhere). Nonces come from the database, never from an in-memory counter.
 */
export async function lockNextVaultNonce(
  tx: Tx,
  input: { chainId: number; vaultAddress: string; chainPendingNonce: bigint },
): Promise<bigint> {
  await tx.execute(sql`select pg_advisory_xact_lock(${NONCE_LOCK})`);
  const [last] = await queryRows(
    tx,
    sql`select max(nonce) as nonce from payouts where chain_id = ${input.chainId} and from_address = ${input.vaultAddress}`,
    z.object({ nonce: z.coerce.bigint().nullable() }),
  );
  const nextFromDb = last?.nonce == null ? 0n : last.nonce + 1n;
  return nextFromDb > input.chainPendingNonce ? nextFromDb : input.chainPendingNonce;
}

import { eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { chainCursors, vaultTransfers } from '../db/schema.ts';

// Inbound vault transfers that vault reconciliation found and settles one by one, and how far its
// chain scan has read (docs/architecture.md "Payment verification"). Each function takes the pool
// or the caller's transaction.

export type VaultTransferRow = typeof vaultTransfers.$inferSelect;
export type NewVaultTransfer = Pick<
  typeof vaultTransfers.$inferInsert,
  | 'chainId'
  | 'txHash'
  | 'fromAddress'
  | 'amount'
  | 'input'
  | 'blockNumber'
  | 'blockHash'
  | 'blockTime'
  | 'nextAttemptAt'
>;

/** The last block a scan named `name` read, if it ever ran. */
export async function readChainCursor(db: DbOrTx, name: string): Promise<bigint | undefined> {
  const [cursor] = await db.select().from(chainCursors).where(eq(chainCursors.name, name));
  return cursor?.blockNumber;
}

/** Queues the transfers of one block (a hash already queued is left alone) and moves the cursor past it. */
export async function queueBlockTransfers(
  tx: DbOrTx,
  cursor: { name: string; blockNumber: bigint },
  transfers: NewVaultTransfer[],
): Promise<void> {
  if (transfers.length) await tx.insert(vaultTransfers).values(transfers).onConflictDoNothing();
  await tx
    .insert(chainCursors)
    .values(cursor)
    .onConflictDoUpdate({
      target: chainCursors.name,
      set: { blockNumber: cursor.blockNumber, updatedAt: new Date() },
    });
}

const ClaimedTransferSchema = z.object({
  id: z.number(),
  tx_hash: z.string(),
  from_address: z.string(),
  amount: z.coerce.bigint(),
  input: z.string(),
  block_number: z.coerce.bigint(),
  block_time: z.coerce.date(),
  attempts: z.number(),
});
export type ClaimedVaultTransfer = z.infer<typeof ClaimedTransferSchema>;

/**
 * Claims the next transfer of this chain due at `now` by pushing its next attempt out to
 * `leaseUntil`, in one statement with FOR UPDATE SKIP LOCKED: another instance leaves it alone.
 */
export async function claimNextVaultTransfer(
  db: DbOrTx,
  input: { chainId: number; now: Date; leaseUntil: Date },
): Promise<ClaimedVaultTransfer | undefined> {
  const [row] = await queryRows(
    db,
    sql`update vault_transfers set next_attempt_at = ${input.leaseUntil}, attempts = attempts + 1
        where id = (select id from vault_transfers
                    where resolved_at is null and chain_id = ${input.chainId} and next_attempt_at <= ${input.now}
                    order by next_attempt_at, id limit 1 for update skip locked)
        returning id, tx_hash, from_address, amount, input, block_number, block_time, attempts`,
    ClaimedTransferSchema,
  );
  return row;
}

/** Puts a transfer back to wait until `until`, without counting the claim as an attempt. */
export async function deferVaultTransfer(db: DbOrTx, id: number, until: Date): Promise<void> {
  await db
    .update(vaultTransfers)
    .set({ nextAttemptAt: until, attempts: sql`${vaultTransfers.attempts} - 1` })
    .where(eq(vaultTransfers.id, id));
}

export async function resolveVaultTransfer(
  db: DbOrTx,
  id: number,
  outcome: string,
  resolvedAt: Date,
): Promise<void> {
  await db
    .update(vaultTransfers)
    .set({ outcome, resolvedAt, lastError: null })
    .where(eq(vaultTransfers.id, id));
}

export async function retryVaultTransferAt(
  db: DbOrTx,
  id: number,
  nextAttemptAt: Date,
  lastError: string,
): Promise<void> {
  await db.update(vaultTransfers).set({ lastError, nextAttemptAt }).where(eq(vaultTransfers.id, id));
}

/** Every transfer not settled yet, oldest first (ops payments:status). */
export async function listUnresolvedVaultTransfers(db: DbOrTx): Promise<VaultTransferRow[]> {
  return db.select().from(vaultTransfers).where(isNull(vaultTransfers.resolvedAt)).orderBy(vaultTransfers.id);
}

import type { RealtimeMessage } from '@pm/core/contract/realtime';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { execute } from '../db/query-rows.ts';
import { outbox } from '../db/schema.ts';

/**
 * Records a realtime event in the same transaction as the change it announces; the outbox trigger
 * NOTIFYs on commit, so a rolled-back change is never announced.
 */
export async function publish(db: DbOrTx, message: RealtimeMessage): Promise<void> {
  const { topic, ...payload } = message;
  await db.insert(outbox).values({ topic, payload });
}

/**
 * Several events of one change in one statement (one round trip in the transaction), announced in
 * the order given.
 */
export async function publishAll(db: DbOrTx, messages: readonly RealtimeMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await db.insert(outbox).values(messages.map(({ topic, ...payload }) => ({ topic, payload })));
}

/** Deletes the events older than `keepMinutes`: their NOTIFY went out at commit. */
export async function pruneOutbox(db: DbOrTx, keepMinutes: number): Promise<void> {
  await execute(db, sql`delete from outbox where created_at < now() - make_interval(mins => ${keepMinutes})`);
}

import type { RealtimeMessage } from '@pm/core/contract/realtime';
import type { DbOrTx } from '../db/client.ts';
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

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

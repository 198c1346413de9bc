import { bigserial, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { time } from './columns.ts';

// The realtime outbox.

/**
 * Realtime outbox: written in the same transaction as the change; a trigger NOTIFYs on insert, and
 * PostgreSQL delivers that only on commit (docs/architecture.md "Chosen parts").
 */
export const outbox = pgTable('outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  topic: text('topic').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  createdAt: time('created_at').notNull().defaultNow(),
});

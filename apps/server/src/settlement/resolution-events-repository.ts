import {
  type ResolutionEvent,
  type ResolutionEventKind,
  ResolutionEventKindSchema,
} from '@pm/core/contract/review';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { marketResolutionEvents } from '../db/schema.ts';

// The timeline of a market's resolution (docs/decisions/011): proposed, flagged, confirmed or
// overturned, settled. Written in the transaction of the step it records, so the timeline never shows
// a step that was rolled back. Each function takes the pool or the caller's transaction.

const ResultSchema = z.enum(['YES', 'NO', 'VOID']).nullable();

/** A timeline never grows past a handful of steps plus one per flag; this bounds a market page. */
const RESOLUTION_EVENTS_LIMIT = 200;

export type ResolutionEventRow = typeof marketResolutionEvents.$inferSelect;

export async function recordResolutionEvent(
  tx: DbOrTx,
  input: {
    marketId: number;
    kind: ResolutionEventKind;
    actor: string;
    result: 'YES' | 'NO' | 'VOID' | null;
    detail: string | null;
    /** A flag's bond, or what went back to the flagger. */
    amountWei?: bigint | null;
    rewardWei?: bigint | null;
    at: Date;
  },
): Promise<ResolutionEventRow> {
  const [row] = await tx
    .insert(marketResolutionEvents)
    .values({
      marketId: input.marketId,
      kind: input.kind,
      actor: input.actor,
      result: input.result,
      detail: input.detail,
      amount: input.amountWei ?? null,
      reward: input.rewardWei ?? null,
      createdAt: input.at,
    })
    .returning();
  if (!row) throw new Error('insert into market_resolution_events returned no row');
  return row;
}

export async function listResolutionEvents(db: DbOrTx, marketId: number): Promise<ResolutionEventRow[]> {
  return db
    .select()
    .from(marketResolutionEvents)
    .where(eq(marketResolutionEvents.marketId, marketId))
    .orderBy(asc(marketResolutionEvents.id))
    .limit(RESOLUTION_EVENTS_LIMIT);
}

export function toResolutionEventDto(row: ResolutionEventRow): ResolutionEvent {
  return {
    id: row.id,
    kind: ResolutionEventKindSchema.parse(row.kind),
    actor: row.actor,
    result: ResultSchema.parse(row.result),
    detail: row.detail,
    amountWei: row.amount?.toString() ?? null,
    rewardWei: row.reward?.toString() ?? null,
    at: row.createdAt.toISOString(),
  };
}

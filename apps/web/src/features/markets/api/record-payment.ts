import {
  type CreateMarketBody,
  CreateMarketBodySchema,
  CreateMarketResponseSchema,
  type JoinMarketBody,
  JoinMarketBodySchema,
  JoinMarketResponseSchema,
  PendingPaymentResponseSchema,
} from '@pm/core/contract/markets';
import * as z from 'zod/mini';
import { ApiError, apiPost } from '#lib/api-client.ts';
import { PENDING_RECORDS_KEY as STORAGE_KEY } from './pending-records-key.ts';

// After the wallet's payment confirmed, the request that records it. 202 means the server has not
// seen the payment final yet: it records it itself once it is, and asking again is safe.

const CreateAnswerSchema = z.union([CreateMarketResponseSchema, PendingPaymentResponseSchema]);
const JoinAnswerSchema = z.union([JoinMarketResponseSchema, PendingPaymentResponseSchema]);

export type PendingRecord =
  | { kind: 'create'; body: CreateMarketBody }
  | { kind: 'join'; marketId: number; body: JoinMarketBody };

async function recordPayment(record: PendingRecord): Promise<'recorded' | 'pending'> {
  const answer =
    record.kind === 'create'
      ? await apiPost('/api/markets', record.body, CreateAnswerSchema)
      : await apiPost(`/api/markets/${record.marketId}/bets`, record.body, JoinAnswerSchema);
  return 'status' in answer ? 'pending' : 'recorded';
}

// Kept until recorded, so a closed tab or a server hiccup never loses a paid bet (issue 3).
const StoredSchema = z.array(
  z.union([
    z.object({ kind: z.literal('create'), body: z.record(z.string(), z.unknown()) }),
    z.object({ kind: z.literal('join'), marketId: z.number(), body: z.record(z.string(), z.unknown()) }),
  ]),
);

function loadPendingRecords(): unknown[] {
  try {
    const parsed = StoredSchema.safeParse(JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]'));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function savePendingRecord(record: PendingRecord): void {
  try {
    const others = loadPendingRecords().filter((item) => JSON.stringify(item) !== JSON.stringify(record));
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify([...others, record]));
  } catch {
    // storage disabled: the server's reconciliation still records bet payments from the chain
  }
}

function forgetPendingRecord(txHash: string): void {
  try {
    const kept = loadPendingRecords().filter((item) => !JSON.stringify(item).includes(txHash));
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // nothing stored
  }
}

/**
 * Records and, once the server has it (recorded, or pending on its side) or has refused it for good
 * (its money then becomes a refund), forgets the stored copy. Network and 5xx errors keep it.
 */
export async function recordAndForget(record: PendingRecord): Promise<'recorded' | 'pending'> {
  try {
    const outcome = await recordPayment(record);
    forgetPendingRecord(record.body.txHash);
    return outcome;
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.status >= 400 &&
      error.status < 500 &&
      error.code !== 'RATE_LIMITED'
    ) {
      forgetPendingRecord(record.body.txHash);
    }
    throw error;
  }
}

const PendingRecordSchema = z.union([
  z.object({ kind: z.literal('create'), body: CreateMarketBodySchema }),
  z.object({ kind: z.literal('join'), marketId: z.number(), body: JoinMarketBodySchema }),
]);

/** On page load: post again whatever was paid but not recorded before the tab closed. */
export async function retryPendingRecords(): Promise<number> {
  let recorded = 0;
  for (const item of loadPendingRecords()) {
    const parsed = PendingRecordSchema.safeParse(item);
    if (!parsed.success) continue;
    try {
      if ((await recordAndForget(parsed.data)) === 'recorded') recorded += 1;
    } catch {
      // kept (or forgotten if refused); tried again next time
    }
  }
  return recorded;
}

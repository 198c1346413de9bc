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
import { apiPost } from '#lib/api-client.ts';
import { createPendingPayments } from '#lib/pending-payments.ts';
import { PENDING_RECORDS_KEY } from './pending-records-key.ts';

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

const PendingRecordSchema = z.union([
  z.object({ kind: z.literal('create'), body: CreateMarketBodySchema }),
  z.object({ kind: z.literal('join'), marketId: z.number(), body: JoinMarketBodySchema }),
]);

// A paid create or join is kept until the server has it, in the store every paid bet uses.
const pendingRecords = createPendingPayments({
  key: PENDING_RECORDS_KEY,
  schema: PendingRecordSchema,
  txHashOf: (record: PendingRecord) => record.body.txHash,
  post: recordPayment,
});

export const savePendingRecord = pendingRecords.save;
/** Records and, once the server has it or has refused it for good, forgets the stored copy. */
export const recordAndForget = pendingRecords.record;
/** On page load: post again whatever was paid but not recorded before the tab closed. */
export const retryPendingRecords = pendingRecords.retry;

import { PendingPaymentResponseSchema } from '@pm/core/contract/markets';
import { type PlaceOracleBetBody, PlaceOracleBetResponseSchema } from '@pm/core/contract/oracle';
import * as z from 'zod/mini';
import { apiPost } from '#lib/api-client.ts';

const PlaceOracleBetAnswerSchema = z.union([PlaceOracleBetResponseSchema, PendingPaymentResponseSchema]);
export type PlaceOracleBetAnswer = z.infer<typeof PlaceOracleBetAnswerSchema>;

/**
 * POST /api/oracle/bets after the payment confirmed: 201 with the bet and the round, or 202 when
 * the server has not seen the payment final yet (it records it itself once it is).
 */
export function placeOracleBet(body: PlaceOracleBetBody): Promise<PlaceOracleBetAnswer> {
  return apiPost('/api/oracle/bets', body, PlaceOracleBetAnswerSchema);
}

import { CreateMarketBodySchema, JoinMarketBodySchema } from '@pm/core/contract/markets';
import { z } from 'zod';
import type { PendingPaymentHandler } from '../payments/pending-payments-job.ts';
import type { MarketsService } from './markets-service.ts';

const StoredCreateSchema = z.object({ body: CreateMarketBodySchema });
const StoredJoinSchema = z.object({ marketId: z.number().int().positive(), body: JoinMarketBodySchema });

/**
 * Replays requests answered 202 (payment valid, not final yet) through the very same service
 * functions, once the pending-payments job finds them final: a closed tab never loses a bet.
 */
export function createMarketPaymentHandlers(service: MarketsService): {
  market_create: PendingPaymentHandler;
  market_bet: PendingPaymentHandler;
} {
  return {
    async market_create(request) {
      const { body } = StoredCreateSchema.parse(request);
      return (await service.createMarket(body)).status;
    },
    async market_bet(request) {
      const { marketId, body } = StoredJoinSchema.parse(request);
      return (await service.joinMarket(marketId, body)).status;
    },
  };
}

import { CreateMarketBodySchema, JoinMarketBodySchema } from '@pm/core/contract/markets';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { MarketDeposits } from '../escrow/deposits/reconcile-escrow-job.ts';
import { findPaymentRequest } from '../payments/payment-requests-repository.ts';
import type { PendingPaymentHandler } from '../payments/pending-payments-job.ts';
import { findMarketByEscrowKey } from './markets-repository.ts';
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

/**
 * Market deposits nobody posted, as escrow reconciliation finds them (decision 026): a bet by its
 * market's key, through the join's own logic; a creation only from the request kept for its
 * transaction (its content is off chain), through the creation's own logic. Each pinned to its stake.
 */
export function createMarketDeposits(
  service: MarketsService,
  deps: { db: Db; chainId: number },
): MarketDeposits {
  return {
    async marketOfKey(key) {
      return (await findMarketByEscrowKey(deps.db, key.toLowerCase()))?.id ?? null;
    },
    async recordBet(marketId, body, stakeId) {
      return (await service.joinMarket(marketId, body, { stakeId })).status;
    },
    async recordCreation(txHash, stakeId) {
      const kept = await findPaymentRequest(deps.db, deps.chainId, txHash.toLowerCase());
      const stored = kept?.purpose === 'market_create' ? StoredCreateSchema.safeParse(kept.request) : null;
      if (!stored?.success) return null;
      return (await service.createMarket(stored.data.body, { stakeId })).status;
    },
  };
}

import { betReturnFields } from '@pm/core/bet-return';
import { type Bet, BetStatusSchema, type Market, MarketStatusSchema } from '@pm/core/contract/markets';
import { CategorySchema, DurationSchema, PredictionSchema } from '@pm/core/contract/primitives';
import type { UserBet } from '@pm/core/contract/users';
import { formatUsdPrice } from '@pm/core/price';
import { marketClosesAt } from '@pm/escrow/deposit-terms';
import { z } from 'zod';
import type { UserBetMarket } from '../escrow/claims/claimable-repository.ts';
import { toMarketReviewDto } from './market-review.ts';
import type { BetRow, MarketRow } from './markets-repository.ts';

// Rows → the HTTP contract's DTOs: bigint → decimal string, Date → ISO, addresses as stored
// (lower-case). Text columns are parsed into the contract's enums rather than cast.

const BetTypeSchema = z.enum(['custom_bet', 'price_prediction']);
const ComparisonSchema = z.enum(['above', 'below']).nullable();
const ResultSchema = z.enum(['YES', 'NO', 'VOID']).nullable();

export function toMarketDto(row: MarketRow): Market {
  return {
    id: row.id,
    creatorAddress: row.creatorAddress,
    title: row.title,
    description: row.description,
    resolutionInstructions: row.resolutionInstructions,
    betType: BetTypeSchema.parse(row.betType),
    category: CategorySchema.parse(row.category),
    duration: DurationSchema.parse(row.duration),
    targetSymbol: row.targetSymbol,
    // Prices are 1e8-scaled integers in the table and USD decimal strings on the wire (docs/api.md).
    targetPrice: row.targetPrice === null ? null : formatUsdPrice(row.targetPrice, 2),
    startPrice: row.startPrice === null ? null : formatUsdPrice(row.startPrice, 8),
    comparisonType: ComparisonSchema.parse(row.comparisonType),
    settlementPrice: row.settlementPrice === null ? null : formatUsdPrice(row.settlementPrice, 8),
    settlementRoundId: row.settlementRoundId,
    settlementUpdatedAt: row.settlementUpdatedAt?.toISOString() ?? null,
    priceFeed: row.priceFeed,
    startTime: row.startTime.toISOString(),
    deadline: row.deadline.toISOString(),
    escrowId: row.escrowId,
    escrowKey: row.escrowKey,
    closesAt: marketClosesAt(row.deadline),
    status: MarketStatusSchema.parse(row.status),
    totalYesWei: row.totalYesAmount.toString(),
    totalNoWei: row.totalNoAmount.toString(),
    yesCount: row.yesCount,
    noCount: row.noCount,
    result: ResultSchema.parse(row.result),
    aiVerdict: row.aiVerdict,
    aiConfidence: row.aiConfidence,
    aiSources: row.aiSources ?? [],
    resolver: {
      model: row.resolverModel,
      promptVersion: row.resolverPromptVersion,
      contentHash: row.contentHash,
    },
    review: toMarketReviewDto(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toBetDto(row: BetRow): Bet {
  return {
    id: row.id,
    marketId: row.marketId,
    userAddress: row.userAddress,
    prediction: PredictionSchema.parse(row.prediction),
    amountWei: row.amount.toString(),
    potentialPayoutWei: row.potentialPayout.toString(),
    // payout_amount is the return (decision 002); core derives every money word from it.
    ...betReturnFields(row.amount, row.payoutAmount),
    status: BetStatusSchema.parse(row.status),
    isCreator: row.isCreator,
    txHash: row.txHash,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A bet with the market fields My Bets shows (docs/product.md §7: title, status, result, category, deadline). */
export function toUserBetDto(bet: BetRow, market: UserBetMarket): UserBet {
  return {
    ...toBetDto(bet),
    market: {
      title: market.title,
      status: MarketStatusSchema.parse(market.status),
      result: ResultSchema.parse(market.result),
      category: CategorySchema.parse(market.category),
      deadline: market.deadline.toISOString(),
    },
  };
}

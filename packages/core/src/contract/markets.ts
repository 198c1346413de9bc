import { z } from 'zod';
import {
  AddressSchema,
  CategorySchema,
  DurationSchema,
  IsoTimeSchema,
  PredictionSchema,
  TxHashSchema,
  WeiSchema,
} from './primitives.ts';

// Markets and their bets (spec §3 tables markets/bets; ../shared/API.md).

export const MarketStatusSchema = z.enum(['active', 'settling', 'settled']);
export const BetStatusSchema = z.enum(['pending', 'won', 'lost', 'claimed', 'refunded']);

export const MarketSchema = z.object({
  id: z.number().int(),
  creatorAddress: AddressSchema,
  title: z.string(),
  description: z.string(),
  resolutionInstructions: z.string().nullable(),
  betType: z.enum(['custom_bet', 'price_prediction']),
  category: CategorySchema,
  duration: DurationSchema,
  targetSymbol: z.string().nullable(),
  targetPrice: z.string().nullable(),
  startPrice: z.string().nullable(),
  comparisonType: z.enum(['above', 'below']).nullable(),
  startTime: IsoTimeSchema,
  deadline: IsoTimeSchema,
  status: MarketStatusSchema,
  totalYesWei: WeiSchema,
  totalNoWei: WeiSchema,
  yesCount: z.number().int(),
  noCount: z.number().int(),
  /** Final outcome; VOID means every stake is refunded. */
  result: z.enum(['YES', 'NO', 'VOID']).nullable(),
  aiVerdict: z.string().nullable(),
  aiConfidence: z.number().int().min(0).max(100).nullable(),
  /** Where the resolver found its evidence (URLs or named references); empty until settled. */
  aiSources: z.array(z.string()),
  /** Fixed at creation so bettors know what will judge (DESIGN "Markets"). */
  resolver: z.object({ model: z.string(), promptVersion: z.string(), contentHash: z.string() }),
  createdAt: IsoTimeSchema,
  updatedAt: IsoTimeSchema,
});
export type Market = z.infer<typeof MarketSchema>;

export const BetSchema = z.object({
  id: z.number().int(),
  marketId: z.number().int(),
  userAddress: AddressSchema,
  prediction: PredictionSchema,
  amountWei: WeiSchema,
  /** Spec §7 record value: twice the stake. The UI shows the live pool estimate instead. */
  potentialPayoutWei: WeiSchema,
  /** Profit on a win (spec: payout_amount); the claimable amount is profit + stake. */
  payoutWei: WeiSchema.nullable(),
  status: BetStatusSchema,
  isCreator: z.boolean(),
  txHash: TxHashSchema,
  createdAt: IsoTimeSchema,
});
export type Bet = z.infer<typeof BetSchema>;

export const ListMarketsQuerySchema = z.strictObject({
  category: z.union([CategorySchema, z.literal('all')]).optional(),
  status: z.enum(['open', 'settled']).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type ListMarketsQuery = z.infer<typeof ListMarketsQuerySchema>;

export const ListMarketsResponseSchema = z.object({
  markets: z.array(MarketSchema),
  /** Open markets per category, for the chips (spec §2 /predictions). */
  counts: z.record(z.string(), z.number().int()),
});
export type ListMarketsResponse = z.infer<typeof ListMarketsResponseSchema>;

export const MarketDetailResponseSchema = z.object({ market: MarketSchema, bets: z.array(BetSchema) });
export type MarketDetailResponse = z.infer<typeof MarketDetailResponseSchema>;

// Spec §5 messages where the spec has one; defineRoute prefixes the field name.
const categoryField = z.enum(CategorySchema.options, { error: 'Please select a category' });
const predictionField = z.enum(PredictionSchema.options, { error: 'Please select your prediction' });

export const CreateMarketBodySchema = z.strictObject({
  txHash: TxHashSchema,
  creatorAddress: AddressSchema,
  /** Must not be blank after trimming (spec §5); checked by the server with the spec's message. */
  description: z.string().max(2000),
  title: z.string().max(120).optional(),
  resolutionInstructions: z.string().max(2000).optional(),
  category: categoryField,
  duration: DurationSchema,
  prediction: predictionField,
  /** At least 0.005 BNB (MIN_MARKET_BET_WEI); checked by the server: AMOUNT_TOO_LOW. */
  amountWei: WeiSchema,
});
export type CreateMarketBody = z.infer<typeof CreateMarketBodySchema>;

export const CreateMarketResponseSchema = z.object({ market: MarketSchema, bet: BetSchema });

export const JoinMarketBodySchema = z.strictObject({
  txHash: TxHashSchema,
  userAddress: AddressSchema,
  prediction: predictionField,
  amountWei: WeiSchema,
});
export type JoinMarketBody = z.infer<typeof JoinMarketBodySchema>;

export const JoinMarketResponseSchema = z.object({ bet: BetSchema, market: MarketSchema });

/** 202: the payment is valid but not final yet; it is recorded as soon as it confirms. */
export const PendingPaymentResponseSchema = z.object({ status: z.literal('pending'), txHash: TxHashSchema });

export const MarketIdParamsSchema = z.strictObject({ id: z.coerce.number().int().positive() });

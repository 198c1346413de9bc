import * as z from 'zod/mini';
import { MAX_DESCRIPTION_LENGTH, MAX_INSTRUCTIONS_LENGTH, MAX_TITLE_LENGTH } from '../constants.ts';
import { betReturnShape } from './bet-return.ts';
import { MarketEvidenceSchema } from './evidence.ts';
import { PageCursorSchema } from './page-cursor.ts';
import { Bytes32Schema } from './payout-lists.ts';
import {
  AddressSchema,
  CategorySchema,
  ComparisonTypeSchema,
  DurationSchema,
  IsoTimeSchema,
  PaymentWeiSchema,
  PredictionSchema,
  PriceSymbolSchema,
  TargetPriceSchema,
  TxHashSchema,
  UsdPriceSchema,
  WeiSchema,
} from './primitives.ts';
import { MarketReviewSchema, ResolutionEventSchema } from './review.ts';

// Markets and their bets (docs/product.md §3 tables markets/bets; docs/api.md).

export const MarketStatusSchema = z.enum(['active', 'settling', 'settled']);
export const BetStatusSchema = z.enum(['pending', 'won', 'lost', 'claimed', 'refunded']);

export const MarketSchema = z.object({
  id: z.int(),
  creatorAddress: AddressSchema,
  title: z.string(),
  description: z.string(),
  resolutionInstructions: z.nullable(z.string()),
  betType: z.enum(['custom_bet', 'price_prediction']),
  category: CategorySchema,
  duration: DurationSchema,
  /** Price markets only (decision 020): the coin, the target and the feed's price at creation (USD). */
  targetSymbol: z.nullable(z.string()),
  targetPrice: z.nullable(z.string()),
  startPrice: z.nullable(z.string()),
  comparisonType: z.nullable(z.enum(['above', 'below'])),
  /** Price markets: the feed reading that settled it (USD), null until settled from the feed. */
  settlementPrice: z.optional(z.nullable(UsdPriceSchema)),
  /** The feed's round id of that reading, where the feed has one (Chainlink). */
  settlementRoundId: z.optional(z.nullable(z.string())),
  /** When the feed says that reading was updated. */
  settlementUpdatedAt: z.optional(z.nullable(IsoTimeSchema)),
  /** The feed that decides a price market: an aggregator address, a ticker URL's host, or "simulated". */
  priceFeed: z.optional(z.nullable(z.string())),
  startTime: IsoTimeSchema,
  deadline: IsoTimeSchema,
  status: MarketStatusSchema,
  totalYesWei: WeiSchema,
  totalNoWei: WeiSchema,
  yesCount: z.int(),
  noCount: z.int(),
  /** Final outcome; VOID means every stake is refunded. */
  result: z.nullable(z.enum(['YES', 'NO', 'VOID'])),
  aiVerdict: z.nullable(z.string()),
  aiConfidence: z.nullable(z.int().check(z.minimum(0), z.maximum(100))),
  /** Where the resolver found its evidence (URLs or named references); empty until settled. */
  aiSources: z.array(z.string()),
  /** Fixed at creation so bettors know what will judge (docs/architecture.md "Markets"). */
  resolver: z.object({ model: z.string(), promptVersion: z.string(), contentHash: z.string() }),
  /** A proposed verdict in its review window, or waiting for an operator after a flag (decision 011). */
  review: z.optional(z.nullable(MarketReviewSchema)),
  /**
   * The market on the escrow contract (decision 026): the raw id its creation's deposit chose, and the
   * contract's key (`marketKey(escrowId, closesAt)`); a bet and a flag's bond deposit under these. Null
   * only on a market made before the escrow, which takes no bet.
   */
  escrowId: z.nullable(Bytes32Schema),
  escrowKey: z.nullable(Bytes32Schema),
  /** The deadline in unix seconds: the close a deposit into this market names. */
  closesAt: z.int(),
  createdAt: IsoTimeSchema,
  /**
   * When the market's state last changed: created, flagged, closed for judging, proposed, settled.
   * A bet moves the totals and counts, not this time (decision 016: the bet's update stays in its page).
   */
  updatedAt: IsoTimeSchema,
});
export type Market = z.infer<typeof MarketSchema>;

export const BetSchema = z.object({
  id: z.int(),
  marketId: z.int(),
  userAddress: AddressSchema,
  prediction: PredictionSchema,
  amountWei: WeiSchema,
  /** docs/product.md §7 record value: twice the stake. The UI shows the live pool estimate instead. */
  potentialPayoutWei: WeiSchema,
  ...betReturnShape,
  status: BetStatusSchema,
  isCreator: z.boolean(),
  txHash: TxHashSchema,
  createdAt: IsoTimeSchema,
});
export type Bet = z.infer<typeof BetSchema>;

/**
 * Open markets in a page without `limit`: the board's first screen (decision 016: under 40 kB even with
 * long titles); the board asks for more by cursor as the visitor scrolls.
 */
export const MARKETS_PAGE_DEFAULT = 24;
/** The largest page of markets one request can ask for. */
export const MARKETS_PAGE_MAX = 200;

export const ListMarketsQuerySchema = z.strictObject({
  category: z.optional(z.union([CategorySchema, z.literal('all')])),
  status: z.optional(z.enum(['open', 'settled'])),
  /** Only markets of this kind: Price Oracle markets or custom (AI-judged) ones. */
  betType: z.optional(z.enum(['price_prediction', 'custom_bet'])),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MARKETS_PAGE_MAX))),
  /** The `nextCursor` of the page before. */
  cursor: z.optional(PageCursorSchema),
});
export type ListMarketsQuery = z.infer<typeof ListMarketsQuerySchema>;

export const ListMarketsResponseSchema = z.object({
  markets: z.array(MarketSchema),
  /** Open markets per category, for the chips (docs/product.md §2 /predictions). */
  counts: z.record(z.string(), z.int()),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type ListMarketsResponse = z.infer<typeof ListMarketsResponseSchema>;

export const MarketDetailResponseSchema = z.object({
  market: MarketSchema,
  /** The first page of the market's bets, newest first (MARKET_BETS_PAGE_DEFAULT, market-bets.ts). */
  bets: z.array(BetSchema),
  /** The `cursor` of `GET /api/markets/:id/bets` for the older bets; null when `bets` holds them all. */
  betsNextCursor: z.nullable(z.string()),
  /** Distinct wallets that bet on the market, exact whatever page of bets is shown. */
  participants: z.int().check(z.minimum(0)),
  /** The resolution steps, oldest first: proposed, flagged, confirmed/overturned, settled (decision 011). */
  timeline: z.optional(z.array(ResolutionEventSchema)),
  /** What the judge read and quoted for its latest attempt (decision 019); null before any attempt. */
  evidence: z.optional(z.nullable(MarketEvidenceSchema)),
});
export type MarketDetailResponse = z.infer<typeof MarketDetailResponseSchema>;

// docs/product.md §5 messages where the spec has one; defineRoute prefixes the field name.
const categoryField = z.enum(CategorySchema.options, { error: 'Please select a category' });
const predictionField = z.enum(PredictionSchema.options, { error: 'Please select your prediction' });

/** What the payment's intent commits to besides the market: the side and the exact amount paid. */
const paidSideFields = {
  prediction: predictionField,
  /** At least 0.005 BNB (MIN_MARKET_BET_WEI); checked by the server: AMOUNT_TOO_LOW. */
  amountWei: PaymentWeiSchema,
};

/** Unix seconds a deposit's close can name (the contract's uint40). */
const UnixSecondsSchema = z.int().check(z.positive(), z.maximum(2 ** 40 - 1));

/**
 * The creation's deposit (decision 026): the fresh escrow id its creator picked (`newMarketId`) and the
 * close it asked for, which becomes the market's deadline when it lies the duration from the deposit's
 * block (core's creationCloseAccepted, else CLOSE_OUT_OF_RANGE).
 */
const creationDepositFields = {
  /** 32 bytes of hex no other market has (else ESCROW_ID_TAKEN). */
  escrowId: Bytes32Schema,
  /** Unix seconds: the deadline asked for, the deposit's `closesAt`. */
  closesAt: UnixSecondsSchema,
};

/** A custom (AI-judged) market: its text is what the judge reads. `betType` may be left out. */
export const CreateCustomMarketBodySchema = z.strictObject({
  betType: z.optional(z.literal('custom_bet')),
  txHash: TxHashSchema,
  creatorAddress: AddressSchema,
  /** Must not be blank after trimming (docs/product.md §5); checked by the server with the spec's message. */
  description: z.string().check(z.maxLength(MAX_DESCRIPTION_LENGTH)),
  title: z.optional(z.string().check(z.maxLength(MAX_TITLE_LENGTH))),
  resolutionInstructions: z.optional(z.string().check(z.maxLength(MAX_INSTRUCTIONS_LENGTH))),
  category: categoryField,
  duration: DurationSchema,
  ...paidSideFields,
  ...creationDepositFields,
});
export type CreateCustomMarketBody = z.infer<typeof CreateCustomMarketBodySchema>;

/**
 * A Price Oracle market (decision 020): its terms replace the free text, the server writes the title
 * and takes the category crypto; the payment intent commits to priceMarketContentHash(terms).
 */
export const CreatePriceMarketBodySchema = z.strictObject({
  betType: z.literal('price_prediction'),
  txHash: TxHashSchema,
  creatorAddress: AddressSchema,
  targetSymbol: PriceSymbolSchema,
  comparisonType: ComparisonTypeSchema,
  targetPrice: TargetPriceSchema,
  duration: DurationSchema,
  ...paidSideFields,
  ...creationDepositFields,
});
export type CreatePriceMarketBody = z.infer<typeof CreatePriceMarketBodySchema>;

export const CreateMarketBodySchema = z.discriminatedUnion('betType', [
  CreateCustomMarketBodySchema,
  CreatePriceMarketBodySchema,
]);
export type CreateMarketBody = z.infer<typeof CreateMarketBodySchema>;

export const CreateMarketResponseSchema = z.object({ market: MarketSchema, bet: BetSchema });

export const JoinMarketBodySchema = z.strictObject({
  txHash: TxHashSchema,
  userAddress: AddressSchema,
  ...paidSideFields,
});
export type JoinMarketBody = z.infer<typeof JoinMarketBodySchema>;

export const JoinMarketResponseSchema = z.object({ bet: BetSchema, market: MarketSchema });

/** 202: the payment is valid but not final yet; it is recorded as soon as it confirms. */
export const PendingPaymentResponseSchema = z.object({ status: z.literal('pending'), txHash: TxHashSchema });

/** Any positive id reads as a market id; one beyond what the database stores is simply not found (404). */
export const MarketIdParamsSchema = z.strictObject({
  id: z.coerce.number().check(z.int(), z.positive(), z.maximum(Number.MAX_SAFE_INTEGER)),
});

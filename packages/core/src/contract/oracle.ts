import * as z from 'zod/mini';
import { betReturnShape } from './bet-return.ts';
import {
  AddressSchema,
  IsoTimeSchema,
  PaymentWeiSchema,
  PositionSchema,
  TxHashSchema,
  UsdPriceSchema,
  WeiSchema,
} from './primitives.ts';

// Oracle rounds and their bets (docs/product.md §3 oracle_rounds/oracle_bets; docs/architecture.md "Oracle rounds").

export const RoundStatusSchema = z.enum(['upcoming', 'live', 'locked', 'ended']);

/**
 * Why a round was cancelled (every stake refunded): no fresh price at its lock or close, even in the
 * feed's own history; the price feed could not be asked for ORACLE_FEED_WAIT_S after the instant
 * (docs/security.md "Prices"); an operator reset the rounds; or the escrow refunded it on its own,
 * the guardian having vetoed its settlement (`vetoed`) or nobody having settled it within the
 * contract's escape delay (`escaped`).
 */
export const ROUND_CANCEL_REASONS = [
  'lock_price_missing',
  'close_price_missing',
  'price_feed_unreachable',
  'reset',
  'vetoed',
  'escaped',
] as const;
export type RoundCancelReason = (typeof ROUND_CANCEL_REASONS)[number];

export const RoundSchema = z.object({
  epoch: z.int(),
  status: RoundStatusSchema,
  startTime: IsoTimeSchema,
  lockTime: IsoTimeSchema,
  closeTime: IsoTimeSchema,
  lockPrice: z.nullable(UsdPriceSchema),
  closePrice: z.nullable(UsdPriceSchema),
  totalUpWei: WeiSchema,
  totalDownWei: WeiSchema,
  upCount: z.int(),
  downCount: z.int(),
  /** cancelled: a price was missing or stale (or an operator reset the rounds): every stake is refunded. */
  result: z.nullable(z.enum(['bull', 'bear', 'draw', 'cancelled'])),
  /** Why a round was cancelled: one of ROUND_CANCEL_REASONS (typed as a string: a client older than a new reason still parses the round). */
  cancelReason: z.nullable(z.string()),
  /** The feed the prices came from (chainlink | ticker | simulated). */
  priceSource: z.nullable(z.string()),
  /** The feed readings used (docs/architecture.md "Oracle rounds": each round stores the round id and time it used). */
  lockPriceAt: z.nullable(IsoTimeSchema),
  lockFeedRoundId: z.nullable(z.string()),
  closePriceAt: z.nullable(IsoTimeSchema),
  closeFeedRoundId: z.nullable(z.string()),
});
export type Round = z.infer<typeof RoundSchema>;

export const RoundsResponseSchema = z.object({
  current: z.nullable(RoundSchema),
  next: z.nullable(RoundSchema),
  previous: z.nullable(RoundSchema),
  /** The latest ended rounds, newest first (docs/product.md §7/§9: 5). */
  recent: z.array(RoundSchema),
  /** False before the genesis round and after a reset: no round is upcoming, live or locked. */
  started: z.boolean(),
  /** The server's clock: countdowns are computed against it, never the browser's (docs/architecture.md). */
  serverTime: IsoTimeSchema,
});
export type RoundsResponse = z.infer<typeof RoundsResponseSchema>;

export const OracleBetSchema = z.object({
  id: z.int(),
  epoch: z.int(),
  userAddress: AddressSchema,
  position: PositionSchema,
  amountWei: PaymentWeiSchema,
  ...betReturnShape,
  claimed: z.boolean(),
  roundResult: z.nullable(z.enum(['bull', 'bear', 'draw', 'cancelled'])),
  txHash: TxHashSchema,
  createdAt: IsoTimeSchema,
});
export type OracleBet = z.infer<typeof OracleBetSchema>;

export const PlaceOracleBetBodySchema = z.strictObject({
  epoch: z.int().check(z.nonnegative()),
  position: PositionSchema,
  amountWei: PaymentWeiSchema,
  userAddress: AddressSchema,
  txHash: TxHashSchema,
});
export type PlaceOracleBetBody = z.infer<typeof PlaceOracleBetBodySchema>;

export const PlaceOracleBetResponseSchema = z.object({ bet: OracleBetSchema, round: RoundSchema });

import { z } from 'zod';
import {
  AddressSchema,
  IsoTimeSchema,
  PositionSchema,
  TxHashSchema,
  UsdPriceSchema,
  WeiSchema,
} from './primitives.ts';

// Oracle rounds and their bets (spec §3 oracle_rounds/oracle_bets; DESIGN "Oracle rounds").

export const RoundStatusSchema = z.enum(['upcoming', 'live', 'locked', 'ended']);

export const RoundSchema = z.object({
  epoch: z.number().int(),
  status: RoundStatusSchema,
  startTime: IsoTimeSchema,
  lockTime: IsoTimeSchema,
  closeTime: IsoTimeSchema,
  lockPrice: UsdPriceSchema.nullable(),
  closePrice: UsdPriceSchema.nullable(),
  totalUpWei: WeiSchema,
  totalDownWei: WeiSchema,
  upCount: z.number().int(),
  downCount: z.number().int(),
  /** cancelled: a price was missing or stale, every stake is refunded. */
  result: z.enum(['bull', 'bear', 'draw', 'cancelled']).nullable(),
  priceSource: z.string().nullable(),
});
export type Round = z.infer<typeof RoundSchema>;

export const RoundsResponseSchema = z.object({
  current: RoundSchema.nullable(),
  next: RoundSchema.nullable(),
  previous: RoundSchema.nullable(),
  recent: z.array(RoundSchema),
  serverTime: IsoTimeSchema,
});
export type RoundsResponse = z.infer<typeof RoundsResponseSchema>;

export const OracleBetSchema = z.object({
  id: z.number().int(),
  epoch: z.number().int(),
  userAddress: AddressSchema,
  position: PositionSchema,
  amountWei: WeiSchema,
  /** Everything the bet returns (stake + winnings, or the refunded stake); null until the round ends. */
  payoutWei: WeiSchema.nullable(),
  claimed: z.boolean(),
  roundResult: z.enum(['bull', 'bear', 'draw', 'cancelled']).nullable(),
  txHash: TxHashSchema,
  createdAt: IsoTimeSchema,
});
export type OracleBet = z.infer<typeof OracleBetSchema>;

export const PlaceOracleBetBodySchema = z.strictObject({
  epoch: z.number().int().nonnegative(),
  position: PositionSchema,
  amountWei: WeiSchema,
  userAddress: AddressSchema,
  txHash: TxHashSchema,
});
export type PlaceOracleBetBody = z.infer<typeof PlaceOracleBetBodySchema>;

export const PlaceOracleBetResponseSchema = z.object({ bet: OracleBetSchema, round: RoundSchema });

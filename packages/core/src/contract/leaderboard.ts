import * as z from 'zod/mini';
import { LEADERBOARD_LIMIT } from '../constants.ts';
import { AddressSchema, WeiSchema } from './primitives.ts';

export const LeaderboardQuerySchema = z.strictObject({
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(LEADERBOARD_LIMIT))),
});

export const LeaderboardEntrySchema = z.object({
  address: AddressSchema,
  totalWinningsWei: WeiSchema,
  totalBets: z.int(),
  /** Won bets / settled bets, 0..1. */
  winRate: z.number().check(z.minimum(0), z.maximum(1)),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

export const LeaderboardResponseSchema = z.object({ entries: z.array(LeaderboardEntrySchema) });
export type LeaderboardResponse = z.infer<typeof LeaderboardResponseSchema>;

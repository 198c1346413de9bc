import { z } from 'zod';
import { AddressSchema, WeiSchema } from './primitives.ts';

export const LeaderboardQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const LeaderboardEntrySchema = z.object({
  address: AddressSchema,
  totalWinningsWei: WeiSchema,
  totalBets: z.number().int(),
  /** Won bets / settled bets, 0..1. */
  winRate: z.number().min(0).max(1),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

export const LeaderboardResponseSchema = z.object({ entries: z.array(LeaderboardEntrySchema) });
export type LeaderboardResponse = z.infer<typeof LeaderboardResponseSchema>;

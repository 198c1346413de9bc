import { z } from 'zod';

/** What the server pushes on WS /api/realtime: ids only, clients refetch (DESIGN "Scale"). */
export const RealtimeMessageSchema = z.discriminatedUnion('topic', [
  z.object({ topic: z.literal('markets'), id: z.number().int().optional() }),
  z.object({
    topic: z.literal('bets'),
    id: z.number().int().optional(),
    marketId: z.number().int().optional(),
  }),
  z.object({ topic: z.literal('rounds'), id: z.number().int().optional() }),
  z.object({ topic: z.literal('prices') }),
  z.object({ topic: z.literal('vault') }),
  z.object({ topic: z.literal('payouts'), address: z.string().optional() }),
]);
export type RealtimeMessage = z.infer<typeof RealtimeMessageSchema>;
export type RealtimeTopic = RealtimeMessage['topic'];

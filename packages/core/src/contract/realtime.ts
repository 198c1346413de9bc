import * as z from 'zod/mini';

/** What the server pushes on WS /api/realtime: ids only, clients refetch (DESIGN "Scale"). */
export const RealtimeMessageSchema = z.discriminatedUnion('topic', [
  z.object({ topic: z.literal('markets'), id: z.optional(z.int()) }),
  z.object({
    topic: z.literal('bets'),
    id: z.optional(z.int()),
    marketId: z.optional(z.int()),
  }),
  z.object({ topic: z.literal('rounds'), id: z.optional(z.int()) }),
  z.object({ topic: z.literal('prices') }),
  z.object({ topic: z.literal('vault') }),
  z.object({ topic: z.literal('payouts'), address: z.optional(z.string()) }),
]);
export type RealtimeMessage = z.infer<typeof RealtimeMessageSchema>;
export type RealtimeTopic = RealtimeMessage['topic'];

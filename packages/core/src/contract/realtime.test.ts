import { expect, test } from 'vitest';
import { RealtimeMessageSchema } from './realtime.ts';

test('a realtime message is one of the known topics with whole ids', () => {
  expect(RealtimeMessageSchema.parse({ topic: 'bets', id: 3, marketId: 2 })).toEqual({
    topic: 'bets',
    id: 3,
    marketId: 2,
  });
  expect(RealtimeMessageSchema.parse({ topic: 'prices' })).toEqual({ topic: 'prices' });
  expect(RealtimeMessageSchema.safeParse({ topic: 'weather' }).success).toBe(false);
  expect(RealtimeMessageSchema.safeParse({ topic: 'markets', id: 1.5 }).success).toBe(false);
});

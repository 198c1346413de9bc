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

test('a prices message may carry the sample the server just stored, and only a well-formed one', () => {
  const sample = {
    symbol: 'BTC',
    usd: '612.5',
    source: 'simulated',
    updatedAt: '2026-01-01T00:00:00.000Z',
    sampledAt: '2026-01-01T00:00:01.000Z',
  };
  expect(RealtimeMessageSchema.parse({ topic: 'prices', sample })).toEqual({ topic: 'prices', sample });
  expect(
    RealtimeMessageSchema.safeParse({ topic: 'prices', sample: { ...sample, usd: '1e3' } }).success,
  ).toBe(false);
  expect(
    RealtimeMessageSchema.safeParse({ topic: 'prices', sample: { ...sample, source: 'mystery' } }).success,
  ).toBe(false);
  // Every coin is pushed, so a sample names its coin, one of the eight.
  const { symbol: _symbol, ...withoutSymbol } = sample;
  expect(RealtimeMessageSchema.safeParse({ topic: 'prices', sample: withoutSymbol }).success).toBe(false);
  expect(
    RealtimeMessageSchema.safeParse({ topic: 'prices', sample: { ...sample, symbol: 'SHIB' } }).success,
  ).toBe(false);
});

import { expect, test } from 'vitest';
import { priceFromSample } from './get-price.ts';

test('A pushed price sample is the price the server would answer, fresh', () => {
  const sampledAt = '2026-01-01T12:00:01.000Z';
  expect(
    priceFromSample({ symbol: 'BNB', usd: '612.5', source: 'simulated', updatedAt: sampledAt, sampledAt }),
  ).toEqual({
    symbol: 'BNB',
    usd: '612.5',
    source: 'simulated',
    updatedAt: sampledAt,
    stale: false,
  });
});

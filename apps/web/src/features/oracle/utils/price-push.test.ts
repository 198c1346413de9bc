import { describe, expect, test } from 'vitest';
import { addSampleToHistory } from './price-push.ts';

const sample = (usd: string, sampledAt: string) => ({
  symbol: 'BNB' as const,
  usd,
  source: 'simulated' as const,
  updatedAt: sampledAt,
  sampledAt,
});

describe('a pushed price sample', () => {
  test('replaces the last point of its 30 s bucket and starts a new bucket after it', () => {
    const history = { symbol: 'BNB' as const, points: [{ usd: '600', at: '2026-01-01T12:00:02.000Z' }] };
    const same = addSampleToHistory(history, sample('601', '2026-01-01T12:00:29.000Z'));
    expect(same.points).toEqual([{ usd: '601', at: '2026-01-01T12:00:29.000Z' }]);
    const next = addSampleToHistory(same, sample('602', '2026-01-01T12:00:30.000Z'));
    expect(next.points.map((point) => point.usd)).toEqual(['601', '602']);
  });

  test('drops points older than an hour and ignores a sample older than the newest point', () => {
    const history = {
      symbol: 'BNB' as const,
      points: [
        { usd: '590', at: '2026-01-01T11:00:00.000Z' },
        { usd: '600', at: '2026-01-01T12:00:02.000Z' },
      ],
    };
    const later = addSampleToHistory(history, sample('605', '2026-01-01T12:00:40.000Z'));
    expect(later.points.map((point) => point.usd)).toEqual(['600', '605']);
    expect(addSampleToHistory(later, sample('1', '2026-01-01T12:00:39.000Z'))).toBe(later);
  });
});

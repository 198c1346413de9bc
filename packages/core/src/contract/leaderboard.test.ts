import { expect, test } from 'vitest';
import { LeaderboardEntrySchema, LeaderboardQuerySchema } from './leaderboard.ts';

test('the leaderboard limit is coerced from the query string and kept within 1..100', () => {
  expect(LeaderboardQuerySchema.parse({ limit: '100' })).toEqual({ limit: 100 });
  expect(LeaderboardQuerySchema.parse({})).toEqual({});
  for (const limit of ['0', '101', '2.5', 'x']) {
    expect(LeaderboardQuerySchema.safeParse({ limit }).error?.issues[0]?.path, limit).toEqual(['limit']);
  }
});

test('a win rate is a fraction between 0 and 1', () => {
  const entry = { address: `0x${'cd'.repeat(20)}`, totalWinningsWei: '0', totalBets: 3, winRate: 2 / 3 };
  expect(LeaderboardEntrySchema.parse(entry)).toEqual(entry);
  expect(LeaderboardEntrySchema.safeParse({ ...entry, winRate: 1.01 }).success).toBe(false);
  expect(LeaderboardEntrySchema.safeParse({ ...entry, totalBets: 1.5 }).success).toBe(false);
});

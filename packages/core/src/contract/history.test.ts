import { describe, expect, test } from 'vitest';
import { HistoryEntrySchema, SignedWeiSchema } from './history.ts';
import { decodeHistoryCursor, encodeHistoryCursor, HistoryCursorSchema } from './history-query.ts';

describe('history cursors', () => {
  test('a cursor names the microsecond, the game and the id of the last row, and reads back the same', () => {
    const cursor = { atMicros: 1767268800123456n, game: 'oracle' as const, id: 42 };
    const raw = encodeHistoryCursor(cursor);
    expect(raw).toBe('1767268800123456.o42');
    expect(decodeHistoryCursor(raw)).toEqual(cursor);
    expect(decodeHistoryCursor('1.m7')).toEqual({ atMicros: 1n, game: 'markets', id: 7 });
  });

  test('anything else is refused, including ids beyond what the database stores', () => {
    for (const raw of [
      '',
      'abc',
      '1.2',
      '1.x2',
      '1.m0',
      `1.m${2 ** 31}`,
      '-1.m1',
      `${'9'.repeat(19)}.m1`,
      '1.m1.2',
    ]) {
      expect(HistoryCursorSchema.safeParse(raw).success, raw).toBe(false);
    }
  });
});

test('net is a signed whole number of wei; stake is positive', () => {
  for (const ok of ['0', '-1', '42', '-220500000000000000'])
    expect(SignedWeiSchema.safeParse(ok).success).toBe(true);
  for (const bad of ['-0', '01', '1.5', '', '+1'])
    expect(SignedWeiSchema.safeParse(bad).success, bad).toBe(false);
  const entry = {
    game: 'markets',
    betId: 1,
    marketId: 1,
    title: 'T',
    epoch: null,
    side: 'YES',
    stakeWei: '0',
    result: 'pending',
    payoutWei: null,
    netWei: null,
    claimState: 'none',
    placedAt: '2026-01-01T00:00:00.000Z',
    settledAt: null,
    txHash: `0x${'a'.repeat(64)}`,
  };
  expect(HistoryEntrySchema.safeParse(entry).success).toBe(false);
  expect(HistoryEntrySchema.safeParse({ ...entry, stakeWei: '1' }).success).toBe(true);
});

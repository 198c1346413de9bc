import { describe, expect, test } from 'vitest';
import { BOND_FATE_RESULTS, BondFateSchema, HistoryEntrySchema, HistoryResultSchema } from './history.ts';
import { decodeHistoryCursor, encodeHistoryCursor, HistoryCursorSchema } from './history-query.ts';
import { SignedWeiSchema } from './primitives.ts';

describe('history cursors', () => {
  test('a cursor names the microsecond, the game and the id of the last row, and reads back the same', () => {
    const cursor = { atMicros: 1767268800123456n, source: 'oracle' as const, id: 42 };
    const raw = encodeHistoryCursor(cursor);
    expect(raw).toBe('1767268800123456.o42');
    expect(decodeHistoryCursor(raw)).toEqual(cursor);
    expect(decodeHistoryCursor('1.m7')).toEqual({ atMicros: 1n, source: 'markets', id: 7 });
    // A flag bond's row.
    const bond = { atMicros: 1767268800123457n, source: 'bonds' as const, id: 3 };
    expect(encodeHistoryCursor(bond)).toBe('1767268800123457.b3');
    expect(decodeHistoryCursor('1767268800123457.b3')).toEqual(bond);
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
      '1.f2',
      '1.B2',
    ]) {
      expect(HistoryCursorSchema.safeParse(raw).success, raw).toBe(false);
    }
  });
});

test('profit is a signed whole number of wei; stake is positive', () => {
  for (const ok of ['0', '-1', '42', '-220500000000000000'])
    expect(SignedWeiSchema.safeParse(ok).success).toBe(true);
  for (const bad of ['-0', '01', '1.5', '', '+1'])
    expect(SignedWeiSchema.safeParse(bad).success, bad).toBe(false);
  const entry = {
    kind: 'bet',
    game: 'markets',
    betId: 1,
    marketId: 1,
    title: 'T',
    epoch: null,
    side: 'YES',
    stakeWei: '0',
    result: 'pending',
    returnWei: null,
    profitWei: null,
    claimState: 'none',
    placedAt: '2026-01-01T00:00:00.000Z',
    settledAt: null,
    txHash: `0x${'a'.repeat(64)}`,
    bond: null,
  };
  expect(HistoryEntrySchema.safeParse(entry).success).toBe(false);
  expect(HistoryEntrySchema.safeParse({ ...entry, stakeWei: '1' }).success).toBe(true);
  // A bond entry says what became of the bond.
  const bond = {
    ...entry,
    kind: 'bond',
    stakeWei: '10000000000000000',
    result: 'won',
    returnWei: '10200000000000000',
    profitWei: '200000000000000',
    claimState: 'claimable',
    bond: { fate: 'returned', rewardWei: '200000000000000', refundState: 'none' },
  };
  expect(HistoryEntrySchema.safeParse(bond).success).toBe(true);
  // The retired vault's states are gone (decision 028): a bond is paid back by the escrow or not yet.
  expect(HistoryEntrySchema.safeParse({ ...bond, claimState: 'paying' }).success).toBe(false);
  expect(HistoryEntrySchema.safeParse({ ...bond, bond: { ...bond.bond, refundState: 'due' } }).success).toBe(
    false,
  );
  expect(HistoryEntrySchema.safeParse({ ...bond, bond: { ...bond.bond, fate: 'lost' } }).success).toBe(false);
  expect(HistoryEntrySchema.safeParse({ ...bond, kind: 'flag' }).success).toBe(false);
});

test("every bond fate reads as one of a bet's results", () => {
  expect(Object.keys(BOND_FATE_RESULTS).sort()).toEqual([...BondFateSchema.options].sort());
  for (const result of Object.values(BOND_FATE_RESULTS))
    expect(HistoryResultSchema.safeParse(result).success).toBe(true);
});

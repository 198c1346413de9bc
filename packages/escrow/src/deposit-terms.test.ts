import { describe, expect, it } from 'vitest';
import {
  type DepositTerms,
  depositArgs,
  depositTerms,
  flagBondTerms,
  marketBetTerms,
  marketClosesAt,
  marketCreateTerms,
  newMarketId,
  roundDepositTerms,
  roundMarketId,
} from './deposit-terms.ts';

const market = `0x${'ab'.repeat(32)}` as const;
const contentHash = `0x${'cd'.repeat(32)}` as const;
const closesAt = 1_790_000_000;

function roundTrip(terms: DepositTerms) {
  const [m, c, kind, side, t] = depositArgs(terms);
  return depositTerms({ market: m, closesAt: c, kind, side, terms: t });
}

describe('deposit terms', () => {
  it('reads back every kind the app sends', () => {
    const all: DepositTerms[] = [
      { kind: 'create', market, closesAt, contentHash, prediction: 'NO' },
      { kind: 'bet', market, closesAt, prediction: 'YES' },
      { kind: 'round', market: roundMarketId(7), closesAt, position: 'bear' },
      { kind: 'flag', market, closesAt },
    ];
    for (const terms of all) expect(roundTrip(terms)).toEqual(terms);
  });

  it('refuses what the app never sends', () => {
    const zero = `0x${'0'.repeat(64)}` as const;
    expect(depositTerms({ market, closesAt, kind: 0, side: 1, terms: zero })).toBeNull();
    expect(depositTerms({ market, closesAt, kind: 9, side: 1, terms: zero })).toBeNull();
    expect(depositTerms({ market, closesAt, kind: 2, side: 3, terms: zero })).toBeNull();
    expect(depositTerms({ market, closesAt, kind: 2, side: 1, terms: contentHash })).toBeNull();
    expect(depositTerms({ market, closesAt, kind: 1, side: 1, terms: zero })).toBeNull();
    expect(depositTerms({ market, closesAt, kind: 4, side: 1, terms: zero })).toBeNull();
    expect(depositTerms({ market: '0x12', closesAt, kind: 2, side: 1, terms: zero })).toBeNull();
  });

  it('derives one id per round and fresh ids for creations', () => {
    expect(roundMarketId(5)).toBe(roundMarketId(5));
    expect(roundMarketId(5)).not.toBe(roundMarketId(6));
    expect(newMarketId()).toMatch(/^0x[0-9a-f]{64}$/);
    expect(newMarketId()).not.toBe(newMarketId());
    expect(() => roundMarketId(0)).toThrow(RangeError);
  });

  it('refuses a close that is not unix seconds', () => {
    expect(() => depositArgs({ kind: 'bet', market, closesAt: 1.5, prediction: 'YES' })).toThrow(RangeError);
    expect(() => depositArgs({ kind: 'bet', market, closesAt: 2 ** 40, prediction: 'YES' })).toThrow(
      RangeError,
    );
  });
});

describe('roundDepositTerms', () => {
  it("is the round's id, its lock as the close and the side", () => {
    expect(roundDepositTerms(12, closesAt, 'bull')).toEqual({
      kind: 'round',
      market: roundMarketId(12),
      closesAt,
      position: 'bull',
    });
  });
});

describe('flagBondTerms', () => {
  it("is the market's own key, kind flag, no side, no terms", () => {
    const upper = `0x${'AB'.repeat(32)}` as const;
    expect(flagBondTerms({ escrowId: upper, closesAt })).toEqual({ kind: 'flag', market, closesAt });
    const [m, c, kind, side, terms] = depositArgs(flagBondTerms({ escrowId: market, closesAt }));
    expect([m, c, kind, side, terms]).toEqual([market, closesAt, 4, 0, `0x${'0'.repeat(64)}`]);
  });

  it('refuses an id that is not 32 bytes', () => {
    expect(() => flagBondTerms({ escrowId: '0x12', closesAt })).toThrow(RangeError);
  });
});

describe('marketBetTerms and marketCreateTerms', () => {
  it("is the market's escrow id and close, and the side, in lower case", () => {
    const upper = `0x${'AB'.repeat(32)}` as const;
    expect(marketBetTerms({ escrowId: upper, closesAt }, 'NO')).toEqual({
      kind: 'bet',
      market,
      closesAt,
      prediction: 'NO',
    });
    expect(roundTrip(marketBetTerms({ escrowId: market, closesAt }, 'YES'))).toEqual(
      marketBetTerms({ escrowId: market, closesAt }, 'YES'),
    );
  });

  it('a creation commits to its content hash and reads back as it was sent', () => {
    const terms = marketCreateTerms({ escrowId: market, closesAt, contentHash, prediction: 'YES' });
    expect(terms).toEqual({ kind: 'create', market, closesAt, contentHash, prediction: 'YES' });
    expect(roundTrip(terms)).toEqual(terms);
  });

  it('refuses an id or a hash that is not 32 bytes', () => {
    expect(() => marketBetTerms({ escrowId: '0x12', closesAt }, 'YES')).toThrow(RangeError);
    expect(() =>
      marketCreateTerms({ escrowId: market, closesAt, contentHash: '0x1234', prediction: 'NO' }),
    ).toThrow(RangeError);
  });
});

describe('marketClosesAt', () => {
  it('is the deadline in whole unix seconds, a stored fraction rounded down', () => {
    expect(marketClosesAt(new Date(closesAt * 1000))).toBe(closesAt);
    expect(marketClosesAt(new Date(closesAt * 1000 + 999))).toBe(closesAt);
    expect(marketClosesAt(new Date(0))).toBe(0);
  });
});

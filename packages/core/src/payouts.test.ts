import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseBnb } from './money.ts';
import {
  computeMarketPayouts,
  computeRoundPayouts,
  estimateRoundWinWei,
  marketWinReturnWei,
  roundRefundReason,
  type StakeEntry,
} from './payouts.ts';

const bnb = parseBnb;

function returnsById(payouts: ReadonlyArray<{ id: string | number; returnWei: bigint }>) {
  return Object.fromEntries(payouts.map((payout) => [String(payout.id), payout.returnWei]));
}

function sumOf(values: ReadonlyArray<bigint>): bigint {
  return values.reduce((sum, value) => sum + value, 0n);
}

// Stakes up to ~10^24 wei (a million BNB), with small ones mixed in so rounding is exercised.
const stakeArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 10n ** 24n }));
const feeArb = fc.integer({ min: 0, max: 1000 });

function betsArb<S extends string>(sides: readonly [S, S]): fc.Arbitrary<Array<StakeEntry<S, number>>> {
  return fc
    .array(fc.record({ side: fc.constantFrom(...sides), amountWei: stakeArb }), {
      minLength: 1,
      maxLength: 50,
    })
    .map((bets) => bets.map((bet, index) => ({ id: index + 1, ...bet })));
}

describe('computeMarketPayouts', () => {
  test('winners split the losing pool in proportion to their stakes', () => {
    const computed = computeMarketPayouts({
      bets: [
        { id: 'a', side: 'YES', amountWei: bnb('1') },
        { id: 'b', side: 'YES', amountWei: bnb('3') },
        { id: 'c', side: 'NO', amountWei: bnb('2') },
      ],
      result: 'YES',
      feeBps: 0,
    });
    expect(computed).toEqual({
      refund: false,
      payouts: [
        { id: 'a', returnWei: bnb('1.5'), profitWei: bnb('0.5') },
        { id: 'b', returnWei: bnb('4.5'), profitWei: bnb('1.5') },
      ],
      feeWei: 0n,
      dustWei: 0n,
      poolWei: bnb('6'),
    });
  });

  test('the fee is taken from the losing pool before winners share it', () => {
    const computed = computeMarketPayouts({
      bets: [
        { id: 1, side: 'NO', amountWei: bnb('1') },
        { id: 2, side: 'NO', amountWei: bnb('3') },
        { id: 3, side: 'YES', amountWei: bnb('2') },
      ],
      result: 'NO',
      feeBps: 500,
    });
    // Losing pool 2 BNB, 5% fee = 0.1 BNB, 1.9 BNB shared 1:3.
    expect(computed.feeWei).toBe(bnb('0.1'));
    expect(returnsById(computed.payouts)).toEqual({ 1: bnb('1.475'), 2: bnb('4.425') });
    expect(computed.dustWei).toBe(0n);
  });

  test('rounding down leaves dust in the escrow', () => {
    const computed = computeMarketPayouts({
      bets: [
        { id: 1, side: 'YES', amountWei: 1n },
        { id: 2, side: 'YES', amountWei: 2n },
        { id: 3, side: 'NO', amountWei: 10n },
      ],
      result: 'YES',
      feeBps: 0,
    });
    // 1 + floor(10/3) = 4 and 2 + floor(20/3) = 8: 12 of 13 wei paid, 1 wei of dust.
    expect(returnsById(computed.payouts)).toEqual({ 1: 4n, 2: 8n });
    expect(computed.dustWei).toBe(1n);
  });

  test('a fee that rounds to zero leaves the whole losing pool to the winners', () => {
    const computed = computeMarketPayouts({
      bets: [
        { id: 1, side: 'YES', amountWei: 3n },
        { id: 2, side: 'NO', amountWei: 7n },
      ],
      result: 'YES',
      feeBps: 1000,
    });
    // 10% of 7 wei floors to 0, so the winner takes all 10 wei.
    expect(computed).toMatchObject({
      feeWei: 0n,
      dustWei: 0n,
      payouts: [{ id: 1, returnWei: 10n, profitWei: 7n }],
    });
  });

  test('a void market refunds every stake and charges no fee', () => {
    const bets: Array<StakeEntry<'YES' | 'NO', number>> = [
      { id: 1, side: 'YES', amountWei: 5n },
      { id: 2, side: 'NO', amountWei: 7n },
    ];
    expect(computeMarketPayouts({ bets, result: 'VOID', feeBps: 1000 })).toEqual({
      refund: true,
      payouts: [
        { id: 1, returnWei: 5n, profitWei: 0n },
        { id: 2, returnWei: 7n, profitWei: 0n },
      ],
      feeWei: 0n,
      dustWei: 0n,
      poolWei: 12n,
    });
  });

  test('a market with no bet on the winning side refunds every stake', () => {
    const computed = computeMarketPayouts({
      bets: [{ id: 1, side: 'NO', amountWei: 5n }],
      result: 'YES',
      feeBps: 500,
    });
    expect(computed.refund).toBe(true);
    expect(computed.payouts).toEqual([{ id: 1, returnWei: 5n, profitWei: 0n }]);
  });

  test('a market without bets pays nothing', () => {
    expect(computeMarketPayouts({ bets: [], result: 'NO', feeBps: 0 })).toEqual({
      refund: true,
      payouts: [],
      feeWei: 0n,
      dustWei: 0n,
      poolWei: 0n,
    });
  });

  test('stakes must be positive and the fee a whole number of bps', () => {
    expect(() =>
      computeMarketPayouts({ bets: [{ id: 1, side: 'YES', amountWei: 0n }], result: 'YES', feeBps: 0 }),
    ).toThrow(RangeError);
    expect(() =>
      computeMarketPayouts({ bets: [{ id: 1, side: 'YES', amountWei: -1n }], result: 'VOID', feeBps: 0 }),
    ).toThrow(RangeError);
    expect(() => computeMarketPayouts({ bets: [], result: 'YES', feeBps: 10_001 })).toThrow(RangeError);
  });

  test('payouts never exceed the pool and account for it exactly', () => {
    fc.assert(
      fc.property(betsArb(['YES', 'NO']), fc.constantFrom('YES', 'NO'), feeArb, (bets, result, feeBps) => {
        const computed = computeMarketPayouts({ bets, result, feeBps });
        const paid = sumOf(computed.payouts.map((payout) => payout.returnWei));
        const winners = bets.filter((bet) => bet.side === result);
        expect(computed.poolWei).toBe(sumOf(bets.map((bet) => bet.amountWei)));
        expect(paid <= computed.poolWei).toBe(true);
        expect(paid).toBe(computed.poolWei - computed.feeWei - computed.dustWei);
        expect(computed.dustWei >= 0n).toBe(true);
        if (computed.refund) {
          expect(computed.dustWei).toBe(0n);
          expect(computed.feeWei).toBe(0n);
        } else {
          expect(computed.dustWei < BigInt(winners.length)).toBe(true);
          const losingPool = computed.poolWei - sumOf(winners.map((bet) => bet.amountWei));
          expect(computed.feeWei).toBe((losingPool * BigInt(feeBps)) / 10_000n);
        }
      }),
    );
  });

  test('every winner gets at least its stake back, and only winners are paid', () => {
    fc.assert(
      fc.property(betsArb(['YES', 'NO']), fc.constantFrom('YES', 'NO'), feeArb, (bets, result, feeBps) => {
        const computed = computeMarketPayouts({ bets, result, feeBps });
        if (computed.refund) return;
        const stakeById = new Map(bets.map((bet) => [bet.id, bet]));
        expect(computed.payouts.map((payout) => payout.id)).toEqual(
          bets.filter((bet) => bet.side === result).map((bet) => bet.id),
        );
        for (const payout of computed.payouts) {
          const stake = stakeById.get(payout.id)?.amountWei ?? 0n;
          expect(typeof payout.returnWei).toBe('bigint');
          expect(payout.returnWei >= stake).toBe(true);
          expect(payout.profitWei).toBe(payout.returnWei - stake);
        }
      }),
    );
  });

  test('each winner gets the exact-rate share or at most one wei more', () => {
    // The brief's formula applies (1 − fee) inside each share; taking the fee first can only add
    // the fee's rounding (< 1 wei) back to the winners.
    fc.assert(
      fc.property(betsArb(['YES', 'NO']), fc.constantFrom('YES', 'NO'), feeArb, (bets, result, feeBps) => {
        const computed = computeMarketPayouts({ bets, result, feeBps });
        if (computed.refund) return;
        const winning = sumOf(bets.filter((bet) => bet.side === result).map((bet) => bet.amountWei));
        const losing = computed.poolWei - winning;
        for (const payout of computed.payouts) {
          const stake = bets.find((bet) => bet.id === payout.id)?.amountWei ?? 0n;
          const exactRate = stake + (stake * losing * BigInt(10_000 - feeBps)) / (winning * 10_000n);
          expect(payout.returnWei - exactRate >= 0n && payout.returnWei - exactRate <= 1n).toBe(true);
        }
      }),
    );
  });

  test('refunds restore every stake exactly', () => {
    fc.assert(
      fc.property(betsArb(['YES', 'NO']), feeArb, (bets, feeBps) => {
        const computed = computeMarketPayouts({ bets, result: 'VOID', feeBps });
        expect(computed.payouts).toEqual(
          bets.map((bet) => ({ id: bet.id, returnWei: bet.amountWei, profitWei: 0n })),
        );
      }),
    );
  });

  test('a larger winning stake never returns less than a smaller one', () => {
    fc.assert(
      fc.property(betsArb(['YES', 'NO']), fc.constantFrom('YES', 'NO'), feeArb, (bets, result, feeBps) => {
        const computed = computeMarketPayouts({ bets, result, feeBps });
        const stakeOf = (id: number) => bets.find((bet) => bet.id === id)?.amountWei ?? 0n;
        for (const a of computed.payouts) {
          for (const b of computed.payouts) {
            if (stakeOf(a.id) > stakeOf(b.id)) expect(a.returnWei >= b.returnWei).toBe(true);
          }
        }
      }),
    );
  });
});

describe('marketWinReturnWei', () => {
  test('matches the settled payout of the same stake', () => {
    expect(marketWinReturnWei(bnb('1'), bnb('4'), bnb('2'), 500)).toBe(bnb('1.475'));
  });

  test('rejects a stake larger than its own pool', () => {
    expect(() => marketWinReturnWei(5n, 4n, 1n, 0)).toThrow(RangeError);
    expect(() => marketWinReturnWei(0n, 4n, 1n, 0)).toThrow(RangeError);
  });
});

describe('computeRoundPayouts', () => {
  test('winners share the whole pool after the fee, pro rata', () => {
    const computed = computeRoundPayouts({
      bets: [
        { id: 'a', side: 'bull', amountWei: bnb('1') },
        { id: 'b', side: 'bull', amountWei: bnb('3') },
        { id: 'c', side: 'bear', amountWei: bnb('4') },
      ],
      result: 'bull',
      feeBps: 300,
    });
    // Pool 8 BNB, 3% fee = 0.24 BNB, 7.76 BNB shared 1:3.
    expect(computed).toEqual({
      refund: false,
      payouts: [
        { id: 'a', returnWei: bnb('1.94'), profitWei: bnb('0.94') },
        { id: 'b', returnWei: bnb('5.82'), profitWei: bnb('2.82') },
      ],
      feeWei: bnb('0.24'),
      dustWei: 0n,
      poolWei: bnb('8'),
    });
  });

  test('a fee larger than the losing pool can return less than the stake', () => {
    const computed = computeRoundPayouts({
      bets: [
        { id: 1, side: 'bull', amountWei: 100n },
        { id: 2, side: 'bear', amountWei: 1n },
      ],
      result: 'bull',
      feeBps: 1000,
    });
    expect(computed.payouts).toEqual([{ id: 1, returnWei: 91n, profitWei: -9n }]);
    expect(computed.feeWei).toBe(10n);
  });

  test('a draw, a cancelled round or a round without winners refunds every stake', () => {
    const bets: Array<StakeEntry<'bull' | 'bear', number>> = [
      { id: 1, side: 'bull', amountWei: 5n },
      { id: 2, side: 'bull', amountWei: 7n },
    ];
    for (const result of ['draw', 'cancelled', 'bear'] as const) {
      const computed = computeRoundPayouts({ bets, result, feeBps: 300 });
      expect(computed.refund, result).toBe(true);
      expect(computed.payouts, result).toEqual([
        { id: 1, returnWei: 5n, profitWei: 0n },
        { id: 2, returnWei: 7n, profitWei: 0n },
      ]);
      expect(computed.feeWei, result).toBe(0n);
    }
  });

  test('payouts never exceed the pool and account for it exactly', () => {
    fc.assert(
      fc.property(
        betsArb(['bull', 'bear']),
        fc.constantFrom('bull', 'bear'),
        feeArb,
        (bets, result, feeBps) => {
          const computed = computeRoundPayouts({ bets, result, feeBps });
          const paid = sumOf(computed.payouts.map((payout) => payout.returnWei));
          const winners = bets.filter((bet) => bet.side === result);
          expect(paid <= computed.poolWei).toBe(true);
          expect(paid).toBe(computed.poolWei - computed.feeWei - computed.dustWei);
          expect(computed.dustWei >= 0n).toBe(true);
          if (!computed.refund) {
            expect(computed.dustWei < BigInt(winners.length)).toBe(true);
            expect(computed.feeWei).toBe((computed.poolWei * BigInt(feeBps)) / 10_000n);
          }
        },
      ),
    );
  });

  test('refunds restore every stake exactly', () => {
    fc.assert(
      fc.property(
        betsArb(['bull', 'bear']),
        fc.constantFrom('draw', 'cancelled'),
        feeArb,
        (bets, result, feeBps) => {
          const computed = computeRoundPayouts({ bets, result, feeBps });
          expect(computed.payouts).toEqual(
            bets.map((bet) => ({ id: bet.id, returnWei: bet.amountWei, profitWei: 0n })),
          );
          expect(computed.dustWei + computed.feeWei).toBe(0n);
        },
      ),
    );
  });

  test('a larger winning stake never returns less than a smaller one', () => {
    fc.assert(
      fc.property(
        betsArb(['bull', 'bear']),
        fc.constantFrom('bull', 'bear'),
        feeArb,
        (bets, result, feeBps) => {
          const computed = computeRoundPayouts({ bets, result, feeBps });
          const stakeOf = (id: number) => bets.find((bet) => bet.id === id)?.amountWei ?? 0n;
          for (const a of computed.payouts) {
            for (const b of computed.payouts) {
              if (stakeOf(a.id) > stakeOf(b.id)) expect(a.returnWei >= b.returnWei).toBe(true);
            }
          }
        },
      ),
    );
  });
});

describe('estimateRoundWinWei', () => {
  test('adds the stake to its side and the pool, fee first', () => {
    // UP 1 BNB + my 1 BNB against DOWN 1 BNB: pool 3, 10% fee → 2.7 shared over UP's 2 → 1.35 BNB.
    expect(
      estimateRoundWinWei({
        stakeWei: bnb('1'),
        side: 'bull',
        totalBullWei: bnb('1'),
        totalBearWei: bnb('1'),
        feeBps: 1000,
      }),
    ).toBe(bnb('1.35'));
  });

  test('a bet on an empty round gets its stake back', () => {
    expect(
      estimateRoundWinWei({ stakeWei: 100n, side: 'bear', totalBullWei: 0n, totalBearWei: 0n, feeBps: 0 }),
    ).toBe(100n);
  });

  test('a zero stake returns nothing', () => {
    expect(
      estimateRoundWinWei({ stakeWei: 0n, side: 'bull', totalBullWei: 5n, totalBearWei: 9n, feeBps: 0 }),
    ).toBe(0n);
  });

  test('the estimate equals what computeRoundPayouts pays that bet once placed, if its side wins', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ side: fc.constantFrom('bull', 'bear'), amountWei: stakeArb }), {
          maxLength: 20,
        }),
        stakeArb,
        fc.constantFrom('bull', 'bear'),
        feeArb,
        (others, stakeWei, side, feeBps) => {
          const totalOf = (s: 'bull' | 'bear') =>
            sumOf(others.filter((bet) => bet.side === s).map((bet) => bet.amountWei));
          const estimate = estimateRoundWinWei({
            stakeWei,
            side,
            totalBullWei: totalOf('bull'),
            totalBearWei: totalOf('bear'),
            feeBps,
          });
          const settled = computeRoundPayouts({
            bets: [
              ...others.map((bet, index) => ({ id: `other-${index}`, ...bet })),
              { id: 'me', side, amountWei: stakeWei },
            ],
            result: side,
            feeBps,
          });
          expect(settled.refund).toBe(false);
          expect(settled.payouts.find((payout) => payout.id === 'me')?.returnWei).toBe(estimate);
        },
      ),
    );
  });
});

describe('roundRefundReason', () => {
  test('a cancelled round, a draw and a round without a winning bet refund; paid winners do not', () => {
    const pools = { bullWei: 5n, bearWei: 0n };
    expect(roundRefundReason('cancelled', pools)).toBe('cancelled');
    expect(roundRefundReason('draw', pools)).toBe('draw');
    expect(roundRefundReason('bear', pools)).toBe('no_winning_bet');
    expect(roundRefundReason('bull', pools)).toBeNull();
    expect(roundRefundReason(null, pools)).toBeNull();
  });

  test('a round refunds exactly when computeRoundPayouts refunds it', () => {
    fc.assert(
      fc.property(
        betsArb(['bull', 'bear']),
        fc.constantFrom('bull', 'bear', 'draw', 'cancelled'),
        feeArb,
        (bets, result, feeBps) => {
          const totalOf = (s: 'bull' | 'bear') =>
            sumOf(bets.filter((bet) => bet.side === s).map((bet) => bet.amountWei));
          const reason = roundRefundReason(result, { bullWei: totalOf('bull'), bearWei: totalOf('bear') });
          expect(reason !== null).toBe(computeRoundPayouts({ bets, result, feeBps }).refund);
        },
      ),
    );
  });
});

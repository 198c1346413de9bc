import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeBondedMarketPayouts, flagBondWei, settleFlagBonds } from './flag-bonds.ts';
import { parseBnb } from './money.ts';
import type { StakeEntry } from './payouts.ts';

const bnb = parseBnb;

function sumOf(values: ReadonlyArray<bigint>): bigint {
  return values.reduce((sum, value) => sum + value, 0n);
}

const stakeArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 10n ** 24n }));
const resultArb = fc.constantFrom('YES' as const, 'NO' as const, 'VOID' as const);
const betsArb: fc.Arbitrary<Array<StakeEntry<'YES' | 'NO', number>>> = fc
  .array(fc.record({ side: fc.constantFrom('YES' as const, 'NO' as const), amountWei: stakeArb }), {
    minLength: 1,
    maxLength: 30,
  })
  .map((bets) => bets.map((bet, index) => ({ id: index + 1, ...bet })));
const bondsArb = fc
  .array(stakeArb, { maxLength: 5 })
  .map((amounts) => amounts.map((amountWei, index) => ({ id: index + 1, amountWei })));

describe('flagBondWei', () => {
  test('is the minimum for a small pool and the share of a large one', () => {
    expect(flagBondWei({ poolWei: bnb('0.1'), minWei: bnb('0.01'), bps: 500 })).toBe(bnb('0.01'));
    expect(flagBondWei({ poolWei: bnb('10'), minWei: bnb('0.01'), bps: 500 })).toBe(bnb('0.5'));
    expect(flagBondWei({ poolWei: 0n, minWei: 1n, bps: 0 })).toBe(1n);
  });

  test('is never below the minimum nor the share, and never more than the larger of them', () => {
    fc.assert(
      fc.property(stakeArb, stakeArb, fc.integer({ min: 0, max: 10_000 }), (poolWei, minWei, bps) => {
        const bond = flagBondWei({ poolWei, minWei, bps });
        const share = (poolWei * BigInt(bps)) / 10_000n;
        expect(bond >= minWei && bond >= share).toBe(true);
        expect(bond === minWei || bond === share).toBe(true);
      }),
    );
  });

  test('refuses a bad rate or a minimum of nothing', () => {
    expect(() => flagBondWei({ poolWei: 1n, minWei: 0n, bps: 500 })).toThrow(RangeError);
    expect(() => flagBondWei({ poolWei: 1n, minWei: 1n, bps: 10_001 })).toThrow(RangeError);
  });
});

describe('settleFlagBonds', () => {
  const bonds = [
    { id: 'a', amountWei: bnb('0.01') },
    { id: 'b', amountWei: bnb('0.03') },
  ];

  test('an overturned verdict returns every bond with the fee, up to the bonds, shared pro rata', () => {
    const settled = settleFlagBonds({
      bonds,
      proposedResult: 'YES',
      outcome: 'NO',
      winningPoolWei: bnb('1'),
      feeWei: bnb('0.02'),
    });
    expect(settled.fate).toBe('returned');
    expect(settled.bonds.map((bond) => [bond.id, bond.returnWei, bond.rewardWei])).toEqual([
      ['a', bnb('0.015'), bnb('0.005')],
      ['b', bnb('0.045'), bnb('0.015')],
    ]);
    expect(settled.rewardWei).toBe(bnb('0.02'));
    // A fee larger than the bonds rewards at most the bonds: an honest flag at most doubles.
    const capped = settleFlagBonds({
      bonds,
      proposedResult: 'YES',
      outcome: 'NO',
      winningPoolWei: 1n,
      feeWei: bnb('5'),
    });
    expect(capped.rewardWei).toBe(bnb('0.04'));
  });

  test('a confirmed verdict forfeits every bond to the winners', () => {
    const settled = settleFlagBonds({
      bonds,
      proposedResult: 'NO',
      outcome: 'NO',
      winningPoolWei: 1n,
      feeWei: 0n,
    });
    expect(settled.fate).toBe('forfeited');
    expect(settled.forfeitedWei).toBe(bnb('0.04'));
    expect(settled.bonds.every((bond) => bond.returnWei === 0n)).toBe(true);
  });

  test('a refunded market returns every bond without reward', () => {
    for (const [outcome, winningPoolWei] of [
      ['VOID', 0n],
      ['NO', 0n],
    ] as const) {
      const settled = settleFlagBonds({ bonds, proposedResult: 'NO', outcome, winningPoolWei, feeWei: 0n });
      expect(settled.fate).toBe('returned_void');
      expect(settled.bonds.map((bond) => bond.returnWei)).toEqual([bnb('0.01'), bnb('0.03')]);
    }
  });

  test('no bond, no fate', () => {
    expect(
      settleFlagBonds({ bonds: [], proposedResult: 'YES', outcome: 'NO', winningPoolWei: 1n, feeWei: 9n }),
    ).toEqual({
      fate: null,
      bonds: [],
      forfeitedWei: 0n,
      rewardWei: 0n,
    });
  });
});

describe('computeBondedMarketPayouts', () => {
  test('a confirmed verdict pays the forfeited bond to the winners, pro rata, to the wei', () => {
    const settled = computeBondedMarketPayouts({
      bets: [
        { id: 1, side: 'YES', amountWei: bnb('1') },
        { id: 2, side: 'YES', amountWei: bnb('3') },
        { id: 3, side: 'NO', amountWei: bnb('2') },
      ],
      bonds: [{ id: 9, amountWei: bnb('0.4') }],
      proposedResult: 'YES',
      result: 'YES',
      feeBps: 0,
    });
    // Winners share losing 2 + bond 0.4 = 2.4: 0.6 and 1.8.
    expect(settled.bets.payouts.map((payout) => payout.returnWei)).toEqual([bnb('1.6'), bnb('4.8')]);
    expect(settled.bonds.fate).toBe('forfeited');
    expect(settled.dustWei).toBe(0n);
  });

  test('everything paid out, returned and kept equals the pools plus the bonds, to the wei', () => {
    fc.assert(
      fc.property(
        betsArb,
        bondsArb,
        resultArb,
        resultArb,
        fc.integer({ min: 0, max: 1000 }),
        (bets, bonds, proposedResult, result, feeBps) => {
          const settled = computeBondedMarketPayouts({ bets, bonds, proposedResult, result, feeBps });
          const pool = sumOf(bets.map((bet) => bet.amountWei));
          const bondsWei = sumOf(bonds.map((bond) => bond.amountWei));
          const paid = sumOf(settled.bets.payouts.map((payout) => payout.returnWei));
          const returned = sumOf(settled.bonds.bonds.map((bond) => bond.returnWei));
          expect(paid + returned + settled.feeKeptWei + settled.dustWei).toBe(pool + bondsWei);
          expect(settled.feeKeptWei >= 0n).toBe(true);
          expect(settled.dustWei >= 0n).toBe(true);
          // Rounding leaves less than a wei per winner and per rewarded bond.
          expect(settled.dustWei < BigInt(settled.bets.payouts.length + bonds.length + 1)).toBe(true);
          // A bond is returned in full or forfeited whole; it is never partly lost.
          for (const bond of settled.bonds.bonds) {
            expect(bond.returnWei === 0n || bond.returnWei >= bond.bondWei).toBe(true);
          }
          // The reward never exceeds the bonds nor the fee.
          expect(settled.bonds.rewardWei <= bondsWei && settled.bonds.rewardWei <= settled.bets.feeWei).toBe(
            true,
          );
        },
      ),
    );
  });

  test('winners never get less with a forfeited bond than without one', () => {
    fc.assert(
      fc.property(
        betsArb,
        bondsArb,
        fc.constantFrom('YES' as const, 'NO' as const),
        fc.integer({ min: 0, max: 1000 }),
        (bets, bonds, result, feeBps) => {
          const without = computeBondedMarketPayouts({
            bets,
            bonds: [],
            proposedResult: result,
            result,
            feeBps,
          });
          const withBonds = computeBondedMarketPayouts({
            bets,
            bonds,
            proposedResult: result,
            result,
            feeBps,
          });
          const before = new Map(without.bets.payouts.map((payout) => [payout.id, payout.returnWei]));
          for (const payout of withBonds.bets.payouts) {
            expect(payout.returnWei >= (before.get(payout.id) ?? 0n)).toBe(true);
          }
        },
      ),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { betReturn, betReturnFields, claimableBetReturnWei, marketWinningsWei } from './bet-return.ts';
import { betReturnShape } from './contract/bet-return.ts';
import { parseBnb } from './money.ts';
import { computeMarketPayouts, computeRoundPayouts } from './payouts.ts';

const bnb = parseBnb;

describe('betReturn', () => {
  test('a win returns stake and share, a refund the stake, a loss nothing', () => {
    expect(betReturn(bnb('1'), bnb('1.75'))).toEqual({ returnWei: bnb('1.75'), profitWei: bnb('0.75') });
    expect(betReturn(bnb('1'), bnb('1'))).toEqual({ returnWei: bnb('1'), profitWei: 0n });
    expect(betReturn(bnb('1'), 0n)).toEqual({ returnWei: 0n, profitWei: -bnb('1') });
  });

  test('a bet not settled has neither a return nor a profit', () => {
    expect(betReturn(bnb('1'), null)).toBeNull();
    expect(betReturnFields(bnb('1'), null)).toEqual({ returnWei: null, profitWei: null });
  });

  test('on the wire both are decimal strings, the profit signed, and the contract accepts them', () => {
    const loss = betReturnFields(bnb('0.5'), 0n);
    expect(loss).toEqual({ returnWei: '0', profitWei: '-500000000000000000' });
    expect(betReturnShape.returnWei.safeParse(loss.returnWei).success).toBe(true);
    expect(betReturnShape.profitWei.safeParse(loss.profitWei).success).toBe(true);
    expect(betReturnShape.returnWei.safeParse('-1').success).toBe(false);
    for (const bad of ['-0', '+1', '01', '1.5', ''])
      expect(betReturnShape.profitWei.safeParse(bad).success, bad).toBe(false);
  });
});

/** Bets of one game on two sides, at least one, each stake positive. */
const stakes = <S extends string>(sides: readonly [S, S]) =>
  fc.array(
    fc.record({ side: fc.constantFrom(...sides), amountWei: fc.bigInt({ min: 1n, max: 10n ** 24n }) }),
    { minLength: 1, maxLength: 12 },
  );

describe('what settlement stores, read back as return and profit', () => {
  test('market bets: return = stake + profit; profit is −stake exactly on a loss, 0 on a refund, ≥ 0 on a win', () => {
    fc.assert(
      fc.property(
        stakes(['YES', 'NO'] as const),
        fc.constantFrom('YES', 'NO', 'VOID'),
        fc.integer({ min: 0, max: 10_000 }),
        (drawn, result, feeBps) => {
          const bets = drawn.map((bet, id) => ({ id, ...bet }));
          const settled = computeMarketPayouts({ bets, result, feeBps });
          for (const bet of bets) {
            // payout_amount as settle-market writes it: the computed return, 0 for a loser.
            const stored = settled.payouts.find((payout) => payout.id === bet.id)?.returnWei ?? 0n;
            const read = betReturn(bet.amountWei, stored);
            expect(read?.returnWei).toBe(read === null ? undefined : read.profitWei + bet.amountWei);
            if (settled.refund) expect(read?.profitWei).toBe(0n);
            else if (bet.side === result) expect(read?.profitWei).toBeGreaterThanOrEqual(0n);
            else expect(read?.profitWei).toBe(-bet.amountWei);
          }
        },
      ),
    );
  });

  test('round bets: return = stake + profit; a loss is −stake, a refund 0, a win below 0 only when the fee outweighs the losing pool', () => {
    fc.assert(
      fc.property(
        stakes(['bull', 'bear'] as const),
        fc.constantFrom('bull', 'bear', 'draw', 'cancelled'),
        fc.integer({ min: 0, max: 10_000 }),
        (drawn, result, feeBps) => {
          const bets = drawn.map((bet, id) => ({ id, ...bet }));
          const settled = computeRoundPayouts({ bets, result, feeBps });
          const losingPoolWei = bets
            .filter((bet) => bet.side !== result)
            .reduce((s, b) => s + b.amountWei, 0n);
          for (const bet of bets) {
            const stored = settled.payouts.find((payout) => payout.id === bet.id)?.returnWei ?? 0n;
            const read = betReturn(bet.amountWei, stored);
            expect(read?.returnWei).toBe(read === null ? undefined : read.profitWei + bet.amountWei);
            if (settled.refund) expect(read?.profitWei).toBe(0n);
            else if (bet.side !== result) expect(read?.profitWei).toBe(-bet.amountWei);
            else if (settled.feeWei <= losingPoolWei) expect(read?.profitWei).toBeGreaterThanOrEqual(0n);
          }
        },
      ),
    );
  });
});

describe('claimableBetReturnWei and marketWinningsWei', () => {
  const bet = (
    marketId: number,
    status: 'won' | 'refunded' | 'lost' | 'claimed',
    returned: string | null,
  ) => ({
    marketId,
    status,
    returnWei: returned === null ? null : bnb(returned).toString(),
  });

  test('a won or refunded bet pays its return, a lost or claimed one nothing', () => {
    expect(claimableBetReturnWei(bet(1, 'won', '0.75'))).toBe(bnb('0.75'));
    expect(claimableBetReturnWei(bet(1, 'refunded', '0.5'))).toBe(bnb('0.5'));
    expect(claimableBetReturnWei(bet(1, 'lost', '0'))).toBe(0n);
    expect(claimableBetReturnWei(bet(1, 'claimed', '0.75'))).toBe(0n);
  });

  test("a market's winnings add up the wallet's claimable bets on that market only", () => {
    const claimable = [bet(7, 'won', '0.75'), bet(7, 'won', '0.15'), bet(8, 'refunded', '2')];
    expect(marketWinningsWei(claimable, 7)).toBe(bnb('0.9'));
    expect(marketWinningsWei(claimable, 8)).toBe(bnb('2'));
    expect(marketWinningsWei(claimable, 9)).toBe(0n);
    expect(marketWinningsWei([], 7)).toBe(0n);
  });

  test('what the page shows for a win is the stored return, to the wei, through the wire fields', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        (stake, profit) => {
          const stored = stake + profit;
          const { returnWei } = betReturnFields(stake, stored);
          expect(claimableBetReturnWei({ status: 'won', returnWei })).toBe(stored);
        },
      ),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseBnb } from './money.ts';
import { claimableBetReturnWei, marketBetProfitWei, marketWinningsWei } from './winnings.ts';

const bnb = parseBnb;

describe('marketBetProfitWei', () => {
  test('a bet on the result made its return less its stake', () => {
    expect(
      marketBetProfitWei({ prediction: 'YES', amountWei: bnb('1'), payoutAmountWei: bnb('1.75') }, 'YES'),
    ).toBe(bnb('0.75'));
  });

  test('no profit for a loss, a refund, a void market or a bet not settled', () => {
    expect(
      marketBetProfitWei({ prediction: 'NO', amountWei: bnb('1'), payoutAmountWei: 0n }, 'YES'),
    ).toBeNull();
    expect(
      marketBetProfitWei({ prediction: 'YES', amountWei: bnb('1'), payoutAmountWei: bnb('1') }, 'VOID'),
    ).toBeNull();
    expect(
      marketBetProfitWei({ prediction: 'YES', amountWei: bnb('1'), payoutAmountWei: null }, null),
    ).toBeNull();
    expect(
      marketBetProfitWei({ prediction: 'YES', amountWei: bnb('1'), payoutAmountWei: null }, 'YES'),
    ).toBeNull();
  });
});

describe('claimableBetReturnWei and marketWinningsWei', () => {
  const bet = (
    marketId: number,
    status: 'won' | 'refunded' | 'lost' | 'claimed',
    amount: string,
    profit: string | null,
  ) => ({
    marketId,
    status,
    amountWei: bnb(amount).toString(),
    payoutWei: profit === null ? null : bnb(profit).toString(),
  });

  test('a win returns stake and profit, a refund the stake, anything else nothing', () => {
    expect(claimableBetReturnWei(bet(1, 'won', '0.5', '0.25'))).toBe(bnb('0.75'));
    expect(claimableBetReturnWei(bet(1, 'refunded', '0.5', null))).toBe(bnb('0.5'));
    expect(claimableBetReturnWei(bet(1, 'lost', '0.5', null))).toBe(0n);
    expect(claimableBetReturnWei(bet(1, 'claimed', '0.5', '0.25'))).toBe(0n);
  });

  test("a market's winnings add up the wallet's claimable bets on that market only", () => {
    const claimable = [
      bet(7, 'won', '0.5', '0.25'),
      bet(7, 'won', '0.1', '0.05'),
      bet(8, 'refunded', '2', null),
    ];
    expect(marketWinningsWei(claimable, 7)).toBe(bnb('0.9'));
    expect(marketWinningsWei(claimable, 8)).toBe(bnb('2'));
    expect(marketWinningsWei(claimable, 9)).toBe(0n);
    expect(marketWinningsWei([], 7)).toBe(0n);
  });

  test('what the page shows for a win is the stored full return, to the wei, through the API', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        (stake, profit) => {
          const payoutAmountWei = stake + profit;
          const profitWei = marketBetProfitWei({ prediction: 'NO', amountWei: stake, payoutAmountWei }, 'NO');
          const shown = claimableBetReturnWei({
            status: 'won',
            amountWei: stake.toString(),
            payoutWei: profitWei === null ? null : profitWei.toString(),
          });
          expect(shown).toBe(payoutAmountWei);
        },
      ),
    );
  });
});

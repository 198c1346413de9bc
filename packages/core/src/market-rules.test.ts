import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  canJoinMarket,
  creationCloseAccepted,
  creationCloseAt,
  deriveMarketTitle,
  estimateMarketWinWei,
  favourability,
  isInReview,
  marketDeadline,
  marketDisplayStatus,
  potentialPayoutRecordWei,
} from './market-rules.ts';
import { parseBnb } from './money.ts';
import { computeMarketPayouts } from './payouts.ts';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const BEFORE = new Date('2025-06-01T11:59:59.999Z');
const AFTER = new Date('2025-06-01T12:00:00.001Z');

describe('marketDeadline', () => {
  test('an hourly market closes in one hour and a daily one in 24 hours', () => {
    expect(marketDeadline(NOW, 'hourly').toISOString()).toBe('2025-06-01T13:00:00.000Z');
    expect(marketDeadline(NOW, 'daily').toISOString()).toBe('2025-06-02T12:00:00.000Z');
  });

  test('an invalid date is refused', () => {
    expect(() => marketDeadline(new Date(Number.NaN), 'hourly')).toThrow(RangeError);
  });
});

describe('creationCloseAccepted (decision 026)', () => {
  const block = 1_800_000_000;
  test.each([
    ['hourly', 3600, true],
    ['hourly', 3600 - 600, true],
    ['hourly', 3600 - 601, false],
    ['hourly', 3600 + 60, true],
    ['hourly', 3600 + 61, false],
    ['daily', 86_400, true],
    ['daily', 86_400 - 600, true],
    ['daily', 86_400 - 601, false],
    ['daily', 86_400 + 60, true],
    ['daily', 86_400 + 61, false],
    ['daily', 3600, false],
    ['hourly', 86_400, false],
    ['hourly', 0, false],
    ['hourly', -3600, false],
  ] as const)('%s, close %i s after the block: %s', (duration, span, accepted) => {
    expect(creationCloseAccepted(duration, block, block + span)).toBe(accepted);
  });

  test('a close that is not whole seconds is refused', () => {
    expect(creationCloseAccepted('hourly', block, block + 3600.5)).toBe(false);
    expect(creationCloseAccepted('hourly', Number.NaN, block + 3600)).toBe(false);
  });

  test('the close a creator asks for now is accepted for a deposit mined within 10 minutes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('hourly' as const, 'daily' as const),
        fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
        fc.integer({ min: 0, max: 600 }),
        (duration, nowS, waitS) => {
          expect(creationCloseAccepted(duration, nowS + waitS, creationCloseAt(duration, nowS))).toBe(true);
        },
      ),
    );
  });
});

describe('marketDisplayStatus', () => {
  test('an active market before its deadline is live', () => {
    expect(marketDisplayStatus({ status: 'active', deadline: AFTER }, NOW)).toBe('live');
  });

  test('a market whose deadline has passed is closed until it is settled', () => {
    expect(marketDisplayStatus({ status: 'active', deadline: NOW }, NOW)).toBe('closed');
    expect(marketDisplayStatus({ status: 'active', deadline: BEFORE }, NOW)).toBe('closed');
    expect(marketDisplayStatus({ status: 'settling', deadline: BEFORE }, NOW)).toBe('closed');
  });

  test('a settling market is closed even before its deadline', () => {
    expect(marketDisplayStatus({ status: 'settling', deadline: AFTER }, NOW)).toBe('closed');
  });

  test('a settled market is completed', () => {
    expect(marketDisplayStatus({ status: 'settled', deadline: BEFORE }, NOW)).toBe('completed');
    expect(marketDisplayStatus({ status: 'settled', deadline: AFTER }, NOW)).toBe('completed');
  });
});

describe('isInReview', () => {
  test('a settling market with a proposed verdict is in review; settled, or with no proposal, it is not', () => {
    const proposed = { status: 'settling', proposedAt: NOW, proposedResult: 'YES' };
    expect(isInReview(proposed)).toBe(true);
    expect(isInReview({ ...proposed, status: 'settled' })).toBe(false);
    expect(isInReview({ ...proposed, proposedAt: null })).toBe(false);
    expect(isInReview({ ...proposed, proposedResult: null })).toBe(false);
  });
});

describe('canJoinMarket', () => {
  test('bets are taken only while active and strictly before the deadline', () => {
    expect(canJoinMarket({ status: 'active', deadline: AFTER }, NOW)).toBe(true);
    expect(canJoinMarket({ status: 'active', deadline: NOW }, NOW)).toBe(false);
    expect(canJoinMarket({ status: 'settling', deadline: AFTER }, NOW)).toBe(false);
    expect(canJoinMarket({ status: 'settled', deadline: AFTER }, NOW)).toBe(false);
  });
});

describe('favourability', () => {
  test('splits 100 percent by pool size', () => {
    expect(favourability(parseBnb('3'), parseBnb('1'))).toEqual({ yesPercent: 75, noPercent: 25 });
    expect(favourability(1n, 2n)).toEqual({ yesPercent: 33, noPercent: 67 });
    expect(favourability(2n, 1n)).toEqual({ yesPercent: 67, noPercent: 33 });
  });

  test('empty pools are even and a one-sided pool is 100 to 0', () => {
    expect(favourability(0n, 0n)).toEqual({ yesPercent: 50, noPercent: 50 });
    expect(favourability(5n, 0n)).toEqual({ yesPercent: 100, noPercent: 0 });
    expect(favourability(0n, 5n)).toEqual({ yesPercent: 0, noPercent: 100 });
  });

  test('a side with any stake shows at least 1 percent', () => {
    expect(favourability(1n, 10n ** 24n)).toEqual({ yesPercent: 1, noPercent: 99 });
    expect(favourability(10n ** 24n, 1n)).toEqual({ yesPercent: 99, noPercent: 1 });
  });

  test('percents are whole numbers from 0 to 100 that always sum to 100', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 27n }),
        fc.bigInt({ min: 0n, max: 10n ** 27n }),
        (yes, no) => {
          const { yesPercent, noPercent } = favourability(yes, no);
          expect(Number.isInteger(yesPercent) && yesPercent >= 0 && yesPercent <= 100).toBe(true);
          expect(yesPercent + noPercent).toBe(100);
        },
      ),
    );
  });

  test('negative pools are refused', () => {
    expect(() => favourability(-1n, 0n)).toThrow(RangeError);
  });
});

describe('potentialPayoutRecordWei', () => {
  test('records twice the stake', () => {
    expect(potentialPayoutRecordWei(parseBnb('0.005'))).toBe(parseBnb('0.01'));
  });
});

describe('estimateMarketWinWei', () => {
  test('adds the stake to its side and shares the other side', () => {
    // YES 1 BNB + my 1 BNB against NO 2 BNB: I would get 1 + 1 × 2 / 2 = 2 BNB.
    expect(
      estimateMarketWinWei({
        stakeWei: parseBnb('1'),
        side: 'YES',
        totalYesWei: parseBnb('1'),
        totalNoWei: parseBnb('2'),
        feeBps: 0,
      }),
    ).toBe(parseBnb('2'));
  });

  test('joining an empty other side only gets the stake back', () => {
    expect(
      estimateMarketWinWei({ stakeWei: 7n, side: 'NO', totalYesWei: 0n, totalNoWei: 9n, feeBps: 0 }),
    ).toBe(7n);
  });

  test('a zero stake returns nothing', () => {
    expect(
      estimateMarketWinWei({ stakeWei: 0n, side: 'NO', totalYesWei: 5n, totalNoWei: 9n, feeBps: 0 }),
    ).toBe(0n);
  });

  test('the estimate equals what settlement would pay if the side won', () => {
    const amount = fc.bigInt({ min: 1n, max: 10n ** 24n });
    fc.assert(
      fc.property(amount, amount, amount, fc.integer({ min: 0, max: 1000 }), (stake, yes, no, feeBps) => {
        const estimate = estimateMarketWinWei({
          stakeWei: stake,
          side: 'NO',
          totalYesWei: yes,
          totalNoWei: no,
          feeBps,
        });
        const settled = computeMarketPayouts({
          bets: [
            { id: 'others-yes', side: 'YES', amountWei: yes },
            { id: 'others-no', side: 'NO', amountWei: no },
            { id: 'me', side: 'NO', amountWei: stake },
          ],
          result: 'NO',
          feeBps,
        });
        expect(settled.payouts.find((payout) => payout.id === 'me')?.returnWei).toBe(estimate);
      }),
    );
  });
});

describe('deriveMarketTitle', () => {
  test('a given title wins, trimmed', () => {
    expect(deriveMarketTitle('Long description', '  Will BNB hit $1000?  ')).toBe('Will BNB hit $1000?');
  });

  test('without a title the first non-empty line of the description is used', () => {
    expect(deriveMarketTitle('\n   \n  Will it rain in Paris?  \nMore detail', null)).toBe(
      'Will it rain in Paris?',
    );
    expect(deriveMarketTitle('Only line', '   ')).toBe('Only line');
    expect(deriveMarketTitle('First\r\nSecond')).toBe('First');
  });

  test('a long line is cut to 120 characters ending in an ellipsis', () => {
    const title = deriveMarketTitle('x'.repeat(300));
    expect(title).toBe(`${'x'.repeat(119)}…`);
    expect(Array.from(title)).toHaveLength(120);
  });

  test('the cut never splits an emoji', () => {
    const title = deriveMarketTitle('🚀'.repeat(130));
    expect(title).toBe(`${'🚀'.repeat(119)}…`);
  });

  test('a blank description without a title gives an empty title', () => {
    expect(deriveMarketTitle('  \n ')).toBe('');
  });
});

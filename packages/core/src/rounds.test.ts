import { describe, expect, test } from 'vitest';
import { DEFAULT_BETTING_WINDOW_S, DEFAULT_ROUND_INTERVAL_S } from './constants.ts';
import {
  countdownLabel,
  epochAt,
  payoutMultiplier,
  pickDisplayedRounds,
  type RoundStatus,
  roundResult,
  roundSchedule,
  roundStatusAt,
} from './rounds.ts';

const TIMINGS = { intervalS: DEFAULT_ROUND_INTERVAL_S, bettingWindowS: DEFAULT_BETTING_WINDOW_S };
// 2025-06-01T12:00:00Z, a 10-minute boundary.
const NOON = 1_748_779_200;
const NOON_EPOCH = NOON / 600;

describe('roundSchedule', () => {
  test('epoch n starts on the n-th interval boundary, locks after the window and closes after the interval', () => {
    expect(roundSchedule(NOON_EPOCH, TIMINGS)).toEqual({
      startTime: NOON,
      lockTime: NOON + 300,
      closeTime: NOON + 600,
    });
  });

  test('a round closes exactly when the next one starts', () => {
    expect(roundSchedule(NOON_EPOCH, TIMINGS).closeTime).toBe(
      roundSchedule(NOON_EPOCH + 1, TIMINGS).startTime,
    );
  });

  test('bad timings and epochs are refused', () => {
    expect(() => roundSchedule(1, { intervalS: 0, bettingWindowS: 0 })).toThrow(RangeError);
    expect(() => roundSchedule(1, { intervalS: 600, bettingWindowS: 601 })).toThrow(RangeError);
    expect(() => roundSchedule(1, { intervalS: 600, bettingWindowS: 0 })).toThrow(RangeError);
    expect(() => roundSchedule(-1, TIMINGS)).toThrow(RangeError);
    expect(() => roundSchedule(1.5, TIMINGS)).toThrow(RangeError);
  });
});

describe('epochAt', () => {
  test('gives the round whose interval contains the time', () => {
    expect(epochAt(NOON, TIMINGS)).toBe(NOON_EPOCH);
    expect(epochAt(NOON + 599, TIMINGS)).toBe(NOON_EPOCH);
    expect(epochAt(NOON + 600, TIMINGS)).toBe(NOON_EPOCH + 1);
    expect(epochAt(NOON - 0.5, TIMINGS)).toBe(NOON_EPOCH - 1);
  });
});

describe('roundStatusAt', () => {
  const schedule = roundSchedule(NOON_EPOCH, TIMINGS);

  test('a round is upcoming, live, locked and ended in turn', () => {
    expect(roundStatusAt(schedule, NOON - 1)).toBe('upcoming');
    expect(roundStatusAt(schedule, NOON)).toBe('live');
    expect(roundStatusAt(schedule, NOON + 299)).toBe('live');
    expect(roundStatusAt(schedule, NOON + 300)).toBe('locked');
    expect(roundStatusAt(schedule, NOON + 599)).toBe('locked');
    expect(roundStatusAt(schedule, NOON + 600)).toBe('ended');
  });
});

describe('countdownLabel', () => {
  const schedule = roundSchedule(NOON_EPOCH, TIMINGS);
  const at = (status: RoundStatus, nowS: number) => countdownLabel({ status, ...schedule }, nowS);

  test('a live round counts down to its lock', () => {
    expect(at('live', NOON + 100)).toEqual({ key: 'bettingClosesIn', secondsLeft: 200 });
  });

  test('a locked round counts down to its close', () => {
    expect(at('locked', NOON + 400)).toEqual({ key: 'resultIn', secondsLeft: 200 });
  });

  test('an upcoming round counts down to its start', () => {
    expect(at('upcoming', NOON - 90)).toEqual({ key: 'startsIn', secondsLeft: 90 });
  });

  test('an ended round says ended', () => {
    expect(at('ended', NOON + 1000)).toEqual({ key: 'ended', secondsLeft: 0 });
  });

  test('a round whose time has come but whose status has not moved is processing', () => {
    expect(at('live', NOON + 300)).toEqual({ key: 'processing', secondsLeft: 0 });
    expect(at('locked', NOON + 700)).toEqual({ key: 'processing', secondsLeft: 0 });
    expect(at('upcoming', NOON + 1)).toEqual({ key: 'processing', secondsLeft: 0 });
  });

  test('a fraction of a second left still counts as one second', () => {
    expect(at('live', NOON + 299.2)).toEqual({ key: 'bettingClosesIn', secondsLeft: 1 });
  });
});

describe('roundResult', () => {
  test('a higher close is bull, a lower one bear, an equal one a draw', () => {
    expect(roundResult(61_234_000_000n, 61_234_000_001n)).toBe('bull');
    expect(roundResult(61_234_000_000n, 61_233_999_999n)).toBe('bear');
    expect(roundResult(61_234_000_000n, 61_234_000_000n)).toBe('draw');
  });
});

describe('payoutMultiplier', () => {
  test('is the total pool over the side pool with two decimals, rounded down', () => {
    expect(payoutMultiplier(300n, 100n)).toBe('3.00');
    expect(payoutMultiplier(1000n, 300n)).toBe('3.33');
    expect(payoutMultiplier(2000n, 1999n)).toBe('1.00');
    expect(payoutMultiplier(10n ** 24n, 3n)).toBe('333333333333333333333333.33');
  });

  test('is 1.00 when only that side has bets', () => {
    expect(payoutMultiplier(500n, 500n)).toBe('1.00');
  });

  test('is 0.00 when the pool or the side is empty', () => {
    expect(payoutMultiplier(0n, 0n)).toBe('0.00');
    expect(payoutMultiplier(500n, 0n)).toBe('0.00');
  });

  test('negative pools are refused', () => {
    expect(() => payoutMultiplier(-1n, 1n)).toThrow(RangeError);
  });
});

describe('pickDisplayedRounds', () => {
  type Round = { epoch: number; status: RoundStatus; startTime: number; label: string };
  const round = (epoch: number, status: RoundStatus, label = ''): Round => ({
    epoch,
    status,
    startTime: epoch * 600,
    label,
  });

  test('the current round is the highest-epoch live or locked one and the previous the latest ended', () => {
    const rounds = [
      round(9, 'ended'),
      round(12, 'upcoming'),
      round(10, 'locked'),
      round(11, 'live'),
      round(8, 'ended'),
    ];
    const picked = pickDisplayedRounds(rounds, 11 * 600 + 10);
    expect(picked.current?.epoch).toBe(11);
    expect(picked.previous?.epoch).toBe(9);
    expect(picked.next?.epoch).toBe(12);
  });

  test('without a live or locked round an upcoming one starting within 900 seconds is current', () => {
    const picked = pickDisplayedRounds([round(20, 'upcoming'), round(21, 'upcoming')], 20 * 600 - 900);
    expect(picked.current?.epoch).toBe(20);
    expect(picked.next?.epoch).toBe(21);
  });

  test('an upcoming round further than 900 seconds away is not current', () => {
    const picked = pickDisplayedRounds([round(20, 'upcoming'), round(19, 'ended')], 20 * 600 - 901);
    expect(picked.current).toBeNull();
    expect(picked.next?.epoch).toBe(20);
    expect(picked.previous?.epoch).toBe(19);
  });

  test('no rounds at all shows nothing', () => {
    expect(pickDisplayedRounds([], 0)).toEqual({ current: null, next: null, previous: null });
  });

  test('the rounds come back as given, with their own fields', () => {
    const live = round(5, 'live', 'mine');
    expect(pickDisplayedRounds([live], 5 * 600).current).toBe(live);
  });
});

import { NEXT_ROUND_WINDOW_S } from './constants.ts';

// BNB UP/DOWN rounds (docs/product.md §4, docs/architecture.md "Oracle rounds"). Times are unix seconds; the clock is a
// parameter. Round n starts on the n-th interval boundary since the unix epoch, so every server
// instance agrees on the schedule without talking to the others.

export type RoundTimings = { intervalS: number; bettingWindowS: number };

export type RoundSchedule = { startTime: number; lockTime: number; closeTime: number };

function assertTimings(t: RoundTimings): void {
  if (!Number.isSafeInteger(t.intervalS) || t.intervalS <= 0) {
    throw new RangeError(`intervalS must be a positive integer, got ${t.intervalS}`);
  }
  if (!Number.isSafeInteger(t.bettingWindowS) || t.bettingWindowS <= 0 || t.bettingWindowS > t.intervalS) {
    throw new RangeError(`bettingWindowS must be an integer from 1 to intervalS, got ${t.bettingWindowS}`);
  }
}

/** docs/architecture.md: start = epoch × interval; lock = start + betting window; close = start + interval. */
export function roundSchedule(epoch: number, t: RoundTimings): RoundSchedule {
  assertTimings(t);
  if (!Number.isSafeInteger(epoch) || epoch < 0) {
    throw new RangeError(`epoch must be a non-negative integer, got ${epoch}`);
  }
  const startTime = epoch * t.intervalS;
  return { startTime, lockTime: startTime + t.bettingWindowS, closeTime: startTime + t.intervalS };
}

/** The epoch whose [start, close) contains `timeS`. */
export function epochAt(timeS: number, t: RoundTimings): number {
  assertTimings(t);
  return Math.floor(timeS / t.intervalS);
}

/** docs/product.md §4: upcoming (0), live (1), locked (2), ended (3). */
export type RoundStatus = 'upcoming' | 'live' | 'locked' | 'ended';

/** The status a round should have at `nowS` by time alone (betting is open in [start, lock)). */
export function roundStatusAt(schedule: RoundSchedule, nowS: number): RoundStatus {
  if (nowS < schedule.startTime) return 'upcoming';
  if (nowS < schedule.lockTime) return 'live';
  if (nowS < schedule.closeTime) return 'locked';
  return 'ended';
}

export type CountdownKey = 'bettingClosesIn' | 'resultIn' | 'startsIn' | 'ended' | 'processing';

const COUNTDOWN_TARGET = {
  live: { key: 'bettingClosesIn', time: 'lockTime' },
  locked: { key: 'resultIn', time: 'closeTime' },
  upcoming: { key: 'startsIn', time: 'startTime' },
} as const;

/**
 * docs/product.md §4 countdown: live → to lock ('betting closes in'); locked → to close ('result in');
 * upcoming → to start ('starts in'); ended → 'ended'; 'processing' once the target time has
 * passed but the recorded status has not advanced yet. Seconds round up, so 0 means "passed".
 */
export function countdownLabel(
  round: { status: RoundStatus } & RoundSchedule,
  nowS: number,
): { key: CountdownKey; secondsLeft: number } {
  if (round.status === 'ended') return { key: 'ended', secondsLeft: 0 };
  const target = COUNTDOWN_TARGET[round.status];
  const secondsLeft = Math.ceil(round[target.time] - nowS);
  if (secondsLeft <= 0) return { key: 'processing', secondsLeft: 0 };
  return { key: target.key, secondsLeft };
}

export type RoundResult = 'bull' | 'bear' | 'draw';

/** docs/product.md §4: bull if the close price is above the lock price, bear if below, else draw. */
export function roundResult(lockPrice: bigint, closePrice: bigint): RoundResult {
  if (closePrice > lockPrice) return 'bull';
  if (closePrice < lockPrice) return 'bear';
  return 'draw';
}

/**
 * docs/product.md §9: payout multiplier = total pool / the side's pool, 2 decimals (rounded down here),
 * '1.00' when only that side has bets, '0.00' when the side (or the whole pool) is empty.
 */
export function payoutMultiplier(totalWei: bigint, sideWei: bigint): string {
  if (totalWei < 0n || sideWei < 0n) throw new RangeError('pools cannot be negative');
  if (totalWei === 0n || sideWei === 0n) return '0.00';
  const hundredths = (totalWei * 100n) / sideWei;
  const cents = (hundredths % 100n).toString().padStart(2, '0');
  return `${hundredths / 100n}.${cents}`;
}

type DisplayableRound = { epoch: number; status: RoundStatus; startTime: number };

/**
 * docs/product.md §4: current = the highest-epoch locked or live round, else the earliest upcoming round if
 * it starts within 900 s; previous = the latest ended round. `next` (docs/api.md `GET /api/oracle/rounds`,
 * label NEXT) is the earliest upcoming round that is not already `current`.
 */
export function pickDisplayedRounds<T extends DisplayableRound>(
  rounds: readonly T[],
  nowS: number,
): { current: T | null; next: T | null; previous: T | null } {
  const byEpochDescending = [...rounds].sort((a, b) => b.epoch - a.epoch);
  const latestOf = (statuses: ReadonlyArray<RoundStatus>): T | null =>
    byEpochDescending.find((round) => statuses.includes(round.status)) ?? null;
  const upcoming = byEpochDescending.filter((round) => round.status === 'upcoming').reverse();

  let current = latestOf(['live', 'locked']);
  if (current === null) {
    const soonest = upcoming[0];
    if (soonest !== undefined && soonest.startTime - nowS <= NEXT_ROUND_WINDOW_S) current = soonest;
  }
  const next = upcoming.find((round) => round !== current) ?? null;
  return { current, next, previous: latestOf(['ended']) };
}

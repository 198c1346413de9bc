import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type FeedRound,
  findCoveringRound,
  findRoundInForce,
  firstRoundOfPhase,
  isFreshFor,
  judgeCoveringRound,
  MAX_ROUND_READS,
  PHASE_OFFSET,
} from './feed-rounds.ts';

const PHASE_1 = 1n << PHASE_OFFSET;
const PHASE_2 = 2n << PHASE_OFFSET;
const MAX_AGE_MS = 120_000;
const T0 = Date.UTC(2025, 5, 1, 12);

/** An aggregator's history in memory: what `getRoundData` answers, and which ids were read. */
function aggregator(rounds: FeedRound[]) {
  const byId = new Map(rounds.map((round) => [round.roundId, round]));
  const reads: bigint[] = [];
  const latest = rounds.reduce((a, b) => (b.roundId > a.roundId ? b : a));
  return {
    latest,
    reads,
    readRound: async (roundId: bigint) => {
      reads.push(roundId);
      return byId.get(roundId) ?? null;
    },
  };
}

/** Rounds 1…n of a phase, one every `everyS` seconds from T0, at 600 USD + n cents. */
const steady = (phase: bigint, n: number, everyS = 60): FeedRound[] =>
  Array.from({ length: n }, (_, i) => ({
    roundId: phase | BigInt(i + 1),
    answer: 600_00000000n + BigInt(i + 1) * 1_000000n,
    updatedAtMs: T0 + i * everyS * 1000,
  }));

const find = (feed: ReturnType<typeof aggregator>, instantMs: number, extra = {}) =>
  findCoveringRound({
    latest: feed.latest,
    instantMs,
    maxAgeMs: MAX_AGE_MS,
    readRound: feed.readRound,
    ...extra,
  });

describe('the staleness rule', () => {
  test('a price updated at most the limit before the instant is fresh for it', () => {
    expect(isFreshFor(T0 - 120_000, T0, MAX_AGE_MS)).toBe(true);
    expect(isFreshFor(T0 - 120_001, T0, MAX_AGE_MS)).toBe(false);
    expect(isFreshFor(T0 + 1, T0, MAX_AGE_MS)).toBe(true);
  });

  test('the covering round must be positive and fresh', () => {
    const round = { roundId: PHASE_1 | 1n, answer: 1n, updatedAtMs: T0 };
    expect(judgeCoveringRound(round, T0 + 120_000, MAX_AGE_MS)).toEqual({ found: true, round });
    expect(judgeCoveringRound(round, T0 + 120_001, MAX_AGE_MS)).toEqual({ found: false, reason: 'stale' });
    expect(judgeCoveringRound({ ...round, answer: 0n }, T0, MAX_AGE_MS)).toEqual({
      found: false,
      reason: 'not_positive',
    });
  });
});

describe('the round that covers an instant', () => {
  test('the latest round, when it was updated at or before the instant, with no read at all', async () => {
    const feed = aggregator(steady(PHASE_1, 5));
    const result = await find(feed, T0 + 4 * 60_000);
    expect(result).toEqual({ found: true, round: feed.latest });
    expect(feed.reads).toEqual([]);
  });

  test('else the last round updated at or before the instant, not the first one after it', async () => {
    const feed = aggregator(steady(PHASE_1, 10));
    // Rounds 1…10 at T0, T0+60 s, …: at T0+150 s round 3 (T0+120 s) holds, round 4 is 30 s late.
    const result = await find(feed, T0 + 150_000);
    expect(result).toMatchObject({ found: true, round: { roundId: PHASE_1 | 3n } });
    // Updated exactly at the instant counts as before it.
    expect(await find(aggregator(steady(PHASE_1, 10)), T0 + 180_000)).toMatchObject({
      round: { roundId: PHASE_1 | 4n },
    });
  });

  test('a covering round older than the staleness limit is no price: the feed had a gap', async () => {
    // Round 2 at T0+60 s, then nothing until round 3 ten minutes later.
    const rounds = steady(PHASE_1, 3);
    const last = rounds[2];
    if (last) last.updatedAtMs = T0 + 660_000;
    expect(await find(aggregator(rounds), T0 + 60_000 + 120_000)).toMatchObject({ found: true });
    expect(await find(aggregator(rounds), T0 + 60_000 + 120_001)).toEqual({ found: false, reason: 'stale' });
  });

  test('a covering round that answered zero is no price', async () => {
    const rounds = steady(PHASE_1, 4);
    const second = rounds[1];
    if (second) second.answer = 0n;
    expect(await find(aggregator(rounds), T0 + 90_000)).toEqual({ found: false, reason: 'not_positive' });
  });

  test('the search stops at a phase boundary and never reads the previous phase', async () => {
    // Phase 1 held the instant; the proxy moved to phase 2, whose every round came after it.
    const feed = aggregator([...steady(PHASE_1, 5), ...steady(PHASE_2, 3).map(later(600_000))]);
    expect(await find(feed, T0 + 270_000)).toEqual({ found: false, reason: 'before_history' });
    expect(feed.reads.every((id) => id >= firstRoundOfPhase(PHASE_2 | 3n))).toBe(true);
    expect(firstRoundOfPhase(PHASE_2 | 3n)).toBe(PHASE_2 | 1n);
  });

  test('within a later phase the covering round is found as usual', async () => {
    const feed = aggregator([...steady(PHASE_1, 5), ...steady(PHASE_2, 8).map(later(600_000))]);
    expect(await find(feed, T0 + 600_000 + 200_000)).toMatchObject({ round: { roundId: PHASE_2 | 4n } });
  });

  test('an instant before every round the feed holds has no covering round', async () => {
    expect(await find(aggregator(steady(PHASE_1, 5)), T0 - 1)).toEqual({
      found: false,
      reason: 'before_history',
    });
  });

  test('ids without data (a revert, or updatedAt 0) are holes, skipped', async () => {
    const rounds = steady(PHASE_1, 20).filter(
      (round) => ![5n, 6n, 7n, 12n].includes(round.roundId - PHASE_1),
    );
    const zero = rounds.find((round) => round.roundId === (PHASE_1 | 9n));
    if (zero) zero.updatedAtMs = 0;
    // Rounds 5–7 are missing: at T0+6.5 min round 4 (T0+3 min) is the last before, 3.5 min old.
    expect(await find(aggregator(rounds), T0 + 390_000, { maxAgeMs: 600_000 })).toMatchObject({
      round: { roundId: PHASE_1 | 4n },
    });
    expect(await find(aggregator(rounds), T0 + 390_000)).toEqual({ found: false, reason: 'stale' });
    // Round 9 answers updatedAt 0: at T0+8.5 min round 8 (T0+7 min) holds.
    expect(await find(aggregator(rounds), T0 + 510_000)).toMatchObject({ round: { roundId: PHASE_1 | 8n } });
    expect(await find(aggregator(rounds), T0 + 690_000)).toMatchObject({ round: { roundId: PHASE_1 | 11n } });
  });

  test('a million rounds back takes a few dozen reads: the search gallops, then bisects', async () => {
    const n = 1_000_000;
    const latest = { roundId: PHASE_1 | BigInt(n), answer: 1n, updatedAtMs: T0 + n * 1000 };
    const reads: bigint[] = [];
    const result = await findCoveringRound({
      latest,
      instantMs: T0 + 1234.5 * 1000,
      maxAgeMs: MAX_AGE_MS,
      readRound: async (roundId) => {
        reads.push(roundId);
        const i = Number(roundId - PHASE_1);
        return { roundId, answer: BigInt(i), updatedAtMs: T0 + i * 1000 };
      },
    });
    expect(result).toMatchObject({ round: { roundId: PHASE_1 | 1234n } });
    expect(reads.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n)) + 1);
  });

  test('a long stretch of holes ends the search after maxReads reads', async () => {
    const rounds = [
      { roundId: PHASE_1 | 1n, answer: 1n, updatedAtMs: T0 },
      { roundId: PHASE_1 | 500n, answer: 1n, updatedAtMs: T0 + 10_000 },
    ];
    const feed = aggregator(rounds);
    expect(await find(feed, T0 + 5_000)).toEqual({ found: false, reason: 'read_limit' });
    expect(feed.reads.length).toBe(MAX_ROUND_READS);
    // Given room, the same history answers.
    expect(await find(aggregator(rounds), T0 + 5_000, { maxReads: 1000 })).toMatchObject({
      round: { roundId: PHASE_1 | 1n },
    });
  });

  test('a read that fails is the caller’s error to retry, never "no round"', async () => {
    const failure = new Error('rate limited');
    const feed = aggregator(steady(PHASE_1, 10));
    await expect(
      findCoveringRound({
        latest: feed.latest,
        instantMs: T0 + 150_000,
        maxAgeMs: MAX_AGE_MS,
        readRound: async () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
  });

  test("a hole at the phase's first round, the covering round just above where the search galloped", async () => {
    // fast-check's counterexample (seed 784975505): rounds 2–4 kept, round 1 a hole, the instant at round 2.
    const rounds = [
      { roundId: PHASE_1 | 2n, answer: 1n, updatedAtMs: T0 },
      { roundId: PHASE_1 | 3n, answer: 1n, updatedAtMs: T0 + 1000 },
      { roundId: PHASE_1 | 4n, answer: 1n, updatedAtMs: T0 + 1000 },
    ];
    expect(await find(aggregator(rounds), T0)).toEqual({ found: true, round: rounds[0] });
    expect(await find(aggregator(rounds), T0 - 1)).toEqual({ found: false, reason: 'before_history' });
  });

  test('agrees with reading every round, on any history with holes and gaps', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ gapS: fc.integer({ min: 0, max: 300 }), hole: fc.boolean() }), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.integer({ min: -100, max: 20_000 }),
        async (steps, instantS) => {
          let timeMs = T0;
          const all = steps.map((step, i) => {
            timeMs += step.gapS * 1000;
            return { round: { roundId: PHASE_1 | BigInt(i + 1), answer: 1n, updatedAtMs: timeMs }, ...step };
          });
          const kept = all.filter((entry, i) => !entry.hole || i === all.length - 1).map((e) => e.round);
          const instantMs = T0 + instantS * 1000;
          const expected = kept.filter((round) => round.updatedAtMs <= instantMs).at(-1);
          const result = await find(aggregator(kept), instantMs, { maxReads: 10_000 });
          if (!expected) expect(result).toEqual({ found: false, reason: 'before_history' });
          else expect(result).toEqual(judgeCoveringRound(expected, instantMs, MAX_AGE_MS));
        },
      ),
    );
  });
});

function later(ms: number) {
  return (round: FeedRound): FeedRound => ({ ...round, updatedAtMs: round.updatedAtMs + ms });
}

describe('findRoundInForce', () => {
  test('answers the round in force even when stale or not positive: a settlement on chain names it', async () => {
    // Rounds every 10 minutes: the one in force 9 minutes after round 3 is round 3, stale by then.
    const rounds = steady(PHASE_1, 6, 600);
    rounds[2] = { ...(rounds[2] as FeedRound), answer: 0n };
    const feed = aggregator(rounds);
    const instantMs = T0 + 2 * 600_000 + 540_000;
    expect(await findRoundInForce({ ...feed, instantMs })).toEqual({ found: true, round: rounds[2] });
    expect(await findCoveringRound({ ...feed, instantMs, maxAgeMs: MAX_AGE_MS })).toEqual({
      found: false,
      reason: 'not_positive',
    });
    expect(await findRoundInForce({ ...feed, instantMs: T0 - 1 })).toEqual({
      found: false,
      reason: 'before_history',
    });
  });
});

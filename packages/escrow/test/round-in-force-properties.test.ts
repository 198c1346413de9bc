import { type FeedRound, findCoveringRound, judgeCoveringRound } from '@pm/core/feed-rounds';
import fc from 'fast-check';
import type { Address } from 'viem';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { devFeedProxyAbi } from '../src/dev-feeds.gen.ts';
import {
  createFeedWorld,
  type FeedWorld,
  type HistoryPhase,
  isRevert,
  roundIdOf,
  T0,
  type VerdictName,
} from './feed-world.ts';
import { backdatedFeedAggregatorAbi } from './round-in-force.gen.ts';

// Random feed histories (rounds updated in order of time, with long gaps that leave a round stale,
// ids without data, answers of zero or less, phases that start before or after the previous phase's
// last round, phases without any round, aggregators that revert or answer zeros for a round without
// data) and random instants. At each instant RoundInForce accepts exactly the round that the
// server's search picks, findCoveringRound of @pm/core/feed-rounds, with judgeCoveringRound's verdict,
// and refuses every other id tried (its neighbours, every round of every phase, other phases' rounds,
// random ids). It refuses core's pick only where docs/decisions/029 says it does: a pick whose next id
// has no data and that is not its phase's latest, or a pick of the previous phase while the current
// one has rounds but no first round (RoundNotProvable). The server's search reads one phase only, the
// latest; at an instant before that phase's first round, the round in force is the same search's pick
// in the phase before. CI runs a few dozen histories; FEED_FUZZ_RUNS=500 runs many.

const RUNS = Number(process.env.FEED_FUZZ_RUNS ?? 30);

let world: FeedWorld;
beforeAll(async () => {
  world = await createFeedWorld();
});
afterAll(() => world?.stop());

const LOCAL = (1n << 64n) - 1n;
const ms = (seconds: bigint) => Number(seconds) * 1000;

const stepArbitrary = fc.record({
  // Seconds since the previous round: mostly a heartbeat's, sometimes 0 (the same second), sometimes a
  // long gap that leaves the round before it stale.
  gap: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 90 }) },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 2000 }) },
  ),
  answer: fc.oneof(
    { weight: 12, arbitrary: fc.bigInt({ min: 1n, max: 10n ** 12n }) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 8n), max: 0n }) },
  ),
  // Ids skipped before this round: a hole.
  skip: fc.oneof(
    { weight: 25, arbitrary: fc.constant(0n) },
    { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 2n }) },
  ),
});

const phaseArbitrary = fc.record({
  // The phase's first round against the latest round so far: before it (an aggregator that ran before
  // the proxy moved to it) or after.
  start: fc.integer({ min: -300, max: 900 }),
  steps: fc.array(stepArbitrary, { minLength: 0, maxLength: 10 }),
  revertsWithoutData: fc.boolean(),
});

const SHIFTS = ['-1', '0', '+1', '+maxAge', '+maxAge+1', '+30'] as const;

const historyArbitrary = fc.record({
  phases: fc.array(phaseArbitrary, { minLength: 1, maxLength: 3 }),
  maxAge: fc.constantFrom(60n, 120n, 600n),
  instants: fc.array(
    fc.record({
      anchor: fc.nat(),
      shift: fc.constantFrom(...SHIFTS),
      offset: fc.integer({ min: -400, max: 20_000 }),
    }),
    { minLength: 8, maxLength: 8 },
  ),
  randomIds: fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.bigInt({ min: 0n, max: 14n })), {
    minLength: 3,
    maxLength: 3,
  }),
});

type HistoryInput = typeof historyArbitrary extends fc.Arbitrary<infer T> ? T : never;

function buildPhases(input: HistoryInput): HistoryPhase[] {
  let clock = T0;
  return input.phases.map((phase, index) => {
    let time = index === 0 ? T0 : clock + BigInt(phase.start);
    let round = 0n;
    const rounds = phase.steps.map((step, i) => {
      round += 1n + step.skip;
      if (i > 0) time += BigInt(step.gap);
      return { round, answer: step.answer, updatedAt: time };
    });
    if (time > clock) clock = time;
    return { rounds, revertsWithoutData: phase.revertsWithoutData };
  });
}

/** The feed as the server reads it: through the proxy, a revert or `updatedAt` 0 being no round. */
function feedReader(proxy: Address, aggregators: Address[]) {
  const rounds = new Map<bigint, FeedRound | null>();
  const current = aggregators.length;

  async function readRound(roundId: bigint): Promise<FeedRound | null> {
    const cached = rounds.get(roundId);
    if (cached !== undefined) return cached;
    let round: FeedRound | null = null;
    try {
      const [, answer, , updatedAt] = await world.publicClient.readContract({
        address: proxy,
        abi: devFeedProxyAbi,
        functionName: 'getRoundData',
        args: [roundId],
      });
      round = updatedAt === 0n ? null : { roundId, answer, updatedAtMs: ms(updatedAt) };
    } catch (error) {
      if (!isRevert(error)) throw error;
    }
    rounds.set(roundId, round);
    return round;
  }

  /** A phase's latest round as its aggregator says (the proxy's for the current phase); null on a revert. */
  async function latestOf(
    phase: number,
  ): Promise<{ roundId: bigint; updatedAt: bigint; answer: bigint } | null> {
    try {
      if (phase === current) {
        const [roundId, answer, , updatedAt] = await world.publicClient.readContract({
          address: proxy,
          abi: devFeedProxyAbi,
          functionName: 'latestRoundData',
        });
        return { roundId, answer, updatedAt };
      }
      const aggregator = aggregators[phase - 1];
      if (!aggregator) throw new Error(`no phase ${phase}`);
      const [roundId, answer, , updatedAt] = await world.publicClient.readContract({
        address: aggregator,
        abi: backdatedFeedAggregatorAbi,
        functionName: 'latestRoundData',
      });
      return { roundId: roundIdOf(phase, roundId & LOCAL), answer, updatedAt };
    } catch (error) {
      if (!isRevert(error)) throw error;
      return null;
    }
  }

  return { readRound, latestOf, current };
}

type FeedReader = ReturnType<typeof feedReader>;

/** The round findCoveringRound picks in `phase` for the instant, whatever its answer and age; null for none. */
async function corePick(feed: FeedReader, phase: number, instant: bigint): Promise<FeedRound | null> {
  const latest = await feed.latestOf(phase);
  if (!latest || latest.updatedAt === 0n) return null;
  // The search looks at times only; every answer made positive and every age fresh, it names the round
  // it lands on, which judgeCoveringRound then judges as it is.
  const anyPrice = (round: FeedRound): FeedRound => ({ ...round, answer: 1n });
  const found = await findCoveringRound({
    latest: anyPrice({ roundId: latest.roundId, answer: latest.answer, updatedAtMs: ms(latest.updatedAt) }),
    instantMs: ms(instant),
    maxAgeMs: Number.MAX_SAFE_INTEGER,
    readRound: async (roundId) => {
      const round = await feed.readRound(roundId);
      return round && anyPrice(round);
    },
  });
  if (!found.found) {
    if (found.reason !== 'before_history') throw new Error(`the search ended: ${found.reason}`);
    return null;
  }
  return feed.readRound(found.round.roundId);
}

type Expected =
  | { kind: 'none' }
  | { kind: 'round'; round: FeedRound; verdict: VerdictName; where: string }
  | { kind: 'unprovable'; round: FeedRound; where: string };

/** What RoundInForce must say at the instant: core's pick and verdict, or the documented refusal. */
async function expectedAt(feed: FeedReader, instant: bigint, maxAge: bigint): Promise<Expected> {
  let phase = feed.current;
  let pick = await corePick(feed, phase, instant);
  let provable = true;
  if (!pick && phase > 1) {
    phase -= 1;
    pick = await corePick(feed, phase, instant);
    // The current phase holds from its first round: after the instant (its search found nothing), or
    // none at all, which the feed must say (latest round 0, zeros) for the proof to stand.
    if (pick && !(await feed.readRound(roundIdOf(feed.current, 1n)))) {
      const latest = await feed.latestOf(feed.current);
      provable = latest !== null && (latest.roundId & LOCAL) === 0n && latest.updatedAt === 0n;
    }
  }
  if (!pick) return { kind: 'none' };
  if (!(await feed.readRound(pick.roundId + 1n))) {
    // A hole after the pick: the proof stands only on the pick being its phase's latest.
    const latest = await feed.latestOf(phase);
    if (latest?.roundId !== pick.roundId) provable = false;
  }
  const where = phase < feed.current ? ' (previous phase)' : '';
  if (!provable) return { kind: 'unprovable', round: pick, where };
  const judged = judgeCoveringRound(pick, ms(instant), ms(maxAge));
  const verdict = judged.found ? 'InForce' : judged.reason === 'stale' ? 'Stale' : 'NotPositive';
  return { kind: 'round', round: pick, verdict, where };
}

function instantsOf(input: HistoryInput, phases: HistoryPhase[]): bigint[] {
  const times = phases.flatMap((phase) => phase.rounds.map((round) => round.updatedAt));
  return input.instants.map(({ anchor, shift, offset }) => {
    const time = times[anchor % (times.length + 1)];
    if (time === undefined) return T0 + BigInt(offset);
    const by = {
      '-1': -1n,
      '0': 0n,
      '+1': 1n,
      '+maxAge': input.maxAge,
      '+maxAge+1': input.maxAge + 1n,
      '+30': 30n,
    };
    return time + by[shift];
  });
}

/** Ids to try at an instant: the expected one and its neighbours, every round and its next, other phases'. */
function candidateIds(input: HistoryInput, phases: HistoryPhase[], expected: Expected): bigint[] {
  const ids = new Set<bigint>();
  const add = (id: bigint) => {
    if (id >= 0n && id < 1n << 80n) ids.add(id);
  };
  if (expected.kind !== 'none') {
    for (const delta of [-2n, -1n, 0n, 1n, 2n]) add(expected.round.roundId + delta);
  }
  for (let phase = 0; phase <= phases.length + 1; phase++) {
    for (const round of [0n, 1n, 2n]) add(roundIdOf(phase, round));
    for (const round of phases[phase - 1]?.rounds ?? []) {
      add(roundIdOf(phase, round.round));
      add(roundIdOf(phase, round.round + 1n));
    }
  }
  for (const [phase, round] of input.randomIds) add(roundIdOf(phase, round));
  return [...ids];
}

const seen = new Map<string, number>();
const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);

async function checkHistory(input: HistoryInput) {
  const phases = buildPhases(input);
  const { proxy, aggregators } = await world.backdatedFeed(phases);
  const feed = feedReader(proxy, aggregators);
  for (const instant of instantsOf(input, phases)) {
    const expected = await expectedAt(feed, instant, input.maxAge);
    count(
      expected.kind === 'none'
        ? 'no round'
        : `${expected.kind === 'round' ? expected.verdict : 'RoundNotProvable'}${expected.where}`,
    );
    const ids = candidateIds(input, phases, expected);
    const results = await world.proveEach(proxy, ids, instant, input.maxAge);
    ids.forEach((id, i) => {
      const result = results[i];
      const where = `round ${id >> 64n}/${id & LOCAL} at T0 + ${instant - T0}`;
      if (expected.kind === 'round' && id === expected.round.roundId) {
        expect(result, where).toEqual({
          proved: true,
          verdict: expected.verdict,
          answer: expected.round.answer,
          updatedAt: BigInt(expected.round.updatedAtMs / 1000),
        });
      } else if (expected.kind === 'unprovable' && id === expected.round.roundId) {
        expect(result, where).toMatchObject({ proved: false, error: 'RoundNotProvable' });
      } else {
        expect(result?.proved, where).toBe(false);
        if (result && !result.proved) count(`refused ${result.error}`);
      }
    });
  }
}

test('at any instant of any history, the proof accepts the round core picks, with its verdict, and no other', async () => {
  await fc.assert(fc.asyncProperty(historyArbitrary, checkHistory), { numRuns: RUNS, endOnFailure: true });
  console.log('verdicts and refusals over all instants:', Object.fromEntries([...seen].sort()));
  expect(seen.get('InForce')).toBeGreaterThan(0);
}, 600_000);

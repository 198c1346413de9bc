import { type Address, encodeDeployData } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { devFeedAggregatorAbi, devFeedAggregatorBytecode } from '../src/dev-feeds.gen.ts';
import { devAccount } from './chain-clients.ts';
import {
  createFeedWorld,
  type FeedWorld,
  type HistoryPhase,
  type HistoryRound,
  OWNER,
  roundIdOf,
  T0,
  WRITER,
} from './feed-world.ts';
import { backdatedFeedAggregatorAbi } from './round-in-force.gen.ts';

// Every verdict and every refusal of RoundInForce (contracts/lib/RoundInForce.sol), on back-dated
// histories and on the dev feed, and the gas of a lock and a close proved in one call
// (docs/decisions/029-price-outcomes-from-the-feed.md).

let world: FeedWorld;
beforeAll(async () => {
  world = await createFeedWorld();
});
afterAll(() => world?.stop());

const MAX_AGE = 120n;
const PRICE = 600_00000000n;

/** Rounds 1…n of a phase, updated at `T0 + offset` for each offset, answering PRICE + their round. */
const rounds = (offsets: number[], first = 1n): HistoryRound[] =>
  offsets.map((offset, i) => ({
    round: first + BigInt(i),
    answer: PRICE + first + BigInt(i),
    updatedAt: T0 + BigInt(offset),
  }));

const at = (offset: number) => T0 + BigInt(offset);
const inForce = (round: HistoryRound, verdict: 'InForce' | 'Stale' | 'NotPositive' = 'InForce') => ({
  proved: true,
  verdict,
  answer: round.answer,
  updatedAt: round.updatedAt,
});
const refused = (error: string, ...args: unknown[]) => ({ proved: false, error, args });

/** The proof of round `round` of `phase` at `T0 + offset`. */
const proofOf = (feed: Address, phase: number, round: bigint, offset: number, maxAge = MAX_AGE) =>
  world.prove(feed, roundIdOf(phase, round), at(offset), maxAge);

function roundOf(phase: HistoryPhase, round: bigint): HistoryRound {
  const found = phase.rounds.find((candidate) => candidate.round === round);
  if (!found) throw new Error(`no round ${round}`);
  return found;
}

describe('within one phase', () => {
  const phase: HistoryPhase = { rounds: rounds([0, 60, 120, 180, 240]) };
  let feed: Address;
  beforeAll(async () => {
    ({ proxy: feed } = await world.backdatedFeed([phase]));
  });

  test('the round updated at or before the instant, whose next round is after it, is in force', async () => {
    for (const offset of [60, 90, 119]) {
      expect(await proofOf(feed, 1, 2n, offset)).toEqual(inForce(roundOf(phase, 2n)));
    }
  });

  test('a round updated after the instant is too late', async () => {
    expect(await proofOf(feed, 1, 3n, 119)).toEqual(refused('RoundTooLate', roundIdOf(1, 3n), at(120)));
  });

  test('an earlier round is not in force once its next round is updated, at the same second included', async () => {
    expect(await proofOf(feed, 1, 2n, 120)).toEqual(
      refused('RoundNotInForce', roundIdOf(1, 2n), roundIdOf(1, 3n)),
    );
    expect(await proofOf(feed, 1, 1n, 200)).toEqual(
      refused('RoundNotInForce', roundIdOf(1, 1n), roundIdOf(1, 2n)),
    );
  });

  test('the latest round is in force from its update on: no round follows it yet', async () => {
    expect(await proofOf(feed, 1, 5n, 240)).toEqual(inForce(roundOf(phase, 5n)));
    expect(await proofOf(feed, 1, 5n, 300)).toEqual(inForce(roundOf(phase, 5n)));
  });

  test('a round in force but older than maxAge is stale; at exactly maxAge it is still fresh', async () => {
    expect(await proofOf(feed, 1, 5n, 240 + 120)).toEqual(inForce(roundOf(phase, 5n)));
    expect(await proofOf(feed, 1, 5n, 240 + 121)).toEqual(inForce(roundOf(phase, 5n), 'Stale'));
    expect(await proofOf(feed, 1, 5n, 240 + 121, 121n)).toEqual(inForce(roundOf(phase, 5n)));
  });

  test('ids the feed does not hold: round 0, phase 0, a phase to come, a round to come', async () => {
    for (const roundId of [roundIdOf(1, 0n), roundIdOf(0, 2n), roundIdOf(2, 1n), roundIdOf(1, 6n)]) {
      expect(await world.prove(feed, roundId, at(300), MAX_AGE)).toEqual(refused('NoSuchRound', roundId));
    }
  });

  test('an instant before the whole history has no round: the first is too late', async () => {
    expect(await proofOf(feed, 1, 1n, -1)).toEqual(refused('RoundTooLate', roundIdOf(1, 1n), at(0)));
  });
});

describe('answers that are no price', () => {
  test('a round in force that answered zero or less is not positive, even when also stale', async () => {
    const phase: HistoryPhase = {
      rounds: [
        { round: 1n, answer: 0n, updatedAt: at(0) },
        { round: 2n, answer: -5n, updatedAt: at(60) },
      ],
    };
    const { proxy } = await world.backdatedFeed([phase]);
    expect(await proofOf(proxy, 1, 1n, 30)).toEqual(inForce(roundOf(phase, 1n), 'NotPositive'));
    expect(await proofOf(proxy, 1, 2n, 100)).toEqual(inForce(roundOf(phase, 2n), 'NotPositive'));
    // Judged as judgeCoveringRound does: not positive before stale.
    expect(await proofOf(proxy, 1, 2n, 10_000)).toEqual(inForce(roundOf(phase, 2n), 'NotPositive'));
  });
});

describe('feeds that revert for a round without data', () => {
  const phase: HistoryPhase = { rounds: rounds([0, 60]), revertsWithoutData: true };
  let feed: Address;
  beforeAll(async () => {
    ({ proxy: feed } = await world.backdatedFeed([phase]));
  });

  test('the latest round is in force, its next id reverting', async () => {
    expect(await proofOf(feed, 1, 2n, 100)).toEqual(inForce(roundOf(phase, 2n)));
  });

  test('a round without data reverts the read: no such round', async () => {
    expect(await proofOf(feed, 1, 3n, 100)).toEqual(refused('NoSuchRound', roundIdOf(1, 3n)));
  });

  test('an earlier round is still refused for its successor', async () => {
    expect(await proofOf(feed, 1, 1n, 100)).toEqual(
      refused('RoundNotInForce', roundIdOf(1, 1n), roundIdOf(1, 2n)),
    );
  });
});

describe('across phases', () => {
  // Phase 1 keeps publishing after phase 2 starts (its round 4, at 400), as an old aggregator may.
  const phase1: HistoryPhase = { rounds: rounds([0, 60, 120, 400]) };
  const phase2: HistoryPhase = { rounds: rounds([300, 360]) };
  let feed: Address;
  beforeAll(async () => {
    ({ proxy: feed } = await world.backdatedFeed([phase1, phase2]));
  });

  test('a round of the previous phase is in force until the current phase’s first round', async () => {
    expect(await proofOf(feed, 1, 3n, 200)).toEqual(inForce(roundOf(phase1, 3n)));
    expect(await proofOf(feed, 1, 3n, 299)).toEqual(inForce(roundOf(phase1, 3n), 'Stale'));
    expect(await proofOf(feed, 1, 3n, 299, 600n)).toEqual(inForce(roundOf(phase1, 3n)));
    expect(await proofOf(feed, 1, 3n, 300)).toEqual(
      refused('RoundNotInForce', roundIdOf(1, 3n), roundIdOf(2, 1n)),
    );
  });

  test('the previous phase’s rounds after the current phase started are replaced', async () => {
    expect(await proofOf(feed, 1, 4n, 450)).toEqual(
      refused('RoundNotInForce', roundIdOf(1, 4n), roundIdOf(2, 1n)),
    );
  });

  test('the current phase’s first round is in force from its update, too late before it', async () => {
    expect(await proofOf(feed, 2, 1n, 300)).toEqual(inForce(roundOf(phase2, 1n)));
    expect(await proofOf(feed, 2, 1n, 200)).toEqual(refused('RoundTooLate', roundIdOf(2, 1n), at(300)));
    expect(await proofOf(feed, 2, 2n, 10_000)).toEqual(inForce(roundOf(phase2, 2n), 'Stale'));
  });

  test('the previous phase’s last round is in force, its aggregator saying it is its latest', async () => {
    const last: HistoryPhase = { rounds: rounds([0, 60]) };
    const { proxy } = await world.backdatedFeed([last, { rounds: rounds([300]) }]);
    expect(await proofOf(proxy, 1, 2n, 150)).toEqual(inForce(roundOf(last, 2n)));
  });

  test('phases older than the one before the current are refused', async () => {
    const { proxy } = await world.backdatedFeed([
      { rounds: rounds([0, 60]) },
      { rounds: rounds([300]) },
      { rounds: rounds([600]) },
    ]);
    expect(await proofOf(proxy, 1, 2n, 100)).toEqual(refused('PhaseTooOld', roundIdOf(1, 2n), 3));
    expect(await proofOf(proxy, 2, 1n, 400)).toEqual(
      inForce({ round: 1n, answer: PRICE + 1n, updatedAt: at(300) }),
    );
  });

  test('a current phase with no round yet leaves the previous one in force, when its aggregator answers zeros', async () => {
    const previous: HistoryPhase = { rounds: rounds([0, 60]) };
    const { proxy } = await world.backdatedFeed([previous, { rounds: [] }]);
    expect(await proofOf(proxy, 1, 2n, 100)).toEqual(inForce(roundOf(previous, 2n)));
    expect(await proofOf(proxy, 2, 1n, 100)).toEqual(refused('NoSuchRound', roundIdOf(2, 1n)));
  });

  test('an empty current phase whose aggregator reverts instead cannot be told empty: refused', async () => {
    const { proxy } = await world.backdatedFeed([
      { rounds: rounds([0, 60]) },
      { rounds: [], revertsWithoutData: true },
    ]);
    expect(await proofOf(proxy, 1, 2n, 100)).toEqual(refused('RoundNotProvable', roundIdOf(1, 2n)));
  });
});

describe('holes: ids without data inside a phase', () => {
  test('a round whose next id is a hole is refused unless it is its phase’s latest', async () => {
    // Round 3 is missing.
    const phase: HistoryPhase = { rounds: [...rounds([0, 60]), ...rounds([180], 4n)] };
    const { proxy } = await world.backdatedFeed([phase]);
    expect(await proofOf(proxy, 1, 2n, 100)).toEqual(refused('RoundNotProvable', roundIdOf(1, 2n)));
    expect(await proofOf(proxy, 1, 2n, 200)).toEqual(refused('RoundNotProvable', roundIdOf(1, 2n)));
    expect(await proofOf(proxy, 1, 4n, 200)).toEqual(inForce(roundOf(phase, 4n)));
    expect(await proofOf(proxy, 1, 3n, 200)).toEqual(refused('NoSuchRound', roundIdOf(1, 3n)));
  });

  test('in the previous phase too, the phase’s latest read from its aggregator', async () => {
    const phase1: HistoryPhase = { rounds: [...rounds([0, 60]), ...rounds([180], 4n)] };
    const { proxy } = await world.backdatedFeed([phase1, { rounds: rounds([600]) }]);
    expect(await proofOf(proxy, 1, 2n, 100)).toEqual(refused('RoundNotProvable', roundIdOf(1, 2n)));
    expect(await proofOf(proxy, 1, 4n, 200)).toEqual(inForce(roundOf(phase1, 4n)));
  });

  test('a current phase with rounds but no first round leaves the previous phase unprovable', async () => {
    const previous: HistoryPhase = { rounds: rounds([0, 60]) };
    const current: HistoryPhase = { rounds: rounds([300], 2n) };
    const { proxy } = await world.backdatedFeed([previous, current]);
    expect(await proofOf(proxy, 1, 2n, 100)).toEqual(refused('RoundNotProvable', roundIdOf(1, 2n)));
    expect(await proofOf(proxy, 2, 2n, 400)).toEqual(inForce(roundOf(current, 2n)));
  });

  test('a phase’s latest that cannot be read (latestRoundData reverts) proves nothing', async () => {
    const phase1: HistoryPhase = { rounds: rounds([0, 60]) };
    const phase2: HistoryPhase = { rounds: rounds([300, 360]) };
    const { proxy, aggregators } = await world.backdatedFeed([phase1, phase2]);
    for (const aggregator of aggregators) {
      await world.mined(
        world.walletOf(OWNER).writeContract({
          address: aggregator,
          abi: backdatedFeedAggregatorAbi,
          functionName: 'setLatestReverts',
          args: [true],
        }),
      );
    }
    expect(await proofOf(proxy, 1, 2n, 200)).toEqual(refused('RoundNotProvable', roundIdOf(1, 2n)));
    expect(await proofOf(proxy, 2, 2n, 400)).toEqual(refused('RoundNotProvable', roundIdOf(2, 2n)));
    // A round whose next one has data needs no latest.
    expect(await proofOf(proxy, 2, 1n, 330)).toEqual(inForce(roundOf(phase2, 1n)));
  });

  test('the last id a phase can number has no next one in its phase', async () => {
    const last = (1n << 64n) - 1n;
    const phase: HistoryPhase = { rounds: rounds([0], last) };
    const { proxy } = await world.backdatedFeed([phase]);
    expect(await proofOf(proxy, 1, last, 30)).toEqual(inForce(roundOf(phase, last)));
  });
});

describe('on the dev feed, in real time', () => {
  let feed: Address;
  let aggregator: Address;
  beforeAll(async () => {
    aggregator = await world.deploy(
      encodeDeployData({
        abi: devFeedAggregatorAbi,
        bytecode: devFeedAggregatorBytecode,
        args: [devAccount(WRITER).address, 8, 'BNB / USD'],
      }),
    );
    ({ proxy: feed } = await world.backdatedFeed([{ rounds: [] }]));
    await world.setAggregator(feed, aggregator);
  });

  let published = 0n;
  /** Publishes the next round of phase 2: its id and time. */
  async function publish(answer: bigint) {
    await world.mined(
      world.walletOf(WRITER).writeContract({
        address: aggregator,
        abi: devFeedAggregatorAbi,
        functionName: 'publish',
        args: [answer],
      }),
    );
    published += 1n;
    return { roundId: roundIdOf(2, published), updatedAt: await world.latestTimestamp() };
  }

  test('the instant must be past: a round published later in this block could still cover it', async () => {
    const { roundId: id, updatedAt } = await publish(PRICE);
    await world.testClient.increaseTime({ seconds: 10 });
    await world.testClient.mine({ blocks: 1 });
    const now = await world.proveSecondsAgo(feed, id, 0n, MAX_AGE);
    expect(now).toMatchObject({ proved: false, error: 'InstantNotPast' });
    expect(await world.proveSecondsAgo(feed, id, 1n, MAX_AGE)).toEqual({
      proved: true,
      verdict: 'InForce',
      answer: PRICE,
      updatedAt,
    });
    expect(await world.prove(feed, id, (await world.latestTimestamp()) + 3600n, MAX_AGE)).toMatchObject({
      proved: false,
      error: 'InstantNotPast',
    });
  });

  test('a lock and a close proved in one call cost under 50k gas in the current phase, 70k in the previous one', async () => {
    const history: Array<{ roundId: bigint; updatedAt: bigint }> = [];
    for (let i = 0; i < 10; i++) {
      history.push(await publish(PRICE + BigInt(i)));
      await world.testClient.increaseTime({ seconds: 60 });
    }
    await world.testClient.mine({ blocks: 1 });
    const proofAt = (round: { roundId: bigint; updatedAt: bigint } | undefined) => {
      if (!round) throw new Error('no round');
      return { roundId: round.roundId, instant: round.updatedAt + 30n };
    };
    // A settlement soon after its close: the lock's round has a next round, the close's is the latest.
    const lock = proofAt(history[4]);
    const close = proofAt(history[9]);
    const [lockGas = 0n, closeGas = 0n] = await world.gasOfProofs(feed, [lock, close], MAX_AGE);
    // A settlement later on: the close's round has a next round too.
    const [, lateCloseGas = 0n] = await world.gasOfProofs(feed, [lock, proofAt(history[8])], MAX_AGE);
    // After a move to a new aggregator, rounds of the previous phase: its last round also reads its
    // own aggregator's latest, and each reads the current phase's first round, or when there is none
    // yet, the proxy's latest (seven reads, the most a proof makes).
    const next = await world.deploy(
      encodeDeployData({
        abi: devFeedAggregatorAbi,
        bytecode: devFeedAggregatorBytecode,
        args: [devAccount(WRITER).address, 8, 'BNB / USD'],
      }),
    );
    await world.setAggregator(feed, next);
    const [emptyPhaseLockGas = 0n, emptyPhaseCloseGas = 0n] = await world.gasOfProofs(
      feed,
      [lock, close],
      MAX_AGE,
    );
    await world.mined(
      world.walletOf(WRITER).writeContract({
        address: next,
        abi: devFeedAggregatorAbi,
        functionName: 'publish',
        args: [PRICE],
      }),
    );
    const [previousLockGas = 0n, previousCloseGas = 0n] = await world.gasOfProofs(
      feed,
      [lock, close],
      MAX_AGE,
    );
    const rows = [
      ['the close the latest round', lockGas, closeGas, 50_000n],
      ['both with a next round', lockGas, lateCloseGas, 50_000n],
      ['both in the previous phase', previousLockGas, previousCloseGas, 70_000n],
      ['both in the previous phase, the current empty', emptyPhaseLockGas, emptyPhaseCloseGas, 70_000n],
    ] as const;
    console.log(
      `RoundInForce.prove gas of a lock and a close (first, second, both):\n${rows
        .map(([name, first, second]) => `  ${name.padEnd(48)} ${first} ${second} ${first + second}`)
        .join('\n')}`,
    );
    for (const [name, first, second, most] of rows) expect(first + second, name).toBeLessThan(most);
  });
});

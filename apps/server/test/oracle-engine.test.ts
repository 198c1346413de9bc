import { computeRoundPayouts } from '@pm/core/payouts';
import { parseUsdPrice } from '@pm/core/price';
import { ROUND_OUTCOME, roundMarket, roundVerdictHash } from '@pm/escrow/round-settlement';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createManualClock } from '../src/chain/clock.ts';
import { oracleBets, oracleRounds, outbox, payoutLists, userStats } from '../src/db/schema.ts';
import { AppError } from '../src/errors/app-error.ts';
import { type PriceAtInstant, PriceFeedError } from '../src/prices/price-feed.ts';
import { createSimulatedFeed } from '../src/prices/simulated-feed.ts';
import {
  at,
  clearOracleTables,
  createTestEngine,
  insertSample,
  NOON_EPOCH,
  PLAYERS,
  placeBet,
} from './support/oracle-fixtures.ts';
import { openTestDatabase, type TestDatabase } from './support/test-database.ts';

const E = NOON_EPOCH;
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());
beforeEach(() => clearOracleTables(database.db));

const round = async (epoch: number) => {
  const [row] = await database.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
  if (!row) throw new Error(`no round ${epoch}`);
  return row;
};
const betsOf = (epoch: number) =>
  database.db.select().from(oracleBets).where(eq(oracleBets.epoch, epoch)).orderBy(asc(oracleBets.id));

/** Genesis at 12:00:10 and one bet per entry, placed at 12:01:00. */
async function startWithBets(
  engineFeeBps: number,
  entries: Array<{ position: 'bull' | 'bear'; bnb: string; user?: string }>,
  overrides: Parameters<typeof createTestEngine>[1] = {},
) {
  const t = createTestEngine(database.db, { feeBps: engineFeeBps, ...overrides });
  t.clock.set(at(10));
  await t.engine.genesis();
  for (const [i, entry] of entries.entries()) {
    await placeBet(database.db, {
      epoch: E,
      position: entry.position,
      bnb: entry.bnb,
      user: entry.user ?? PLAYERS[i % PLAYERS.length] ?? PLAYERS[0],
      blockTime: at(60),
    });
  }
  return t;
}

/** Runs the engine at the lock (12:05) and the close (12:10) with the given prices sampled just before. */
async function lockAndClose(t: ReturnType<typeof createTestEngine>, lockUsd: string, closeUsd: string) {
  await insertSample(database.db, { usd: lockUsd, at: at(299) });
  // Taken after the lock instant: must not be the lock price.
  await insertSample(database.db, { usd: '999.00', at: at(301) });
  t.clock.set(at(300));
  const locked = await t.engine.tick();
  await insertSample(database.db, { usd: closeUsd, at: at(598) });
  t.clock.set(at(600.4));
  const ended = await t.engine.tick();
  return { locked, ended };
}

describe('round schedule', () => {
  test('genesis inside the betting window opens the current round and creates the next as upcoming', async () => {
    const t = createTestEngine(database.db);
    t.clock.set(at(10));
    const report = await t.engine.genesis();
    expect(report.created).toEqual([E, E + 1]);
    const current = await round(E);
    expect(current).toMatchObject({
      status: 'live',
      startTime: at(0),
      lockTime: at(300),
      closeTime: at(600),
    });
    expect(await round(E + 1)).toMatchObject({ status: 'upcoming', startTime: at(600), lockTime: at(900) });
  });

  test('genesis after the betting window starts with the next round, never a round it cannot take bets on', async () => {
    const t = createTestEngine(database.db);
    t.clock.set(at(400));
    expect((await t.engine.genesis()).created).toEqual([E + 1]);
    expect((await round(E + 1)).status).toBe('upcoming');
  });

  test('genesis while rounds run is refused', async () => {
    const t = createTestEngine(database.db);
    t.clock.set(at(10));
    await t.engine.genesis();
    const error = await t.engine.genesis().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error instanceof AppError && error.code).toBe('ROUNDS_ALREADY_STARTED');
  });

  test('without genesis the engine does nothing; with autoGenesis an empty database starts by itself', async () => {
    const manual = createTestEngine(database.db);
    manual.clock.set(at(10));
    expect((await manual.engine.tick()).created).toEqual([]);
    const auto = createTestEngine(database.db, { autoGenesis: true });
    auto.clock.set(at(10));
    expect((await auto.engine.tick()).created).toEqual([E, E + 1]);
  });

  test('an upcoming round goes live at its start and the one after it is created then', async () => {
    const t = createTestEngine(database.db);
    t.clock.set(at(10));
    await t.engine.genesis();
    await insertSample(database.db, { usd: '600', at: at(299) });
    t.clock.set(at(300));
    await t.engine.tick();
    await insertSample(database.db, { usd: '600', at: at(599) });
    t.clock.set(at(600));
    const report = await t.engine.tick();
    expect(report).toMatchObject({ started: [E + 1], created: [E + 2] });
    expect((await round(E + 1)).status).toBe('live');
    expect((await round(E + 2)).status).toBe('upcoming');
  });

  test('a tick before an instant changes nothing, and running a tick twice does nothing the second time', async () => {
    const t = createTestEngine(database.db);
    t.clock.set(at(10));
    await t.engine.genesis();
    await insertSample(database.db, { usd: '600', at: at(298) });
    t.clock.set(at(299.9));
    expect(await t.engine.tick()).toEqual({ created: [], started: [], locked: [], ended: [] });
    t.clock.set(at(300));
    expect((await t.engine.tick()).locked).toEqual([E]);
    expect(await t.engine.tick()).toEqual({ created: [], started: [], locked: [], ended: [] });
  });
});

describe('lock, close and payouts', () => {
  test('the lock price is the sample at or just before the lock; the close decides the result and the payouts', async () => {
    const t = await startWithBets(300, [
      { position: 'bull', bnb: '1' },
      { position: 'bull', bnb: '3' },
      { position: 'bear', bnb: '2' },
    ]);
    const { locked, ended } = await lockAndClose(t, '600.12345678', '600.2');
    expect(locked.locked).toEqual([E]);
    expect(ended.ended).toEqual([{ epoch: E, result: 'bull' }]);
    const row = await round(E);
    expect(row).toMatchObject({
      status: 'ended',
      result: 'bull',
      lockPrice: parseUsdPrice('600.12345678'),
      closePrice: parseUsdPrice('600.2'),
      lockPriceAt: at(299),
      closePriceAt: at(598),
      priceSource: 'simulated',
      totalUpAmount: 4n * 10n ** 18n,
      totalDownAmount: 2n * 10n ** 18n,
      upCount: 2,
      downCount: 1,
    });
    const bets = await betsOf(E);
    const expected = computeRoundPayouts({
      bets: bets.map((bet) => ({
        id: bet.id,
        side: bet.position === 'bull' ? 'bull' : 'bear',
        amountWei: bet.amount,
      })),
      result: 'bull',
      feeBps: 300,
    });
    // Fee 3 % of 6 BNB taken first; the bulls share 5.82 BNB 1:3; the bear gets 0.
    expect(bets.map((bet) => bet.payoutAmount)).toEqual([
      1_455_000_000_000_000_000n,
      4_365_000_000_000_000_000n,
      0n,
    ]);
    expect(expected.payouts.map((payout) => payout.returnWei)).toEqual([
      1_455_000_000_000_000_000n,
      4_365_000_000_000_000_000n,
    ]);
  });

  test('the leaderboard counts the round once: winnings are profit, every bet on it settled', async () => {
    const t = await startWithBets(0, [
      { position: 'bull', bnb: '1', user: PLAYERS[0] },
      { position: 'bear', bnb: '1', user: PLAYERS[1] },
    ]);
    await lockAndClose(t, '600', '590');
    const stats = await database.db.select().from(userStats).orderBy(asc(userStats.address));
    const byAddress = Object.fromEntries(stats.map((row) => [row.address, row]));
    expect(byAddress[PLAYERS[1]]).toMatchObject({ totalWinnings: 10n ** 18n, wonBets: 1, settledBets: 1 });
    expect(byAddress[PLAYERS[0]]).toMatchObject({ totalWinnings: 0n, wonBets: 0, settledBets: 1 });
  });

  test('a draw refunds every stake', async () => {
    const t = await startWithBets(300, [
      { position: 'bull', bnb: '1' },
      { position: 'bear', bnb: '0.5' },
    ]);
    const { ended } = await lockAndClose(t, '600', '600');
    expect(ended.ended).toEqual([{ epoch: E, result: 'draw' }]);
    expect((await betsOf(E)).map((bet) => bet.payoutAmount)).toEqual([10n ** 18n, 5n * 10n ** 17n]);
  });

  test('a one-sided round that the bets lose refunds every stake', async () => {
    const t = await startWithBets(300, [
      { position: 'bull', bnb: '1' },
      { position: 'bull', bnb: '2' },
    ]);
    await lockAndClose(t, '600', '599');
    expect((await round(E)).result).toBe('bear');
    expect((await betsOf(E)).map((bet) => bet.payoutAmount)).toEqual([10n ** 18n, 2n * 10n ** 18n]);
  });

  test('a one-sided round that the bets win returns the pool minus the fee, pro rata', async () => {
    const t = await startWithBets(300, [
      { position: 'bear', bnb: '1' },
      { position: 'bear', bnb: '3' },
    ]);
    await lockAndClose(t, '600', '599');
    expect((await betsOf(E)).map((bet) => bet.payoutAmount)).toEqual([
      970_000_000_000_000_000n,
      2_910_000_000_000_000_000n,
    ]);
  });

  test('an empty round ends with its result and nothing to pay', async () => {
    const t = await startWithBets(0, []);
    const { ended } = await lockAndClose(t, '600', '601');
    expect(ended.ended).toEqual([{ epoch: E, result: 'bull' }]);
  });
});

describe('rounds on the escrow (decision 026)', () => {
  const escrow = { chainId: 31337, address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' };
  /** The bets as the intake records deposits: each with its stake id on the escrow. */
  const stakeThem = (epoch: number) =>
    database.db.execute(sql`update oracle_bets set stake_id = id + 1000 where epoch = ${epoch}`);
  const settlements = () => database.db.select().from(payoutLists).orderBy(asc(payoutLists.epoch));

  test('a round that ends with stakes on the escrow makes its settlement due in the same transaction', async () => {
    const t = await startWithBets(
      300,
      [
        { position: 'bull', bnb: '1' },
        { position: 'bear', bnb: '2' },
      ],
      { escrow },
    );
    await stakeThem(E);
    await lockAndClose(t, '600', '601');
    await t.engine.tick();
    const row = await round(E);
    const market = roundMarket(E, row.lockTime);
    expect(await settlements()).toMatchObject([
      {
        epoch: E,
        status: 'due',
        marketKey: market.key,
        marketId: market.id,
        closesAt: market.closesAt,
        chainId: 31337,
        escrow: escrow.address.toLowerCase(),
        refund: false,
        outcome: ROUND_OUTCOME.bull,
        verdictHash: roundVerdictHash({
          epoch: E,
          lockPrice: row.lockPrice,
          lockFeedRoundId: row.lockPriceRoundId,
          closePrice: row.closePrice,
          closeFeedRoundId: row.closePriceRoundId,
        }),
        document: null,
      },
    ]);
  });

  test.each([
    ['a draw', '600', '600', ROUND_OUTCOME.draw],
    ['a round nobody won (one-sided, lost)', '600', '599', ROUND_OUTCOME.bear],
  ])('%s settles as a refund', async (_name, lockUsd, closeUsd, outcome) => {
    const bets =
      closeUsd === '600'
        ? [
            { position: 'bull' as const, bnb: '1' },
            { position: 'bear' as const, bnb: '1' },
          ]
        : [{ position: 'bull' as const, bnb: '1' }];
    const t = await startWithBets(300, bets, { escrow });
    await stakeThem(E);
    await lockAndClose(t, lockUsd, closeUsd);
    expect(await settlements()).toMatchObject([{ epoch: E, refund: true, outcome }]);
  });

  test('a cancelled round settles as a refund', async () => {
    const t = await startWithBets(0, [{ position: 'bull', bnb: '1' }], { escrow });
    await stakeThem(E);
    t.clock.set(at(300));
    expect((await t.engine.tick()).ended).toEqual([
      { epoch: E, result: 'cancelled', reason: 'lock_price_missing' },
    ]);
    expect(await settlements()).toMatchObject([{ epoch: E, refund: true, outcome: ROUND_OUTCOME.cancelled }]);
  });

  test('nothing is settled on chain for bets with no stake on the escrow, an empty round, or without an escrow', async () => {
    const unstaked = await startWithBets(0, [{ position: 'bull', bnb: '1' }], { escrow });
    await lockAndClose(unstaked, '600', '601');
    expect(await settlements()).toEqual([]);

    await clearOracleTables(database.db);
    const noEscrow = await startWithBets(0, [{ position: 'bull', bnb: '1' }]);
    await stakeThem(E);
    await lockAndClose(noEscrow, '600', '601');
    expect(await settlements()).toEqual([]);
  });
});

describe('missing and stale prices', () => {
  test('a lock price older than ORACLE_MAX_AGE_S at the lock cancels the round and refunds every stake', async () => {
    const t = await startWithBets(0, [
      { position: 'bull', bnb: '1' },
      { position: 'bear', bnb: '2' },
    ]);
    // Sampled just before the lock, but the feed itself had not updated for 121 s.
    await insertSample(database.db, { usd: '600', at: at(299), updatedAt: at(299 - 121) });
    t.clock.set(at(300));
    const report = await t.engine.tick();
    expect(report.ended).toEqual([{ epoch: E, result: 'cancelled', reason: 'lock_price_missing' }]);
    expect(await round(E)).toMatchObject({ status: 'ended', result: 'cancelled', lockPrice: null });
    expect((await betsOf(E)).map((bet) => bet.payoutAmount)).toEqual([10n ** 18n, 2n * 10n ** 18n]);
  });

  test('no sample near the close cancels the round; nothing counts on the leaderboard', async () => {
    const t = await startWithBets(0, [
      { position: 'bull', bnb: '1' },
      { position: 'bear', bnb: '1' },
    ]);
    await insertSample(database.db, { usd: '600', at: at(299) });
    t.clock.set(at(300));
    await t.engine.tick();
    // The last sample before the close is 301 s old.
    t.clock.set(at(600));
    const report = await t.engine.tick();
    expect(report.ended).toEqual([{ epoch: E, result: 'cancelled', reason: 'close_price_missing' }]);
    expect((await betsOf(E)).every((bet) => bet.payoutAmount === bet.amount)).toBe(true);
    const stats = await database.db.select().from(userStats);
    expect(stats.every((row) => row.settledBets === 0 && row.totalWinnings === 0n)).toBe(true);
  });

  test('a feed round id may repeat but never go back', async () => {
    const t = await startWithBets(0, [{ position: 'bull', bnb: '1' }]);
    await insertSample(database.db, { usd: '600', at: at(299), roundId: '18446744073709551620' });
    t.clock.set(at(300));
    await t.engine.tick();
    expect((await round(E)).lockPriceRoundId).toBe('18446744073709551620');
    await insertSample(database.db, { usd: '610', at: at(599), roundId: '18446744073709551619' });
    t.clock.set(at(600));
    expect((await t.engine.tick()).ended).toEqual([
      { epoch: E, result: 'cancelled', reason: 'close_price_missing' },
    ]);

    // The same round id at lock and close is fine (pancake-smart-contracts#56).
    await insertSample(database.db, { usd: '600', at: at(899), roundId: '18446744073709551620' });
    t.clock.set(at(900));
    await t.engine.tick();
    await insertSample(database.db, { usd: '601', at: at(1199), roundId: '18446744073709551620' });
    t.clock.set(at(1200));
    expect((await t.engine.tick()).ended).toEqual([{ epoch: E + 1, result: 'bull' }]);
  });

  test('after a 25-minute outage the missed rounds are cancelled and refunded, and rounds start again', async () => {
    const t = await startWithBets(0, [
      { position: 'bull', bnb: '1' },
      { position: 'bear', bnb: '1' },
    ]);
    await insertSample(database.db, { usd: '600', at: at(290) });
    t.clock.set(at(300));
    expect((await t.engine.tick()).locked).toEqual([E]);

    // Down from 12:05 to 12:30: no samples, no ticks.
    t.clock.set(at(300 + 25 * 60));
    const report = await t.engine.tick();
    expect(report.ended).toEqual([
      { epoch: E, result: 'cancelled', reason: 'close_price_missing' },
      { epoch: E + 1, result: 'cancelled', reason: 'lock_price_missing' },
    ]);
    // 12:30 is the start of E + 3: it opens for bets; E + 2 ran entirely while down and never existed.
    expect(report.created).toEqual([E + 3, E + 4]);
    expect((await round(E + 3)).status).toBe('live');
    const rounds = await database.db.select().from(oracleRounds).orderBy(asc(oracleRounds.epoch));
    expect(rounds.map((row) => row.epoch)).toEqual([E, E + 1, E + 3, E + 4]);
    expect(rounds.every((row) => row.closePrice === null)).toBe(true);
    expect((await betsOf(E)).map((bet) => bet.payoutAmount)).toEqual([10n ** 18n, 10n ** 18n]);

    // The sampler is back: the new round locks and closes normally.
    await insertSample(database.db, { usd: '600', at: at(1800 + 299) });
    t.clock.set(at(1800 + 300));
    expect((await t.engine.tick()).locked).toEqual([E + 3]);
  });
});

describe('a price the samples missed is read from the feed', () => {
  const twoSides = [
    { position: 'bull' as const, bnb: '1' },
    { position: 'bear' as const, bnb: '1' },
  ];

  test('the simulated feed answers a missed lock and close from the readings it gave, like an aggregator', async () => {
    const clock = createManualClock(at(0));
    const feed = createSimulatedFeed({ clock, seed: 3 });
    const t = await startWithBets(0, twoSides, { clock, feed });
    // The feed was read at 12:04:59, but no sample was stored (the sampler's write failed).
    clock.set(at(299));
    feed.setPrice(parseUsdPrice('600'));
    await feed.read();
    clock.set(at(300));
    expect((await t.engine.tick()).locked).toEqual([E]);
    expect(await round(E)).toMatchObject({ lockPrice: parseUsdPrice('600'), lockPriceAt: at(299) });

    clock.set(at(590));
    feed.setPrice(parseUsdPrice('590'));
    await feed.read();
    // Read after the close: it must not decide it.
    clock.set(at(601));
    feed.setPrice(parseUsdPrice('700'));
    await feed.read();
    expect((await t.engine.tick()).ended).toEqual([{ epoch: E, result: 'bear' }]);
    expect(await round(E)).toMatchObject({ closePrice: parseUsdPrice('590'), closePriceAt: at(590) });
    expect((await betsOf(E)).map((bet) => bet.payoutAmount)).toEqual([0n, 2n * 10n ** 18n]);

    // E + 1 locks at 12:15; the feed's last reading before it is from 12:10:01, 299 s old: cancelled.
    clock.set(at(900));
    expect((await t.engine.tick()).ended).toEqual([
      { epoch: E + 1, result: 'cancelled', reason: 'lock_price_missing' },
    ]);
  });

  test('a feed that cannot be asked holds the round until it answers, within ORACLE_FEED_WAIT_S', async () => {
    let answer: PriceAtInstant | 'unavailable' = 'unavailable';
    const asked: Date[] = [];
    const feed = {
      async roundAt(instant: Date): Promise<PriceAtInstant> {
        asked.push(instant);
        if (answer === 'unavailable') throw new PriceFeedError('UNAVAILABLE', 'rate limited');
        return answer;
      },
    };
    const t = await startWithBets(0, twoSides, { feed });
    for (const seconds of [300, 301, 420]) {
      t.clock.set(at(seconds));
      expect((await t.engine.tick()).ended).toEqual([]);
      expect((await round(E)).status).toBe('live');
    }
    expect(asked).toEqual([at(300), at(300), at(300)]);
    // The next round still opens for bets on time while this one waits.
    t.clock.set(at(600));
    expect((await t.engine.tick()).started).toEqual([E + 1]);

    const reading = {
      price: parseUsdPrice('600'),
      updatedAt: at(290),
      roundId: null,
      source: 'simulated',
    } as const;
    answer = { found: true, reading: { ...reading, stale: false } };
    await insertSample(database.db, { usd: '610', at: at(599) });
    t.clock.set(at(601));
    const report = await t.engine.tick();
    expect(report.locked).toEqual([E]);
    expect(report.ended).toEqual([{ epoch: E, result: 'bull' }]);
    expect(await round(E)).toMatchObject({
      lockPrice: parseUsdPrice('600'),
      closePrice: parseUsdPrice('610'),
    });
  });

  test('a feed still unreachable ORACLE_FEED_WAIT_S after the lock cancels the round (price_feed_unreachable); the rounds behind it go on', async () => {
    const feed = {
      async roundAt(): Promise<PriceAtInstant> {
        throw new PriceFeedError('UNAVAILABLE', 'rate limited');
      },
    };
    const waiting: number[] = [];
    let unreachable = 0;
    const metrics = {
      recordFeedWaiting: (kind: string, count: number) => kind === 'oracle_round' && waiting.push(count),
      countFeedUnreachable: (kind: string) => {
        if (kind === 'oracle_round') unreachable += 1;
      },
    };
    const t = await startWithBets(0, twoSides, { feed, feedWaitS: 600, metrics });
    t.clock.set(at(300));
    expect((await t.engine.tick()).ended).toEqual([]);
    // 12:14:59, one second short of the bound: E (its lock missed) waits; E + 1 has opened for bets.
    t.clock.set(at(899));
    const held = await t.engine.tick();
    expect(held.ended).toEqual([]);
    expect(held.started).toEqual([E + 1]);
    expect(await round(E)).toMatchObject({ status: 'live', result: null });
    expect(waiting).toEqual([1, 1]);

    // 12:15: the bound. E is cancelled and refunded; E + 1 locks on its own sample.
    await insertSample(database.db, { usd: '600', at: at(899) });
    t.clock.set(at(900));
    const report = await t.engine.tick();
    expect(report.ended).toEqual([{ epoch: E, result: 'cancelled', reason: 'price_feed_unreachable' }]);
    expect(report.locked).toEqual([E + 1]);
    expect(await round(E)).toMatchObject({ status: 'ended', cancelReason: 'price_feed_unreachable' });
    expect((await betsOf(E)).map((bet) => bet.payoutAmount)).toEqual([10n ** 18n, 10n ** 18n]);
    expect(unreachable).toBe(1);
    expect(waiting.at(-1)).toBe(0);

    // E + 1 closes on its sample: nothing waits any more.
    await insertSample(database.db, { usd: '601', at: at(1199) });
    t.clock.set(at(1200));
    expect((await t.engine.tick()).ended).toEqual([{ epoch: E + 1, result: 'bull' }]);
  });

  test('a feed without a fresh round at the instant cancels, as before', async () => {
    const feed = { roundAt: async (): Promise<PriceAtInstant> => ({ found: false, reason: 'stale' }) };
    const t = await startWithBets(0, twoSides, { feed });
    t.clock.set(at(300));
    expect((await t.engine.tick()).ended).toEqual([
      { epoch: E, result: 'cancelled', reason: 'lock_price_missing' },
    ]);
    expect((await betsOf(E)).map((bet) => bet.payoutAmount)).toEqual([10n ** 18n, 10n ** 18n]);
  });
});

describe('operator reset', () => {
  test('reset cancels and refunds every open round and stops; genesis then starts on a fresh epoch', async () => {
    const t = await startWithBets(0, [{ position: 'bull', bnb: '1' }]);
    const report = await t.engine.reset();
    expect(report.ended).toEqual([
      { epoch: E, result: 'cancelled', reason: 'reset' },
      { epoch: E + 1, result: 'cancelled', reason: 'reset' },
    ]);
    expect((await betsOf(E))[0]?.payoutAmount).toBe(10n ** 18n);

    const auto = createTestEngine(database.db, { autoGenesis: true });
    auto.clock.set(at(20));
    expect(await auto.engine.tick()).toEqual({ created: [], started: [], locked: [], ended: [] });

    t.clock.set(at(30));
    expect((await t.engine.genesis()).created).toEqual([E + 2]);
    expect((await round(E + 2)).status).toBe('upcoming');
  });

  test('every change is announced on the rounds topic, in the same transaction', async () => {
    const t = createTestEngine(database.db);
    t.clock.set(at(10));
    await t.engine.genesis();
    const events = await database.db.select().from(outbox).where(eq(outbox.topic, 'rounds'));
    expect(events.map((event) => event.payload)).toEqual([{ id: E }, { id: E + 1 }]);
  });
});

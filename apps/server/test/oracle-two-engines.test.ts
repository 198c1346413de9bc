import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { queryRows } from '../src/db/query-rows.ts';
import { oracleBets, oracleRounds, outbox, userStats } from '../src/db/schema.ts';
import type { EngineReport } from '../src/oracle/round-engine.ts';
import { mulberry32 } from '../src/prices/simulated-feed.ts';
import { at, createTestEngine, insertSample, NOON_S, PLAYERS, placeBet } from './support/oracle-fixtures.ts';

// docs/architecture.md "Scale": the round engine runs on every instance at once. Two engines, each with its own
// connection pool (two server instances), tick together on one PostgreSQL for hours of rounds;
// every round must be locked once and ended once, and settled into the leaderboard once.

const url = process.env.DATABASE_URL;
if (!url) {
  console.warn(
    '\n⚠ oracle-two-engines.test.ts SKIPPED: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) ' +
      'to prove two engines on one PostgreSQL lock and close every round exactly once.\n',
  );
}

const schema = `t_engines_${process.pid}_${Date.now().toString(36)}`;
type Opened = Awaited<ReturnType<typeof openDatabase>>;
let first: Opened;
let second: Opened;

describe.skipIf(!url)('two round engines on one PostgreSQL', () => {
  beforeAll(async () => {
    if (!url) return;
    first = await openDatabase({ url, schema, poolSize: 4 });
    await migrate(first.db);
    second = await openDatabase({ url, schema, poolSize: 4 });
  });
  afterAll(async () => {
    await second?.close();
    if (first) {
      await first.db.execute(sql.raw(`drop schema if exists "${schema}" cascade`));
      await first.close();
    }
  });

  test('over 400 ticks every round is locked exactly once and ended exactly once', async () => {
    const short = { timings: { intervalS: 60, bettingWindowS: 30 } };
    const a = createTestEngine(first.db, short);
    const b = createTestEngine(second.db, short);
    const setBoth = (time: Date) => {
      a.clock.set(time);
      b.clock.set(time);
    };
    setBoth(at(10));
    const random = mulberry32(42);
    const reports: EngineReport[] = [await a.engine.genesis()];
    let bets = 0;
    let offsetS = 10;
    let price = 600;
    for (let tick = 0; tick < 400; tick++) {
      offsetS += 1 + Math.floor(random() * 10);
      price += Math.round((random() - 0.5) * 4);
      // The sampler of one instance stores a sample now and then (sometimes it lags).
      if (random() < 0.9) await insertSample(first.db, { usd: `${price}.5`, at: at(offsetS - 1) });
      setBoth(at(offsetS));
      // A bettor now and then on the round that is live.
      const [live] = await first.db.select().from(oracleRounds).where(eq(oracleRounds.status, 'live'));
      if (live && random() < 0.5 && at(offsetS) < live.lockTime) {
        await placeBet(second.db, {
          epoch: live.epoch,
          position: random() < 0.5 ? 'bull' : 'bear',
          bnb: '0.01',
          user: PLAYERS[bets % PLAYERS.length] ?? PLAYERS[0],
          blockTime: at(offsetS),
        });
        bets += 1;
      }
      reports.push(...(await Promise.all([a.engine.tick(), b.engine.tick(), a.engine.tick()])));
    }

    const locked = reports.flatMap((report) => report.locked);
    const ended = reports.flatMap((report) => report.ended.map((entry) => entry.epoch));
    const created = reports.flatMap((report) => report.created);
    const unique = (list: number[]) => new Set(list).size === list.length;
    expect(unique(locked)).toBe(true);
    expect(unique(ended)).toBe(true);
    expect(unique(created)).toBe(true);

    const rounds = await first.db.select().from(oracleRounds).orderBy(asc(oracleRounds.epoch));
    const endedRounds = rounds.filter((round) => round.status === 'ended');
    expect(endedRounds.length).toBeGreaterThan(30);
    expect(new Set(ended)).toEqual(new Set(endedRounds.map((round) => round.epoch)));
    for (const round of endedRounds) {
      if (round.result === 'cancelled') continue;
      expect(locked).toContain(round.epoch);
      expect(round.lockPrice).not.toBeNull();
      expect(round.closePrice).not.toBeNull();
    }
    // Rounds were created on the boundaries, from the genesis epoch on, with no duplicates.
    expect(rounds[0]?.epoch).toBe(NOON_S / 60);

    // Settled into the leaderboard exactly once: one settled bet per bet in a decided round.
    const [decided] = await queryRows(
      first.db,
      sql`select count(*)::int as n from oracle_bets b join oracle_rounds r on r.epoch = b.epoch
          where r.result in ('bull', 'bear')
            and exists (select 1 from oracle_bets w where w.epoch = b.epoch and w.position = r.result)`,
      z.object({ n: z.number() }),
    );
    const stats = await first.db.select().from(userStats);
    const settled = stats.reduce((sum, row) => sum + row.settledBets, 0);
    expect(settled).toBe(decided?.n);
    expect(stats.reduce((sum, row) => sum + row.totalBets, 0)).toBe(bets);

    // Every bet in an ended round has its payout, written once.
    const unpaid = await first.db
      .select()
      .from(oracleBets)
      .innerJoin(oracleRounds, eq(oracleRounds.epoch, oracleBets.epoch))
      .where(sql`${oracleRounds.status} = 'ended' and ${oracleBets.payoutAmount} is null`);
    expect(unpaid).toEqual([]);

    // One realtime event per round changed by a tick, not one per engine (plus one per bet).
    const events = await first.db.select().from(outbox).where(eq(outbox.topic, 'rounds'));
    const changedPerTick = reports.map(
      (report) =>
        new Set([...report.created, ...report.started, ...report.locked, ...report.ended.map((e) => e.epoch)])
          .size,
    );
    expect(events.length).toBe(bets + changedPerTick.reduce((sum, n) => sum + n, 0));
  });
});

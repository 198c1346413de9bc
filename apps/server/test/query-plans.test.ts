import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimableBetViews } from '../src/claimable-bet-views.ts';
import type { Db } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import * as schema from '../src/db/schema.ts';
import { readClaimable } from '../src/escrow/claims/claimable.ts';
import { readLeaderboard } from '../src/leaderboard/user-stats-repository.ts';
import {
  countMarketParticipants,
  countOpenMarketsByCategory,
  findMarket,
  listMarketBets,
  listOpenMarkets,
  listSettledMarkets,
  listUserBets,
} from '../src/markets/markets-repository.ts';
import { listRoundsForDisplay } from '../src/oracle/oracle-repository.ts';
import { listSettlingPriceMarkets } from '../src/price-markets/price-markets-repository.ts';
import { firstFreshSampleAfter, latestPriceSample } from '../src/prices/price-samples-repository.ts';
import { seedScaleData } from './support/seed-scale.ts';

// Decision 016 "Query shape": at 1M bets every hot read is an index range, never a scan of a big table.
// Each hot read runs through the app's own query functions against a seeded PostgreSQL database; the
// SQL they send is captured and EXPLAINed with the same parameters. PostgreSQL only: PGlite's planner
// is the same code, but seeding 1M rows into it would cost more than the suite can afford.

// `npm test` runs the server suite on PGlite and then, with DATABASE_URL, on PostgreSQL: this file
// runs once, in the PostgreSQL pass.
const url = process.env.TEST_DB === 'pglite' ? undefined : process.env.DATABASE_URL;
if (!url) {
  console.warn(
    process.env.DATABASE_URL
      ? '\n*** query-plans.test.ts skipped in the PGlite pass: it runs in the PostgreSQL pass ***\n'
      : '\n*** query-plans.test.ts SKIPPED: set DATABASE_URL (a PostgreSQL server) to check the hot reads’ plans at 1M bets ***\n',
  );
}

/** Tables whose scan would grow with the product. */
const BIG_TABLES = [
  'bets',
  'oracle_bets',
  'markets',
  'oracle_rounds',
  'user_stats',
  'price_samples',
  'payments',
];

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

function scans(node: PlanNode, found: string[] = []): string[] {
  if (node['Relation Name']) found.push(`${node['Node Type']} on ${node['Relation Name']}`);
  for (const child of node.Plans ?? []) scans(child, found);
  return found;
}

describe.skipIf(!url)('hot reads at 1M bets (PostgreSQL)', () => {
  const name = `h6_plans_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let pool: pg.Pool;
  let db: Db;
  const captured: Array<{ query: string; params: unknown[] }> = [];
  let seeded: Awaited<ReturnType<typeof seedScaleData>>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const target = new URL(url ?? '');
    target.pathname = `/${name}`;
    pool = new pg.Pool({ connectionString: target.toString(), max: 2 });
    // DROP DATABASE … WITH (FORCE) below may terminate a connection the pool is still closing; the
    // pool re-emits that as 'error', which with no listener would be an unhandled error of the file.
    pool.on('error', () => {});
    db = drizzle(pool, {
      schema,
      logger: { logQuery: (query, params) => captured.push({ query, params }) },
    });
    await migrate(db);
    seeded = await seedScaleData(pool, {
      markets: 10_000,
      bets: 1_000_000,
      rounds: 50_000,
      oracleBets: 200_000,
      addresses: 100_000,
    });
    captured.length = 0;
  }, 300_000);

  afterAll(async () => {
    await pool?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  async function plansOf(read: () => Promise<unknown>): Promise<string[]> {
    captured.length = 0;
    await read();
    expect(captured.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const { query, params } of captured) {
      const result = await pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (FORMAT JSON) ${query}`,
        params,
      );
      for (const row of result.rows) for (const plan of row['QUERY PLAN']) scans(plan.Plan, found);
    }
    return found;
  }

  function expectNoBigSeqScan(found: string[]) {
    const seqScans = found.filter((scan) => BIG_TABLES.some((table) => scan === `Seq Scan on ${table}`));
    expect(seqScans).toEqual([]);
    expect(found.some((scan) => /Index|Bitmap/.test(scan))).toBe(true);
  }

  const hotReads: Array<[string, () => Promise<unknown>]> = [
    ['open markets, all', () => listOpenMarkets(db, { category: undefined, limit: 51 })],
    ['open markets, one category', () => listOpenMarkets(db, { category: 'sports', limit: 51 })],
    [
      'open markets, next page',
      () => listOpenMarkets(db, { category: undefined, limit: 51, cursor: seeded.cursor }),
    ],
    ['settled markets', () => listSettledMarkets(db, { category: 'crypto', limit: 21 })],
    // Price markets: the ?betType= filter (partial indexes of migration 0009).
    [
      'open price markets',
      () => listOpenMarkets(db, { category: undefined, betType: 'price_prediction', limit: 51 }),
    ],
    [
      'open custom markets, next page',
      () =>
        listOpenMarkets(db, { category: undefined, betType: 'custom_bet', limit: 51, cursor: seeded.cursor }),
    ],
    [
      'settled price markets',
      () => listSettledMarkets(db, { category: undefined, betType: 'price_prediction', limit: 21 }),
    ],
    ['price markets to settle', () => listSettlingPriceMarkets(db, 20)],
    ['one market', () => findMarket(db, seeded.busyMarketId)],
    ['one market’s bets', () => listMarketBets(db, seeded.busyMarketId, 1000)],
    // Decision 024: the market page's bets by cursor, one wallet's bets in a market, its distinct bettors.
    ['one market’s first page of bets', () => listMarketBets(db, seeded.busyMarketId, 51)],
    [
      'one market’s bets, next page',
      () => listMarketBets(db, seeded.busyMarketId, 51, { cursor: seeded.busyMarketBetsCursor }),
    ],
    [
      'one wallet’s bets in one market',
      () => listMarketBets(db, seeded.busyMarketId, 2, { address: seeded.busyAddress }),
    ],
    ['one market’s participants', () => countMarketParticipants(db, seeded.busyMarketId)],
    ['a user’s bets', () => listUserBets(db, { address: seeded.busyAddress, limit: 21 })],
    ['claimable', () => readClaimable(db, seeded.busyAddress, claimableBetViews)],
    ['leaderboard', () => readLeaderboard(db, 100)],
    ['oracle rounds', () => listRoundsForDisplay(db)],
    ['price', () => latestPriceSample(db, 'chainlink')],
    ['one coin’s price', () => latestPriceSample(db, 'chainlink', 'BTC')],
    [
      'a price market’s settlement reading',
      () =>
        firstFreshSampleAfter(db, {
          source: 'chainlink',
          symbol: 'BNB',
          deadline: new Date(Date.now() - 3600_000),
          maxAgeS: 120,
        }),
    ],
  ];

  for (const [label, read] of hotReads) {
    test(`${label} reads an index, not a whole table`, async () => {
      expectNoBigSeqScan(await plansOf(read));
    });
  }

  test('the busy address has bets and winnings to claim, so its plans are of real reads', async () => {
    const claimable = await readClaimable(db, seeded.busyAddress, claimableBetViews);
    expect(claimable.markets.count).toBeGreaterThan(0);
    expect(claimable.oracle.count).toBeGreaterThan(0);
    expect((await listUserBets(db, { address: seeded.busyAddress, limit: 21 })).length).toBeGreaterThan(5);
    expect(await listMarketBets(db, seeded.busyMarketId, 1000)).toHaveLength(1000);
  });

  test('a market’s participants are counted from the index alone, exactly', async () => {
    // Freshly loaded, no page of bets is all-visible yet: the planner reads the index and the heap
    // pages of the market's rows (a bitmap scan), still one market's range.
    expectNoBigSeqScan(await plansOf(() => countMarketParticipants(db, seeded.busyMarketId)));
    // Once (auto)vacuum has marked the pages all-visible, as it does in a running database, the
    // index alone answers: no heap access.
    await pool.query('VACUUM (ANALYZE) bets');
    const found = await plansOf(() => countMarketParticipants(db, seeded.busyMarketId));
    expect(found.filter((scan) => scan.endsWith(' on bets'))).toEqual(['Index Only Scan on bets']);
    const counted = await pool.query<{ n: number }>(
      'select count(distinct user_address)::int as n from bets where market_id = $1',
      [seeded.busyMarketId],
    );
    expect(await countMarketParticipants(db, seeded.busyMarketId)).toBe(counted.rows[0]?.n);
    const mine = await listMarketBets(db, seeded.busyMarketId, 1000, { address: seeded.busyAddress });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((bet) => bet.userAddress === seeded.busyAddress)).toBe(true);
  });

  test('category counts come from the aggregate and match a count of the markets', async () => {
    const found = await plansOf(() => countOpenMarketsByCategory(db));
    expect(found.every((scan) => scan.endsWith('market_counts'))).toBe(true);
    const counted = await pool.query<{ category: string; n: number }>(
      `select category, count(*)::int as n from markets where status in ('active', 'settling') group by category`,
    );
    const fromAggregate = await countOpenMarketsByCategory(db);
    expect(Object.fromEntries(fromAggregate.map((row) => [row.category, row.count]))).toEqual(
      Object.fromEntries(counted.rows.map((row) => [row.category, row.n])),
    );
  });
});

import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import { type Database, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { queryRows } from '../src/db/query-rows.ts';
import { markets } from '../src/db/schema.ts';
import { settleMarket } from '../src/settlement/settle-market.ts';

// A market with 100k bets settles in seconds (docs/benchmarks.md: under 3 s). Inserts N bets (default 100 000) on one
// market straight into the database, then times settleMarket: the bulk UPDATEs, the market row,
// the leaderboard aggregates and the outbox, in one transaction.
//   npm run bench:settle -w apps/server [-- <bets>]      embedded PGlite (in memory)
//   DATABASE_URL=postgres://… npm run bench:settle -w apps/server     PostgreSQL (a scratch schema)

const betCount = Number(process.argv[2] ?? process.env.BENCH_BETS ?? 100_000);
const FEE_BPS = 200;

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { database: await openDatabase({}), drop: async () => {} };
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const database = await openDatabase({ url, schema });
  return {
    database,
    async drop() {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

async function main() {
  const { database, drop } = await open();
  const { db } = database;
  try {
    await migrate(db);
    const now = new Date();
    const [market] = await db
      .insert(markets)
      .values({
        creatorAddress: `0x${'1'.repeat(40)}`,
        title: 'Benchmark market',
        description: 'Benchmark market',
        category: 'crypto',
        duration: 'hourly',
        startTime: new Date(now.getTime() - 3_600_000),
        deadline: now,
        status: 'settling',
        resolverModel: 'operator',
        resolverPromptVersion: 'bench',
        contentHash: `0x${'0'.repeat(64)}`,
      })
      .returning({ id: markets.id });
    if (!market) throw new Error('no market');

    let started = performance.now();
    // 5 000 bettors; a third bet NO; stakes from 0.005 to 1 BNB.
    await db.execute(sql`
      with paid as (
        insert into payments (chain_id, tx_hash, from_address, amount, intent, block_number, block_time, purpose, status)
        select 31337, '0x' || lpad(to_hex(g), 64, '0'), '0x' || lpad(to_hex(g % 5000), 40, '0'),
               (5000000000000000 + (g * 7919 % 996) * 1000000000000000)::numeric,
               'pm1:bet:' || ${market.id} || ':' || case when g % 3 = 0 then 'NO' else 'YES' end,
               1, ${now}, 'market_bet', 'recorded'
        from generate_series(1, ${betCount}) as g
        returning id, tx_hash, from_address, amount, intent)
      insert into bets (market_id, user_address, prediction, amount, potential_payout, status, payment_id, tx_hash, created_at)
      select ${market.id}, from_address, split_part(intent, ':', 4), amount, amount * 2, 'pending', id, tx_hash, ${now}
      from paid`);
    await db.execute(sql`
      update markets set
        total_yes_amount = (select coalesce(sum(amount), 0) from bets where market_id = ${market.id} and prediction = 'YES'),
        total_no_amount = (select coalesce(sum(amount), 0) from bets where market_id = ${market.id} and prediction = 'NO'),
        yes_count = (select count(*) from bets where market_id = ${market.id} and prediction = 'YES'),
        no_count = (select count(*) from bets where market_id = ${market.id} and prediction = 'NO')
      where id = ${market.id}`);
    const insertMs = performance.now() - started;

    started = performance.now();
    const summary = await db.transaction((tx) =>
      settleMarket(tx, {
        escrow: null,
        marketId: market.id,
        outcome: 'YES',
        verdict: { analysis: 'benchmark', confidence: 100, sources: [] },
        feeBps: FEE_BPS,
        now,
        from: ['settling'],
      }),
    );
    const settleMs = performance.now() - started;
    if (!summary) throw new Error('the market was not settled');

    const [check] = await queryRows(
      db,
      sql`select (coalesce(sum(payout_amount) filter (where status = 'won'), 0))::text as paid,
                 count(*) filter (where status = 'pending')::int as pending
          from bets where market_id = ${market.id}`,
      z.object({ paid: z.string(), pending: z.number() }),
    );
    const paidWei = BigInt(check?.paid ?? '0');
    if (check?.pending !== 0 || paidWei > summary.poolWei - summary.feeWei) {
      throw new Error(`inconsistent settlement: ${JSON.stringify(check)}`);
    }
    process.stdout.write(
      `${database.kind}: inserted ${betCount} bets in ${insertMs.toFixed(0)} ms; ` +
        `settled them (${summary.winningBets} won, ${summary.losingBets} lost) in ${settleMs.toFixed(0)} ms; ` +
        `dust ${summary.poolWei - summary.feeWei - paidWei} wei\n`,
    );
  } finally {
    await database.close();
    await drop();
  }
}

await main();

import { encodePageCursor } from '@pm/core/contract/page-cursor';
import { marketClosesAt } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import type pg from 'pg';
import { type Hex, keccak256, toHex } from 'viem';

// A product at scale, seeded in SQL for the query-plan test and the bench (docs/decisions/016): every row is
// made by the database itself from generate_series, so a million bets take seconds, not minutes.
// Shapes follow the product: 1 in 5 markets open, ~10 bets per address, most won bets already
// claimed, rounds every 5 minutes and nearly all ended. One market holds `busyMarketBets` bets and
// one address is busier than the rest, for the "one market" and "a user's bets" reads. The busy
// market is on the escrow (decision 026: an escrow id, its key, a deadline a day ahead in whole
// seconds, within the contract's betting period), so a deposit can bet into it; the others are rows
// from before the escrow, as a long-running install holds them.

export type ScaleSizes = {
  markets: number;
  bets: number;
  rounds: number;
  oracleBets: number;
  addresses: number;
  /** Bets on the one busy open market (the bench reads it: 1,000). */
  busyMarketBets?: number;
};

export type SeededScale = {
  busyMarketId: number;
  busyAddress: string;
  /** A cursor into the open list's second page. */
  cursor: { at: Date; id: number };
  cursorText: string;
  /** A cursor into the busy market's second page of bets. */
  busyMarketBetsCursor: { at: Date; id: number };
};

/**
 * Gives market `id` an escrow id and key, as a creation deposit does: the id derived from the market's
 * number (the same at every seed), the deadline a day from now in the whole second its key hashes.
 */
async function putOnEscrow(client: pg.PoolClient, id: number): Promise<void> {
  await client.query(
    `update markets set deadline = date_trunc('second', now() + interval '1 day') where id = $1`,
    [id],
  );
  const { rows } = await client.query<{ deadline: Date }>('select deadline from markets where id = $1', [id]);
  const deadline = rows[0]?.deadline;
  if (!deadline) throw new Error(`no market ${id} to put on the escrow`);
  const escrowId: Hex = keccak256(toHex(`bench market ${id}`));
  await client.query('update markets set escrow_id = $2, escrow_key = $3 where id = $1', [
    id,
    escrowId,
    marketKey(escrowId, marketClosesAt(deadline)).toLowerCase(),
  ]);
}

/** Address number `n` as a lower-case 0x address (SQL expression over `n`). */
const addressSql = (n: string) => `'0x' || lpad(to_hex(${n}), 40, '0')`;
const seededAddress = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

export async function seedScaleData(pool: pg.Pool, sizes: ScaleSizes): Promise<SeededScale> {
  const client = await pool.connect();
  try {
    return await seed(client, sizes);
  } finally {
    client.release();
  }
}

const BULK_TABLES = ['payments', 'bets', 'oracle_bets', 'user_stats', 'price_samples'];

async function seed(client: pg.PoolClient, sizes: ScaleSizes): Promise<SeededScale> {
  const { markets: M, bets: B, rounds: R, oracleBets: O, addresses: A } = sizes;
  const busyBets = Math.min(sizes.busyMarketBets ?? 1000, B);
  // The newest market is open (i % 5 = 0 is open), and is the busy one.
  const busyMarketId = M - (M % 5);
  const q = (text: string) => client.query(text);
  await q(`SET synchronous_commit = off`);
  await q(`SET maintenance_work_mem = '256MB'`);

  await q(`
    insert into markets (id, creator_address, title, description, category, duration, start_time, deadline,
                         status, result, resolver_model, resolver_prompt_version, content_hash, created_at, updated_at)
    select i, ${addressSql(`1 + (i * 31) % ${A}`)}, 'Market ' || i, 'Will thing ' || i || ' happen?',
           (array['crypto','social_media','gaming','politics','sports'])[1 + (i / 5) % 5],
           case when i % 2 = 0 then 'daily' else 'hourly' end,
           now() - make_interval(mins => ${M} - i), now() - make_interval(mins => ${M} - i) + interval '30 days',
           case when i % 5 = 0 then 'active' when i % 25 = 1 then 'settling' else 'settled' end,
           case when i % 5 = 0 or i % 25 = 1 then null when i % 2 = 0 then 'YES' else 'NO' end,
           'bench', 'v1', md5(i::text),
           now() - make_interval(mins => ${M} - i),
           now() - make_interval(mins => ${M} - i) + interval '1 hour'
    from generate_series(1, ${M}) i`);
  await q(`select setval(pg_get_serial_sequence('markets', 'id'), ${M})`);
  await putOnEscrow(client, busyMarketId);

  // Bulk tables load without their secondary indexes (built once at the end) and without foreign-key
  // triggers (session_replication_role = replica; the rows are consistent by construction). Markets
  // went in before, with their triggers, so market_counts is right.
  const secondary = await client.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes i
     where schemaname = current_schema() and tablename = any($1)
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [BULK_TABLES],
  );
  for (const { indexname } of secondary.rows) await q(`drop index "${indexname}"`);
  await q(`SET session_replication_role = replica`);

  // Payments first (bets reference them), then bets; payment i is bet i, B + j is oracle bet j.
  await q(`
    insert into payments (id, chain_id, tx_hash, from_address, amount, intent, block_number, block_time, purpose, status, created_at)
    select i, 31337, '0x' || lpad(to_hex(i), 64, '0'), ${addressSql(`1 + (i::bigint * 7919) % ${A}`)},
           (1 + i % 50) * 1000000000000000, 'pm1:bet', i, now(),
           case when i <= ${B} then 'market_bet' else 'oracle_bet' end, 'recorded', now()
    from generate_series(1, ${B + O}) i`);
  await q(`select setval(pg_get_serial_sequence('payments', 'id'), ${B + O})`);

  await q(`
    insert into bets (id, market_id, user_address, prediction, amount, potential_payout, payout_amount, status,
                      payment_id, tx_hash, created_at)
    select s.i, s.market_id, ${addressSql(`1 + (s.i::bigint * 7919) % ${A}`)}, s.prediction, s.amount, s.amount * 2,
           case when m.result is null then null when m.result = s.prediction then s.amount * 2 else 0 end,
           case when m.result is null then 'pending'
                when m.result <> s.prediction then 'lost'
                when s.i % 10 = 1 then 'won' else 'claimed' end,
           s.i, '0x' || lpad(to_hex(s.i), 64, '0'),
           m.created_at + make_interval(secs => (s.i % 3600))
    from (select i, case when i <= ${busyBets} then ${busyMarketId} else 1 + i % ${M} end as market_id,
                 case when i % 3 = 0 then 'NO' else 'YES' end as prediction,
                 ((1 + i % 50) * 1000000000000000)::numeric as amount
          from generate_series(1, ${B}) i) s
    join markets m on m.id = s.market_id`);
  await q(`select setval(pg_get_serial_sequence('bets', 'id'), ${B})`);
  await q(`
    update markets m set total_yes_amount = t.yes, total_no_amount = t.no, yes_count = t.yc, no_count = t.nc
    from (select market_id, coalesce(sum(amount) filter (where prediction = 'YES'), 0) as yes,
                 coalesce(sum(amount) filter (where prediction = 'NO'), 0) as no,
                 count(*) filter (where prediction = 'YES') as yc, count(*) filter (where prediction = 'NO') as nc
          from bets group by market_id) t
    where t.market_id = m.id`);

  // Rounds every 5 minutes up to now: the last three are locked, live and upcoming.
  await q(`
    insert into oracle_rounds (epoch, status, start_time, lock_time, close_time, lock_price, close_price,
                               total_up_amount, total_down_amount, result, created_at, updated_at)
    select e, case when e = ${R} then 'upcoming' when e = ${R} - 1 then 'live' when e = ${R} - 2 then 'locked' else 'ended' end,
           now() - make_interval(mins => (${R} - 1 - e) * 5), now() - make_interval(mins => (${R} - 2 - e) * 5),
           now() - make_interval(mins => (${R} - 3 - e) * 5),
           60000000000, case when e < ${R} - 2 then 60000000000 + (e % 7 - 3) * 1000000 end, 0, 0,
           case when e >= ${R} - 2 then null when e % 7 > 3 then 'bull' when e % 7 < 3 then 'bear' else 'draw' end,
           now(), now()
    from generate_series(1, ${R}) e`);
  await q(`
    insert into oracle_bets (id, epoch, user_address, position, amount, payout_amount, claimed, payment_id, tx_hash, created_at)
    select j, 1 + j % ${R}, ${addressSql(`1 + ((${B} + j)::bigint * 7919) % ${A}`)},
           case when j % 2 = 0 then 'bull' else 'bear' end, 1000000000000000,
           case when j % 2 = 1 then 1900000000000000 end, j % 10 <> 1, ${B} + j,
           '0x' || lpad(to_hex(${B} + j), 64, '0'), now() - make_interval(mins => (${R} - 1 - j % ${R}) * 5)
    from generate_series(1, ${O}) j`);
  await q(`select setval(pg_get_serial_sequence('oracle_bets', 'id'), ${Math.max(O, 1)})`);

  await q(`
    insert into user_stats (address, total_winnings, total_bets, won_bets, settled_bets)
    select ${addressSql('a')}, (a * 7 % 1000) * 1000000000000000, 10 + a % 7, a % 5, 5 + a % 5
    from generate_series(1, ${A}) a`);
  // Under the source the bench's stack reads: the local chain's Chainlink-compatible feeds.
  await q(`
    insert into price_samples (source, price, updated_at, sampled_at)
    select 'chainlink', 60000000000 + s, now() - make_interval(secs => 10000 - s), now() - make_interval(secs => 10000 - s)
    from generate_series(1, 10000) s`);
  await q(`SET session_replication_role = DEFAULT`);
  for (const { indexdef } of secondary.rows) await q(indexdef);
  await q(`ANALYZE`);

  const second = await client.query<{ created_at: Date; id: number }>(
    `select created_at, id from markets where status in ('active', 'settling')
     order by created_at desc, id desc offset 50 limit 1`,
  );
  const row = second.rows[0];
  const cursor = { at: row?.created_at ?? new Date(), id: row?.id ?? 1 };
  const secondBets = await client.query<{ created_at: Date; id: number }>(
    `select created_at, id from bets where market_id = $1 order by created_at desc, id desc offset 50 limit 1`,
    [busyMarketId],
  );
  const betRow = secondBets.rows[0];
  return {
    busyMarketId,
    busyMarketBetsCursor: { at: betRow?.created_at ?? new Date(), id: betRow?.id ?? 1 },
    // Bet 1 is on the busy market; its address has ~10 bets and unclaimed winnings on both sides.
    busyAddress: seededAddress(1 + (7919 % A)),
    cursor,
    cursorText: encodePageCursor(cursor),
  };
}

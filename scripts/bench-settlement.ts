import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { marketKey } from '@pm/escrow/market-key';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { keccak256, toHex } from 'viem';
import type { Db } from '../apps/server/src/db/client.ts';
import type { EscrowTarget } from '../apps/server/src/escrow/escrow-target.ts';
import { findPayoutListByMarket } from '../apps/server/src/escrow/settlements/payout-lists-repository.ts';
import { settleMarket } from '../apps/server/src/settlement/settle-market.ts';

// Settlement of one market with 100k bets (target: < 3 s, decision 024), on the escrow path
// (decision 026): the market has an escrow id and key, each bet is a stake of the escrow, and the
// settling transaction queues the market's settlement there (its payouts computed over every stake)
// as the server does for every market. Its bets and their payments are loaded with COPY FROM STDIN:
// rows streamed from this process, the fastest way a client can hand PostgreSQL data it made itself.

const WEI = 1_000_000_000_000_000n;

async function copyRows(client: pg.PoolClient, table: string, columns: string[], rows: Iterable<string>) {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(rows), stream);
}

/** Stake ids far above any the bench's own deposits take on its fresh escrow (they count from 1). */
const FIRST_STAKE_ID = 1_000_000_000n;

/**
 * An open market on the escrow with `count` bets (each a stake) from `count / 10` addresses, loaded by
 * COPY; returns its id.
 */
export async function seedSettlementMarket(pool: pg.Pool, count: number): Promise<number> {
  const client = await pool.connect();
  try {
    const escrowId = keccak256(toHex('bench settlement market'));
    const closesAt = Math.floor(Date.now() / 1000) + 86_400;
    const market = await client.query<{ id: number }>(
      `insert into markets (creator_address, title, description, category, duration, start_time, deadline,
                            resolver_model, resolver_prompt_version, content_hash, escrow_id, escrow_key)
       values ('0x${'0'.repeat(39)}1', 'Settlement bench', 'Settles 100k bets', 'crypto', 'daily', now(),
               to_timestamp($1), 'bench', 'v1', md5('settlement'), $2, $3)
       returning id`,
      [closesAt, escrowId, marketKey(escrowId, closesAt).toLowerCase()],
    );
    const marketId = market.rows[0]?.id;
    if (!marketId) throw new Error('no settlement market');
    const first = await client.query<{ next: string }>(
      `select coalesce(max(id), 0) + 1 as next from payments`,
    );
    const base = Number(first.rows[0]?.next ?? 1);
    await client.query(`select setval(pg_get_serial_sequence('payments', 'id'), ${base + count})`);
    const address = (i: number) =>
      `0x${(0xbe000000 + (i % Math.max(1, Math.floor(count / 10)))).toString(16).padStart(40, '0')}`;
    // 'e' then the id: apart from each other and from the scale seed's hashes (zero-padded ids).
    const hash = (id: number) => `0xe${id.toString(16).padStart(63, '0')}`;
    const amount = (i: number) => (BigInt(1 + (i % 50)) * WEI).toString();
    const prediction = (i: number) => (i % 3 === 0 ? 'NO' : 'YES');
    const stakeId = (i: number) => (FIRST_STAKE_ID + BigInt(i)).toString();
    await copyRows(
      client,
      'payments',
      [
        'id',
        'chain_id',
        'tx_hash',
        'from_address',
        'amount',
        'intent',
        'block_number',
        'block_time',
        'purpose',
        'status',
        'stake_id',
        'log_index',
      ],
      (function* () {
        for (let i = 0; i < count; i += 1) {
          const id = base + i;
          yield `${id}\t31337\t${hash(id)}\t${address(i)}\t${amount(i)}\tpm1:bet:${marketId}:${prediction(i)}\t${id}\t2026-01-01T00:00:00Z\tmarket_bet\trecorded\t${stakeId(i)}\t0\n`;
        }
      })(),
    );
    await copyRows(
      client,
      'bets',
      [
        'market_id',
        'user_address',
        'prediction',
        'amount',
        'potential_payout',
        'payment_id',
        'tx_hash',
        'stake_id',
      ],
      (function* () {
        for (let i = 0; i < count; i += 1) {
          const id = base + i;
          const stake = BigInt(1 + (i % 50)) * WEI;
          yield `${marketId}\t${address(i)}\t${prediction(i)}\t${stake}\t${stake * 2n}\t${id}\t${hash(id)}\t${stakeId(i)}\n`;
        }
      })(),
    );
    await client.query(
      `update markets m set total_yes_amount = t.yes, total_no_amount = t.no, yes_count = t.yc, no_count = t.nc
       from (select coalesce(sum(amount) filter (where prediction = 'YES'), 0) as yes,
                    coalesce(sum(amount) filter (where prediction = 'NO'), 0) as no,
                    count(*) filter (where prediction = 'YES') as yc, count(*) filter (where prediction = 'NO') as nc
             from bets where market_id = $1) t
       where m.id = $1`,
      [marketId],
    );
    await client.query('ANALYZE bets');
    return marketId;
  } finally {
    client.release();
  }
}

/** Settles the market as the server does, its settlement on `escrow` queued in the same transaction. */
export async function measureSettlement(db: Db, marketId: number, bets: number, escrow: EscrowTarget) {
  const started = performance.now();
  const summary = await db.transaction((tx) =>
    settleMarket(tx, {
      escrow,
      marketId,
      outcome: 'YES',
      verdict: { analysis: 'bench', confidence: null, sources: [] },
      feeBps: 200,
      now: new Date(),
      from: ['active', 'settling'],
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (!summary || summary.winningBets + summary.losingBets !== bets) {
    throw new Error(`settlement settled ${JSON.stringify(summary)} instead of ${bets} bets`);
  }
  const queued = await findPayoutListByMarket(db, marketId);
  if (queued?.status !== 'due') throw new Error('the settlement queued nothing on the escrow');
  return { bets, seconds };
}

import { betReturnFields } from '@pm/core/bet-return';
import {
  BOND_FATE_RESULTS,
  type HistoryEntry,
  type HistoryGameFilter,
  type HistoryStatusFilter,
  type HistorySummary,
} from '@pm/core/contract/history';
import type { HistoryCursor, HistorySource } from '@pm/core/contract/history-query';
import { formatUsdPrice } from '@pm/core/price';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { preparedRows } from '../db/prepared-rows.ts';

// A wallet's bets in both games as one list, and its P&L, in SQL (docs/decisions/012).
// Both tables store payout_amount as the full return (stake included; 0 when lost, the stake when
// refunded; null until settled; decision 002), so both branches read it the same way: a bet won
// when it was on the side that happened (a market with a bet on the winning side refunds nobody),
// lost when it returns nothing, and was refunded otherwise. A market bet's status 'claimed' forgets
// won vs refunded; the side and the result do not.
// A wallet's flag bonds are rows too (a third branch, over market_flags), their fate read
// as a result by core's BOND_FATE_RESULTS. The bet branches carry the bond columns as nulls.

/** The order of rows placed in the same microsecond (higher first), and the cursor's tie-break. */
const SOURCE_KEY = { markets: 0, oracle: 1, bonds: 2 } as const satisfies Record<HistorySource, number>;

/**
 * Markets: one row per bet with its derived result, its return (payout) and profit (net, which only
 * the summary sums; entries take both words from core). `address` lower-case.
 */
function marketBranch(address: string): SQL {
  return sql`
    select 'bet' as kind, 'markets' as game, ${sql.raw(String(SOURCE_KEY.markets))} as game_key, b.id as bet_id,
           m.id as market_id, m.title as title,
           m.target_symbol as price_symbol, m.comparison_type as price_comparison,
           m.target_price as price_target, m.deadline as price_deadline,
           null::bigint as epoch, b.prediction as side, b.amount as stake, b.tx_hash as tx_hash,
           b.created_at as placed_at, x.result,
           case when x.result <> 'pending' then b.payout_amount end as payout,
           case when x.result <> 'pending' then b.payout_amount - b.amount end as net,
           case when b.status = 'claimed' then 'claimed'
                when b.status in ('won', 'refunded') and m.status = 'settled' then 'claimable'
                else 'none' end as claim_state,
           case when x.result <> 'pending' then m.updated_at end as settled_at,
           null::text as bond_fate, null::numeric as bond_reward, null::text as bond_refund
    from bets b
    join markets m on m.id = b.market_id
    cross join lateral (select case
        when b.payout_amount is null then 'pending'
        when b.prediction = m.result then 'won'
        when b.payout_amount = 0 then 'lost'
        else 'refunded' end as result) x
    where b.user_address = ${address}`;
}

/** Oracle rounds: the same columns. A loser's payout is 0; a refund (draw, cancelled, nobody won) is the stake. */
function oracleBranch(address: string): SQL {
  return sql`
    select 'bet' as kind, 'oracle' as game, ${sql.raw(String(SOURCE_KEY.oracle))} as game_key, b.id as bet_id,
           null::integer as market_id, null::text as title,
           null::text as price_symbol, null::text as price_comparison,
           null::numeric as price_target, null::timestamptz as price_deadline,
           b.epoch as epoch, b.position as side, b.amount as stake, b.tx_hash as tx_hash,
           b.created_at as placed_at, x.result,
           case when x.result <> 'pending' then b.payout_amount end as payout,
           case when x.result <> 'pending' then b.payout_amount - b.amount end as net,
           case when b.claimed then 'claimed'
                when b.payout_amount > 0 then 'claimable'
                else 'none' end as claim_state,
           case when x.result <> 'pending' then r.close_time end as settled_at,
           null::text as bond_fate, null::numeric as bond_reward, null::text as bond_refund
    from oracle_bets b
    join oracle_rounds r on r.epoch = b.epoch
    cross join lateral (select case
        when r.result is null or b.payout_amount is null then 'pending'
        when b.position = r.result then 'won'
        when b.payout_amount = 0 then 'lost'
        else 'refunded' end as result) x
    where b.user_address = ${address}`;
}

/** `bond_status` read as a result: the CASE is built from core's table, never from input. */
const BOND_RESULT = sql.raw(
  `case f.bond_status ${Object.entries(BOND_FATE_RESULTS)
    .map(([fate, result]) => `when '${fate}' then '${result}'`)
    .join(' ')} end`,
);

/**
 * A wallet's flag bonds, one row per flag with a bond, in the bets' columns: the bond is
 * the stake, what came back (bond + reward, 0 when forfeited, the bond on a void) the payout. The
 * side is the flagger's first bet in the market (only a bettor flags). A returned bond (a stake on the
 * escrow) is claimed like a bet (POST /api/claims relays it, or the wallet claims it itself): claimable
 * until the contract paid it, then claimed. Flags from before bonds (no bond) are not rows; a bond
 * refused at the door never became a flag and is not one either (a refused payment is not a bet:
 * decision 012).
 */
function bondBranch(address: string): SQL {
  return sql`
    select 'bond' as kind, 'markets' as game, ${sql.raw(String(SOURCE_KEY.bonds))} as game_key, f.id as bet_id,
           m.id as market_id, m.title as title,
           m.target_symbol as price_symbol, m.comparison_type as price_comparison,
           m.target_price as price_target, m.deadline as price_deadline,
           null::bigint as epoch, s.side,
           f.bond_amount as stake, p.tx_hash as tx_hash, f.created_at as placed_at, x.result,
           case when x.result <> 'pending' then f.bond_return_amount end as payout,
           case when x.result <> 'pending' then f.bond_return_amount - f.bond_amount end as net,
           case when f.stake_id is not null and y.refund = 'none'
                     and f.bond_status in ('returned', 'returned_void') then 'claimable'
                when y.refund = 'refunded' then 'claimed'
                else 'none' end as claim_state,
           case when x.result <> 'pending' then m.updated_at end as settled_at,
           f.bond_status as bond_fate,
           case when x.result <> 'pending' then coalesce(f.bond_reward_amount, 0) end as bond_reward,
           y.refund as bond_refund
    from market_flags f
    join markets m on m.id = f.market_id
    join payments p on p.id = f.bond_payment_id
    join lateral (select fb.prediction as side from bets fb
                  where fb.market_id = f.market_id and fb.user_address = f.address
                  order by fb.created_at, fb.id limit 1) s on true
    cross join lateral (select ${BOND_RESULT} as result) x
    cross join lateral (select case
        -- A returned bond is a stake on the escrow (decision 026), claimed like a bet: paid once the
        -- contract paid its stake (escrow_stake_payouts), claimable until then.
        when f.bond_status in ('returned', 'returned_void')
             and exists (select 1 from escrow_stake_payouts sp where sp.stake_id = f.stake_id) then 'refunded'
        else 'none' end as refund) y
    where f.address = ${address} and f.bond_status is not null`;
}

function statusCondition(status: HistoryStatusFilter): SQL {
  switch (status) {
    case 'all':
      return sql`true`;
    case 'active':
      return sql`h.result = 'pending'`;
    case 'won':
    case 'lost':
    case 'refunded':
      return sql`h.result = ${status}`;
    case 'claimable':
      return sql`h.claim_state = 'claimable'`;
    case 'claimed':
      return sql`h.claim_state = 'claimed'`;
  }
}

/** The exact timestamptz a cursor names, as an ISO string with microseconds. */
function cursorTime(atMicros: bigint): string {
  const iso = new Date(Number(atMicros / 1000n)).toISOString();
  return iso.replace('Z', `${(atMicros % 1000n).toString().padStart(3, '0')}Z`);
}

const EntryRowSchema = z.object({
  kind: z.enum(['bet', 'bond']),
  game: z.enum(['markets', 'oracle']),
  bet_id: z.coerce.number(),
  market_id: z.coerce.number().nullable(),
  title: z.string().nullable(),
  price_symbol: z.string().nullable(),
  price_comparison: z.enum(['above', 'below']).nullable(),
  price_target: z.coerce.bigint().nullable(),
  price_deadline: z.coerce.date().nullable(),
  epoch: z.coerce.number().nullable(),
  side: z.enum(['YES', 'NO', 'bull', 'bear']),
  stake: z.coerce.bigint(),
  tx_hash: z.string(),
  placed_at: z.coerce.date(),
  placed_us: z.coerce.bigint(),
  result: z.enum(['pending', 'won', 'lost', 'refunded']),
  payout: z.coerce.bigint().nullable(),
  claim_state: z.enum(['none', 'claimable', 'claimed']),
  settled_at: z.coerce.date().nullable(),
  bond_fate: z.enum(['held', 'returned', 'forfeited', 'returned_void']).nullable(),
  bond_reward: z.coerce.bigint().nullable(),
  bond_refund: z.enum(['none', 'refunded']).nullable(),
});

export type HistoryPageRow = { entry: HistoryEntry; cursor: HistoryCursor };

/**
 * One page of a wallet's history, newest first (placed time, then source, then id). Each game's
 * branch seeks its own index (user_address, created_at) and stops at `limit`, then the branches
 * are merged. The bonds' branch reads the wallet's flags (a handful: one per market at most).
 */
export async function listHistory(
  db: DbOrTx,
  input: {
    address: string;
    game: HistoryGameFilter;
    status: HistoryStatusFilter;
    limit: number;
    cursor?: HistoryCursor;
  },
): Promise<HistoryPageRow[]> {
  const { cursor, limit } = input;
  // Within a branch game_key is a constant, so the row comparison seeks (placed_at, bet_id).
  const branch = (source: SQL) => {
    const after = cursor
      ? sql`and (h.placed_at, h.game_key, h.bet_id) < (${cursorTime(cursor.atMicros)}::timestamptz, ${SOURCE_KEY[cursor.source]}, ${cursor.id})`
      : sql``;
    return sql`(select h.*, (extract(epoch from h.placed_at) * 1000000)::bigint::text as placed_us
              from (${source}) h
              where ${statusCondition(input.status)} ${after}
              order by h.placed_at desc, h.bet_id desc limit ${limit})`;
  };
  const parts: SQL[] = [];
  if (input.game !== 'oracle') parts.push(branch(marketBranch(input.address)));
  if (input.game !== 'markets') parts.push(branch(oracleBranch(input.address)));
  if (input.game !== 'oracle') parts.push(branch(bondBranch(input.address)));
  const rows = await preparedRows(
    db,
    sql`select u.kind, u.game, u.bet_id, u.market_id, u.title, u.price_symbol, u.price_comparison,
               u.price_target::text as price_target, u.price_deadline, u.epoch, u.side, u.stake::text as stake,
               u.tx_hash, u.placed_at, u.placed_us, u.result, u.payout::text as payout,
               u.claim_state, u.settled_at, u.bond_fate,
               u.bond_reward::text as bond_reward, u.bond_refund
        from (${sql.join(parts, sql` union all `)}) u
        order by u.placed_at desc, u.game_key desc, u.bet_id desc
        limit ${limit}`,
    EntryRowSchema,
  );
  return rows.map((row) => ({
    entry: {
      kind: row.kind,
      game: row.game,
      betId: row.bet_id,
      marketId: row.market_id,
      title: row.title,
      priceTerms:
        row.price_symbol !== null &&
        row.price_comparison !== null &&
        row.price_target !== null &&
        row.price_deadline !== null
          ? {
              targetSymbol: row.price_symbol,
              comparisonType: row.price_comparison,
              targetPrice: formatUsdPrice(row.price_target, 2),
              deadline: row.price_deadline.toISOString(),
            }
          : null,
      epoch: row.epoch,
      side: row.side,
      stakeWei: row.stake.toString(),
      result: row.result,
      ...betReturnFields(row.stake, row.payout),
      claimState: row.claim_state,
      placedAt: row.placed_at.toISOString(),
      settledAt: row.settled_at === null ? null : row.settled_at.toISOString(),
      txHash: row.tx_hash,
      bond:
        row.kind === 'bond' && row.bond_fate !== null && row.bond_refund !== null
          ? {
              fate: row.bond_fate,
              rewardWei: row.bond_reward === null ? null : row.bond_reward.toString(),
              refundState: row.bond_refund,
            }
          : null,
    },
    cursor: {
      atMicros: row.placed_us,
      source: row.kind === 'bond' ? 'bonds' : row.game,
      id: row.bet_id,
    },
  }));
}

const SummaryRowSchema = z.object({
  total: z.coerce.number(),
  pending: z.coerce.number(),
  won: z.coerce.number(),
  lost: z.coerce.number(),
  refunded: z.coerce.number(),
  wagered: z.coerce.bigint(),
  net: z.coerce.bigint(),
  best_win: z.coerce.bigint().nullable(),
  bonds_net: z.coerce.bigint(),
});

/**
 * A wallet's P&L in one aggregate over both games (decision 012 defines each figure). A market's
 * settled flag bonds count in the net: a forfeited bond −bond, a returned one its reward (0 on a
 * void). A bond still held counts nothing yet, as a pending bet does.
 */
export async function summarizeHistory(
  db: DbOrTx,
  input: { address: string; game: HistoryGameFilter },
): Promise<HistorySummary> {
  const parts: SQL[] = [];
  if (input.game !== 'oracle') parts.push(marketBranch(input.address));
  if (input.game !== 'markets') parts.push(oracleBranch(input.address));
  const [row] = await preparedRows(
    db,
    sql`select count(*) as total,
               count(*) filter (where h.result = 'pending') as pending,
               count(*) filter (where h.result = 'won') as won,
               count(*) filter (where h.result = 'lost') as lost,
               count(*) filter (where h.result = 'refunded') as refunded,
               coalesce(sum(h.stake), 0)::text as wagered,
               coalesce(sum(h.net) filter (where h.result <> 'pending'), 0)::text as net,
               (max(h.net) filter (where h.result = 'won'))::text as best_win,
               ${input.game === 'oracle' ? sql`'0'` : bondsNet(input.address)} as bonds_net
        from (${sql.join(parts, sql` union all `)}) h`,
    SummaryRowSchema,
  );
  if (!row) throw new Error('the summary aggregate returned no row');
  const decided = row.won + row.lost;
  return {
    address: input.address,
    netWei: (row.net + row.bonds_net).toString(),
    totalWageredWei: row.wagered.toString(),
    bestWinWei: row.best_win === null ? null : row.best_win.toString(),
    winRate: decided === 0 ? null : row.won / decided,
    counts: { total: row.total, pending: row.pending, won: row.won, lost: row.lost, refunded: row.refunded },
  };
}

/** What a wallet's settled flag bonds came to: Σ (returned − bond), negative when forfeited. */
function bondsNet(address: string): SQL {
  return sql`(select coalesce(sum(coalesce(f.bond_return_amount, 0) - f.bond_amount), 0)::text
              from market_flags f
              where f.address = ${address} and f.bond_status in ('returned', 'forfeited', 'returned_void'))`;
}

import { type Liabilities, liabilitiesOf } from '@pm/core/liabilities';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { bets, markets, oracleBets, oracleRounds } from '../db/schema.ts';
import { claimableMarketBet, claimableRoundBet } from '../payouts/claimable-repository.ts';

// What the vault owes, part by part (docs/architecture.md "Proof of reserves"): each part is the
// sum of one of core's row rules (`@pm/core/liabilities`), written here as its SQL predicate, and
// the total is core's. One statement, so every part is read from the same snapshot: a claim that
// moves bets into a payout between two reads cannot count them twice or drop them.
//
// - open market stakes: bets of markets not settled (active, closed, in review), paid to the vault
//   (a market bet with a stake id is on the escrow contract, as a round bet's is: decision 026);
// - open round stakes: bets of rounds not ended, staked into the vault (a bet with a stake id is on
//   the escrow contract, which holds and pays it: decision 026; so is the next part's);
// - unclaimed market bets paid to the vault: settled, won or refunded, in no payout — claimable-repository's
//   `claimableMarketBet` itself, the predicate GET claimable and a claim use (no index:
//   settlement's updates stay HOT, migration 0014);
// - unclaimed round bets staked into the vault: a payout > 0, not claimed, in no payout — `claimableRoundBet`
//   (oracle_bets_claimable_idx). A round's payouts are written in the transaction that ends it,
//   so none of these is still an open round stake;
// - refunds owed: payments due or held, in no refund payout, at what the refund path pays
//   (`owedBackWei`: refund_amount when set);
// - flag bonds held paid to the vault (a bond with a stake id is a dispute deposit the escrow holds,
//   decision 026, never the vault's); payouts created, signed or broadcast;
// - transfers reconciliation found and has not settled, unless a payment already has their hash.

const weiText = z.string().transform((text) => BigInt(text));

const PartsRowSchema = z.object({
  open_market_stakes: weiText,
  open_round_stakes: weiText,
  unclaimed_market: weiText,
  unclaimed_round: weiText,
  refunds_owed: weiText,
  flag_bonds_held: weiText,
  payouts_queued: weiText,
  unrecorded_transfers: weiText,
});

export async function readLiabilities(db: DbOrTx): Promise<Liabilities> {
  const [row] = await queryRows(
    db,
    sql`select
      (select coalesce(sum(b.amount), 0) from bets b join markets m on m.id = b.market_id
        where m.status in ('active', 'settling') and b.stake_id is null)::text as open_market_stakes,
      (select coalesce(sum(b.amount), 0) from oracle_bets b join oracle_rounds r on r.epoch = b.epoch
        where r.status in ('upcoming', 'live', 'locked') and b.stake_id is null)::text as open_round_stakes,
      (select coalesce(sum(${bets.payoutAmount}), 0) from ${bets}
        join ${markets} on ${markets.id} = ${bets.marketId}
        where ${claimableMarketBet} and ${bets.stakeId} is null)::text as unclaimed_market,
      (select coalesce(sum(${oracleBets.payoutAmount}), 0) from ${oracleBets}
        join ${oracleRounds} on ${oracleRounds.epoch} = ${oracleBets.epoch}
        where ${claimableRoundBet} and ${oracleBets.stakeId} is null)::text as unclaimed_round,
      (select coalesce(sum(coalesce(p.refund_amount, p.amount)), 0) from payments p
        where p.status in ('refund_due', 'refund_held') and p.refund_payout_id is null)::text as refunds_owed,
      (select coalesce(sum(f.bond_amount), 0) from market_flags f where f.bond_status = 'held' and f.stake_id is null)::text
        as flag_bonds_held,
      (select coalesce(sum(o.amount), 0) from payouts o
        where o.status in ('created', 'signed', 'broadcast'))::text as payouts_queued,
      (select coalesce(sum(t.amount), 0) from vault_transfers t
        where t.resolved_at is null
          and not exists (select 1 from payments p where p.chain_id = t.chain_id and p.tx_hash = t.tx_hash))::text
        as unrecorded_transfers`,
    PartsRowSchema,
  );
  if (!row) throw new Error('the liabilities query returned no row');
  return liabilitiesOf({
    openMarketStakesWei: row.open_market_stakes,
    openRoundStakesWei: row.open_round_stakes,
    unclaimedMarketWei: row.unclaimed_market,
    unclaimedRoundWei: row.unclaimed_round,
    refundsOwedWei: row.refunds_owed,
    flagBondsHeldWei: row.flag_bonds_held,
    payoutsQueuedWei: row.payouts_queued,
    unrecordedTransfersWei: row.unrecorded_transfers,
  });
}

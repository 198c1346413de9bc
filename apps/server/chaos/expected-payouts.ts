import type { BetRow, DbSnapshot, OracleBetRow } from './db-snapshot.ts';

// What each bet should get back, computed here from the bets alone (docs/architecture.md "Markets" and "Oracle
// rounds", fees 0 in the chaos run), independently of the payout_amount the server stored.

/** Market bet → wei owed once its market is settled (stake + profit, the stake, or 0); null: not settled. */
export function expectedMarketPayouts(snapshot: DbSnapshot): Map<number, bigint> {
  const owed = new Map<number, bigint>();
  const byMarket = groupBy(snapshot.bets, (bet) => bet.market_id);
  for (const market of snapshot.markets) {
    if (market.status !== 'settled' || !market.result) continue;
    const bets = byMarket.get(market.id) ?? [];
    const pool = sum(bets);
    const winning =
      market.result === 'VOID' ? 0n : sum(bets.filter((bet) => bet.prediction === market.result));
    for (const bet of bets) {
      if (winning === 0n) owed.set(bet.id, bet.amount);
      else if (bet.prediction === market.result)
        owed.set(bet.id, bet.amount + (bet.amount * (pool - winning)) / winning);
      else owed.set(bet.id, 0n);
    }
  }
  return owed;
}

/** Oracle bet → wei owed once its round has ended (winnings incl. stake, the stake, or 0). */
export function expectedRoundPayouts(snapshot: DbSnapshot): Map<number, bigint> {
  const owed = new Map<number, bigint>();
  const byEpoch = groupBy(snapshot.oracleBets, (bet) => bet.epoch);
  for (const round of snapshot.rounds) {
    if (round.status !== 'ended' || !round.result) continue;
    const bets = byEpoch.get(round.epoch) ?? [];
    const pool = sum(bets);
    const refundAll = round.result === 'draw' || round.result === 'cancelled';
    const winning = refundAll ? 0n : sum(bets.filter((bet) => bet.position === round.result));
    for (const bet of bets) {
      if (winning === 0n) owed.set(bet.id, bet.amount);
      else if (bet.position === round.result) owed.set(bet.id, (bet.amount * pool) / winning);
      else owed.set(bet.id, 0n);
    }
  }
  return owed;
}

function sum(bets: Array<BetRow | OracleBetRow>): bigint {
  return bets.reduce((total, bet) => total + bet.amount, 0n);
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list) list.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

import type { InvariantContext } from './invariant-context.ts';

// Invariant 3 on the escrow: its balance covers what it owes and is exactly what came in less what
// left (nothing forced in on the chaos chain); each market's pool on chain is its deposits less its
// refunds; a settled market never pays more than pool − fee, and agrees with its published list.

/** Invariant 3, the escrow's books. */
export function checkEscrowLedger(context: InvariantContext): void {
  const { input, snapshot, check, bnb } = context;
  const escrow = input.escrow;
  check(
    escrow.balance >= escrow.liabilities,
    3,
    `escrow-solvent:${escrow.head}`,
    () => `escrow balance ${bnb(escrow.balance)} < its liabilities ${bnb(escrow.liabilities)}`,
  );
  const deposited = escrow.deposits.reduce((total, d) => total + d.amount, 0n);
  const pushed = escrow.outs.filter((o) => !o.credited).reduce((total, o) => total + o.amount, 0n);
  const expected = deposited - pushed - escrow.withdrawn - escrow.feesCollected - escrow.swept;
  check(
    escrow.balance === expected,
    3,
    `escrow-balance:${escrow.head}`,
    () =>
      `escrow balance ${bnb(escrow.balance)} ≠ deposits ${bnb(deposited)} − payouts pushed ${bnb(pushed)} − withdrawn ${bnb(escrow.withdrawn)} − fees ${bnb(escrow.feesCollected)} − swept ${bnb(escrow.swept)} = ${bnb(expected)}`,
  );
  check(
    escrow.liabilities === expected,
    3,
    `escrow-liabilities:${escrow.head}`,
    () => `escrow liabilities ${bnb(escrow.liabilities)} ≠ what its events leave owed ${bnb(expected)}`,
  );

  const sumBy = (items: Array<{ market: string; amount: bigint }>) => {
    const sums = new Map<string, bigint>();
    for (const item of items) sums.set(item.market, (sums.get(item.market) ?? 0n) + item.amount);
    return sums;
  };
  const depositsBy = sumBy(escrow.deposits);
  const refundedBy = sumBy(escrow.outs.filter((o) => o.kind === 'refunded'));
  const claimedBy = sumBy(escrow.outs.filter((o) => o.kind === 'claimed'));
  const listByKey = new Map(snapshot.payoutLists.map((l) => [l.market_key.toLowerCase(), l]));
  for (const [key, market] of escrow.markets) {
    const pool = (depositsBy.get(key) ?? 0n) - (refundedBy.get(key) ?? 0n);
    check(
      market.pool === pool,
      3,
      `escrow-pool:${key}`,
      () =>
        `market ${key} holds a pool of ${bnb(market.pool)} on chain; its deposits less refunds are ${bnb(pool)}`,
    );
    const claimed = claimedBy.get(key) ?? 0n;
    if (market.state === 2) {
      check(
        claimed === market.paid &&
          claimed <= market.pool - market.fee &&
          market.payoutTotal + market.fee === market.pool,
        3,
        `escrow-overpaid:${key}`,
        () =>
          `settled market ${key} paid ${bnb(claimed)} (contract: ${bnb(market.paid)}) of pool ${bnb(market.pool)} − fee ${bnb(market.fee)}, payout total ${bnb(market.payoutTotal)}`,
      );
      const list = listByKey.get(key);
      if (list && list.status === 'settled' && !list.refund)
        check(
          list.payout_total === market.payoutTotal && list.fee === market.fee && list.pool === market.pool,
          3,
          `escrow-list:${key}`,
          () =>
            `payout list ${list.id} (round ${list.epoch}) says total ${list.payout_total}, fee ${list.fee}, pool ${list.pool}; the contract ${market.payoutTotal}, ${market.fee}, ${market.pool}`,
        );
    } else {
      check(
        claimed === 0n,
        3,
        `escrow-claimed-unsettled:${key}`,
        () => `market ${key} (state ${market.state}) paid ${bnb(claimed)} of claims without a settlement`,
      );
    }
  }
}

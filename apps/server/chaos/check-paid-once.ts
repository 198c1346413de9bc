import type { PayoutRow } from './db-snapshot.ts';
import type { InvariantContext } from './invariant-context.ts';

// Invariant 4: nothing paid twice. Every outgoing vault transfer is one payout's, each payout is
// mined at most once, each refund payout belongs to one payment, each claim payout pays a bet.

/** Invariant 4 (docs/chaos.md). */
export function checkPaidOnce(context: InvariantContext): void {
  const { snapshot, outbound, minedOf, check, lose, bnb } = context;
  const payoutByHash = new Map<string, PayoutRow>();
  for (const payout of snapshot.payouts)
    for (const hash of payout.tx_hashes) payoutByHash.set(hash.toLowerCase(), payout);
  for (const transfer of outbound) {
    if (
      !check(
        payoutByHash.has(transfer.hash),
        4,
        `unexplained:${transfer.hash}`,
        () =>
          `the vault sent ${bnb(transfer.value)} to ${transfer.to} (${transfer.hash}) and no payout row explains it`,
      )
    )
      lose(transfer.value);
  }
  const refundPayments = new Map<number, number>();
  for (const payment of snapshot.payments)
    if (payment.refund_payout_id !== null)
      refundPayments.set(payment.refund_payout_id, (refundPayments.get(payment.refund_payout_id) ?? 0) + 1);
  for (const payout of snapshot.payouts) {
    const mined = minedOf(payout);
    if (
      !check(
        mined.length <= 1,
        4,
        `twice:${payout.id}`,
        () => `payout ${payout.id} was mined ${mined.length} times`,
      )
    )
      lose(mined.slice(1).reduce((total, t) => total + t.value, 0n));
    if (payout.kind === 'refund') {
      const count = refundPayments.get(payout.id) ?? 0;
      check(
        count === 1,
        4,
        `refund-links:${payout.id}`,
        () => `refund payout ${payout.id} is linked to ${count} payments`,
      );
    } else {
      const linked =
        snapshot.bets.filter((bet) => bet.payout_id === payout.id).length +
        snapshot.oracleBets.filter((bet) => bet.payout_id === payout.id).length;
      check(linked > 0, 4, `claim-links:${payout.id}`, () => `claim payout ${payout.id} pays no bet`);
    }
  }
}

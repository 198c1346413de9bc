import type { InvariantContext } from './invariant-context.ts';

// Invariant 5: nothing stuck once the faults stopped and the jobs had time.

const OPEN_PAYOUT = new Set(['created', 'signed', 'broadcast']);
const MAX_OPEN_REQUEST_AGE_S = 120;
const MAX_OPEN_PAYOUT_AGE_S = 60;
const MAX_CURSOR_LAG_BLOCKS = 5n;
const MAX_OVERDUE_S = 60;

/** Invariant 5 (docs/chaos.md). */
export function checkNothingStuck(context: InvariantContext): void {
  const { input, snapshot, payoutById, check, bnb } = context;
  const ageS = (date: Date) => (snapshot.dbNow.getTime() - date.getTime()) / 1000;
  for (const request of snapshot.requests) {
    if (request.resolved_at !== null) continue;
    // Kept with the server's clock, which follows chain time on the local chain (CLOCK=chain).
    const requestAgeS = input.chainNowS - request.created_at.getTime() / 1000;
    check(
      requestAgeS <= MAX_OPEN_REQUEST_AGE_S,
      5,
      `request:${request.tx_hash}`,
      () =>
        `payment request ${request.id} (${request.tx_hash}) is open after ${Math.round(requestAgeS)} s, ${request.attempts} attempts, last error ${request.last_error}`,
    );
  }
  const finalHead = input.head - BigInt(input.confirmations - 1);
  check(
    input.snapshot.reconcileCursor !== null &&
      input.snapshot.reconcileCursor >= finalHead - MAX_CURSOR_LAG_BLOCKS,
    5,
    'cursor',
    () => `the reconciliation cursor is at ${input.snapshot.reconcileCursor}, the final head at ${finalHead}`,
  );
  for (const payout of snapshot.payouts) {
    if (!OPEN_PAYOUT.has(payout.status)) continue;
    check(
      ageS(payout.created_at) <= MAX_OPEN_PAYOUT_AGE_S,
      5,
      `payout-open:${payout.id}`,
      () =>
        `payout ${payout.id} (${payout.kind}, ${bnb(payout.amount)}) is ${payout.status} after ${Math.round(ageS(payout.created_at))} s; last error: ${payout.last_error}`,
    );
  }
  for (const payment of snapshot.payments) {
    if (payment.status !== 'refund_due' || payment.amount === 0n) continue;
    const payout = payment.refund_payout_id === null ? undefined : payoutById.get(payment.refund_payout_id);
    check(
      false,
      5,
      `refund-due:${payment.tx_hash}`,
      () =>
        `payment ${payment.id} (${bnb(payment.amount)}, ${payment.refund_reason}) is still refund_due; payout: ${payout ? `${payout.id} ${payout.status}` : 'none'}`,
    );
  }
  for (const market of snapshot.markets) {
    const overdue = input.chainNowS - market.deadline.getTime() / 1000 > MAX_OVERDUE_S;
    check(
      !overdue || market.status === 'settled',
      5,
      `market:${market.id}`,
      () => `market ${market.id} is still ${market.status} ${MAX_OVERDUE_S}+ s after its deadline`,
    );
  }
  for (const round of snapshot.rounds) {
    const overdue = input.chainNowS - round.close_time.getTime() / 1000 > MAX_OVERDUE_S;
    check(
      !overdue || round.status === 'ended',
      5,
      `round:${round.epoch}`,
      () => `round ${round.epoch} is still ${round.status} ${MAX_OVERDUE_S}+ s after its close`,
    );
  }
}

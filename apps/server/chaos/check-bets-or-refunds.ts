import type { InvariantContext } from './invariant-context.ts';

// Invariant 1: every paid inbound transfer is exactly one bet or exactly one refund, and nothing
// else exists: no payment row, bet or refund without money on the canonical chain behind it. Here
// the vault's transfers (market bets); the escrow's deposits (round bets) in check-escrow-deposits.ts.

// refund_held: owed back, held for an operator (a refund not worth its gas; decision 002).
const REFUND_STATUSES = new Set(['refund_due', 'refunded', 'refund_held']);

/** Invariant 1 (docs/chaos.md). */
export function checkBetsOrRefunds(context: InvariantContext): void {
  const { snapshot, inbound, payoutById, checkPaidOnChain, check, lose, bnb } = context;
  const inboundByHash = new Map(inbound.map((t) => [t.hash, t]));
  const paymentByHash = new Map(snapshot.payments.map((p) => [p.tx_hash.toLowerCase(), p]));
  const betsByPayment = new Map<number, number>();
  for (const bet of [...snapshot.bets, ...snapshot.oracleBets])
    betsByPayment.set(bet.payment_id, (betsByPayment.get(bet.payment_id) ?? 0) + 1);
  for (const transfer of inbound) {
    const payment = paymentByHash.get(transfer.hash);
    if (
      !check(
        payment !== undefined,
        1,
        `unaccounted:${transfer.hash}`,
        () =>
          `payment ${transfer.hash} (${bnb(transfer.value)} from ${transfer.from}, data ${intentOf(transfer.input)}) is neither a bet nor a refund`,
      )
    ) {
      lose(transfer.value);
      continue;
    }
    if (!payment) continue;
    check(
      payment.amount === transfer.value && payment.from_address.toLowerCase() === transfer.from,
      1,
      `mismatch:${transfer.hash}`,
      () =>
        `payment ${payment.id} says ${bnb(payment.amount)} from ${payment.from_address}; the chain says ${bnb(transfer.value)} from ${transfer.from}`,
    );
    const betCount = betsByPayment.get(payment.id) ?? 0;
    if (payment.status === 'recorded') {
      check(
        betCount === 1,
        1,
        `bets:${transfer.hash}`,
        () => `recorded payment ${payment.id} (${transfer.hash}) has ${betCount} bets`,
      );
      check(
        payment.refund_payout_id === null,
        1,
        `bet-and-refund:${transfer.hash}`,
        () => `payment ${payment.id} is both a bet and refund payout ${payment.refund_payout_id}`,
      );
    } else if (
      check(
        REFUND_STATUSES.has(payment.status),
        1,
        `status:${transfer.hash}`,
        () => `payment ${payment.id} has status ${payment.status}`,
      )
    ) {
      check(
        betCount === 0,
        1,
        `refund-and-bet:${transfer.hash}`,
        () => `refunded payment ${payment.id} also has ${betCount} bets`,
      );
      if (payment.status === 'refunded') {
        const payout =
          payment.refund_payout_id === null ? undefined : payoutById.get(payment.refund_payout_id);
        checkPaidOnChain(1, `refund:${transfer.hash}`, payout, payment.from_address.toLowerCase());
        if (payout)
          check(
            payout.amount === payment.amount,
            1,
            `refund-amount:${transfer.hash}`,
            () => `refund payout ${payout.id} is ${bnb(payout.amount)} for a ${bnb(payment.amount)} payment`,
          );
      }
    }
  }
  for (const payment of snapshot.payments) {
    // An escrow deposit is not a vault transfer: check-escrow-deposits.ts holds it to its event.
    if (payment.amount === 0n || payment.stake_id !== null) continue;
    const onChain = inboundByHash.get(payment.tx_hash.toLowerCase());
    if (
      !check(
        onChain !== undefined,
        1,
        `phantom:${payment.tx_hash}`,
        () =>
          `payment ${payment.id} (${payment.status}, ${bnb(payment.amount)}, ${payment.intent}) has no successful transfer on the canonical chain`,
      )
    ) {
      lose(payment.amount);
    }
  }
  const paymentById = new Map(snapshot.payments.map((p) => [p.id, p]));
  for (const bet of [...snapshot.bets, ...snapshot.oracleBets]) {
    const payment = paymentById.get(bet.payment_id);
    check(
      payment?.status === 'recorded' &&
        payment.amount === bet.amount &&
        payment.from_address === bet.user_address,
      1,
      `bet-payment:${bet.payment_id}`,
      () =>
        `bet with payment ${bet.payment_id} does not match a recorded payment of the same amount and owner`,
    );
  }
}

function intentOf(input: string): string {
  if (input === '0x') return '(none)';
  try {
    return JSON.stringify(Buffer.from(input.slice(2), 'hex').toString('utf8'));
  } catch {
    return input.slice(0, 80);
  }
}

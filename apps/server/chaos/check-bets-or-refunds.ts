import type { InvariantContext } from './invariant-context.ts';

// Invariant 1 outside the escrow's deposits (held to their `Deposited` events in
// check-escrow-deposits.ts): every payment is an escrow deposit (decision 028), so a payment naming no
// stake has no money behind it, a bet must match its payment, and value sent to the operator key is
// neither a bet nor a refund.

/** Invariant 1 (docs/chaos.md). */
export function checkBetsOrRefunds(context: InvariantContext): void {
  const { snapshot, inbound, check, lose, bnb } = context;
  for (const transfer of inbound) {
    if (
      !check(
        false,
        1,
        `unaccounted:${transfer.hash}`,
        () =>
          `the operator key received ${bnb(transfer.value)} from ${transfer.from} (${transfer.hash}): no payment goes to it, so it is neither a bet nor a refund`,
      )
    )
      lose(transfer.value);
  }
  for (const payment of snapshot.payments) {
    if (
      !check(
        payment.stake_id !== null,
        1,
        `phantom:${payment.tx_hash}`,
        () =>
          `payment ${payment.id} (${payment.status}, ${bnb(payment.amount)}, ${payment.intent}) names no escrow deposit`,
      )
    )
      lose(payment.amount);
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

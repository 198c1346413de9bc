import type { InvariantContext } from './invariant-context.ts';

// Invariant 1, the database's side: no payment row or bet without money on the canonical chain behind
// it. Every payment is an escrow deposit (decision 028), held to its `Deposited` event in
// check-escrow-deposits.ts; here a payment naming no stake, and a bet its payment does not match.

/** Invariant 1 (docs/chaos.md). */
export function checkBetsOrRefunds(context: InvariantContext): void {
  const { snapshot, check, lose, bnb } = context;
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

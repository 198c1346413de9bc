import type { InvariantContext } from './invariant-context.ts';

// Invariant 1 on the escrow (decision 026): every `Deposited` stake is exactly one payment row, which
// is either recorded as one holder of that stake (a round bet, a market bet or a flag's bond) or refused (`escrow_refund`, with its escrow_refunds
// row) and given back to its sender only, for its full amount; and every payment naming a stake has
// that deposit on the canonical chain behind it.

/** Invariant 1, the escrow's deposits. */
export function checkEscrowDeposits(context: InvariantContext): void {
  const { input, snapshot, depositByStake, outsByStake, check, lose, bnb } = context;
  const paymentByStake = new Map(
    snapshot.payments.flatMap((p) => (p.stake_id === null ? [] : [[p.stake_id, p] as const])),
  );
  // What holds a stake: a round bet, a market bet, or a flag's bond (migration 0018).
  const holders = [
    ...snapshot.oracleBets.map((bet) => ({ stakeId: bet.stake_id, paymentId: bet.payment_id })),
    ...snapshot.bets.map((bet) => ({ stakeId: bet.stake_id, paymentId: bet.payment_id })),
    ...snapshot.flags.map((flag) => ({ stakeId: flag.stake_id, paymentId: flag.bond_payment_id })),
  ];
  const betsByStake = new Map<bigint, number>();
  const betsByPayment = new Map<number, number>();
  for (const holder of holders) {
    if (holder.stakeId !== null) betsByStake.set(holder.stakeId, (betsByStake.get(holder.stakeId) ?? 0) + 1);
    if (holder.paymentId !== null)
      betsByPayment.set(holder.paymentId, (betsByPayment.get(holder.paymentId) ?? 0) + 1);
  }
  const refundByStake = new Map(snapshot.escrowRefunds.map((r) => [r.stake_id, r]));

  for (const deposit of input.escrow.deposits) {
    const key = `stake ${deposit.stakeId}`;
    const payment = paymentByStake.get(deposit.stakeId);
    if (
      !check(
        payment !== undefined,
        1,
        `escrow-unaccounted:${deposit.stakeId}`,
        () =>
          `escrow deposit ${key} (${bnb(deposit.amount)} from ${deposit.owner}, tx ${deposit.txHash}) is neither a bet nor a refund`,
      )
    ) {
      lose(deposit.amount);
      continue;
    }
    if (!payment) continue;
    check(
      payment.amount === deposit.amount &&
        payment.from_address.toLowerCase() === deposit.owner &&
        payment.tx_hash.toLowerCase() === deposit.txHash,
      1,
      `escrow-mismatch:${deposit.stakeId}`,
      () =>
        `payment ${payment.id} says ${bnb(payment.amount)} from ${payment.from_address} in ${payment.tx_hash}; the chain's ${key} is ${bnb(deposit.amount)} from ${deposit.owner} in ${deposit.txHash}`,
    );
    const bets = betsByPayment.get(payment.id) ?? 0;
    if (payment.status === 'recorded') {
      check(
        bets === 1 && betsByStake.get(deposit.stakeId) === 1,
        1,
        `escrow-bets:${deposit.stakeId}`,
        () =>
          `recorded escrow payment ${payment.id} (${key}) has ${bets} bets or bonds, ${betsByStake.get(deposit.stakeId) ?? 0} on its stake`,
      );
      check(
        !refundByStake.has(deposit.stakeId),
        1,
        `escrow-bet-and-refund:${deposit.stakeId}`,
        () => `${key} is both a bet and a refused deposit`,
      );
      continue;
    }
    if (
      !check(
        // escrow_refund while the escrow gives it back; refunded once its refundStake is final.
        payment.status === 'escrow_refund' || payment.status === 'refunded',
        1,
        `escrow-status:${deposit.stakeId}`,
        () => `escrow payment ${payment.id} (${key}) has status ${payment.status}`,
      )
    )
      continue;
    check(
      bets === 0 && !betsByStake.has(deposit.stakeId),
      1,
      `escrow-refund-and-bet:${deposit.stakeId}`,
      () => `refused escrow payment ${payment.id} (${key}) also has a bet`,
    );
    const refund = refundByStake.get(deposit.stakeId);
    if (
      !check(
        refund !== undefined &&
          refund.owner.toLowerCase() === deposit.owner &&
          refund.amount === deposit.amount &&
          refund.market_key.toLowerCase() === deposit.market,
        1,
        `escrow-refund-row:${deposit.stakeId}`,
        () =>
          refund
            ? `the refund of ${key} names ${refund.owner}, ${bnb(refund.amount)}, market ${refund.market_key}; the deposit ${deposit.owner}, ${bnb(deposit.amount)}, ${deposit.market}`
            : `refused ${key} has no escrow_refunds row`,
      )
    )
      continue;
    // Given back: its sender, its full amount, from the contract (refundStake, or a payout list leaf).
    check(
      (payment.status === 'refunded') === (refund?.status === 'refunded'),
      1,
      `escrow-refund-status:${deposit.stakeId}`,
      () => `refused ${key}: its payment is ${payment.status}, its refund ${refund?.status}`,
    );
    if (refund?.status === 'refunded' || refund?.status === 'payout_list') {
      const outs = outsByStake.get(deposit.stakeId) ?? [];
      const out = outs[0];
      check(
        out !== undefined && out.owner === deposit.owner && out.amount === deposit.amount,
        1,
        `escrow-refund-paid:${deposit.stakeId}`,
        () =>
          out
            ? `refused ${key} went back as ${bnb(out.amount)} to ${out.owner}, not ${bnb(deposit.amount)} to ${deposit.owner}`
            : `refused ${key} is ${refund.status}, and nothing left the escrow for it`,
      );
    }
  }

  // No payment, bet or refund naming a stake the canonical chain does not have.
  for (const payment of snapshot.payments) {
    if (payment.stake_id === null) continue;
    const deposit = depositByStake.get(payment.stake_id);
    if (
      !check(
        deposit !== undefined,
        1,
        `escrow-phantom:${payment.stake_id}`,
        () =>
          `payment ${payment.id} (${payment.status}, ${bnb(payment.amount)}, tx ${payment.tx_hash}) names stake ${payment.stake_id}, which the escrow never took`,
      )
    )
      lose(payment.amount);
  }
  const paymentById = new Map(snapshot.payments.map((p) => [p.id, p]));
  const named = [
    ...snapshot.oracleBets.map((bet) => ({
      what: `oracle bet ${bet.id}`,
      stakeId: bet.stake_id,
      paymentId: bet.payment_id,
    })),
    ...snapshot.bets.map((bet) => ({
      what: `bet ${bet.id}`,
      stakeId: bet.stake_id,
      paymentId: bet.payment_id,
    })),
    ...snapshot.flags.map((flag) => ({
      what: `flag ${flag.id}`,
      stakeId: flag.stake_id,
      paymentId: flag.bond_payment_id,
    })),
  ];
  for (const holder of named) {
    if (holder.stakeId === null) continue;
    const payment = holder.paymentId === null ? undefined : paymentById.get(holder.paymentId);
    check(
      payment?.stake_id === holder.stakeId,
      1,
      `escrow-bet-stake:${holder.what}`,
      () => `${holder.what} names stake ${holder.stakeId}, its payment ${payment?.stake_id ?? 'none'}`,
    );
  }
}

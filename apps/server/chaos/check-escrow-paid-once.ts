import type { InvariantContext } from './invariant-context.ts';

// Invariant 4 on the escrow: nothing left the contract twice or unexplained. Each stake is paid or
// refunded at most once on chain (its slot zero after), each such event is the payout or refund of a
// stake the server holds (a round bet, a market bet, a flag's bond) or a refused deposit's return, each recorded stake payout is that event, and no stake was paid by two
// relays.

/** Invariant 4, the escrow's payouts. */
export function checkEscrowPaidOnce(context: InvariantContext): void {
  const { input, snapshot, outsByStake, stakePayoutByStake, check, lose, bnb } = context;
  // The stakes the server recorded as bets or bonds (a round bet counts once it is marked claimed).
  const held = new Set<bigint>();
  for (const bet of snapshot.oracleBets) if (bet.stake_id !== null && bet.claimed) held.add(bet.stake_id);
  for (const bet of snapshot.bets) if (bet.stake_id !== null) held.add(bet.stake_id);
  for (const flag of snapshot.flags) if (flag.stake_id !== null) held.add(flag.stake_id);
  const refundByStake = new Map(snapshot.escrowRefunds.map((r) => [r.stake_id, r]));
  for (const [stake, outs] of outsByStake) {
    if (
      !check(
        outs.length === 1,
        4,
        `escrow-twice:${stake}`,
        () => `stake ${stake} left the escrow ${outs.length} times (${outs.map((o) => o.txHash).join(', ')})`,
      )
    )
      lose(outs.slice(1).reduce((total, out) => total + out.amount, 0n));
    const out = outs[0];
    if (!out) continue;
    check(
      input.escrow.spent.get(stake) === true,
      4,
      `escrow-stake-open:${stake}`,
      () => `stake ${stake} was paid (${out.txHash}) but stakes(${stake}) is not zero`,
    );
    const refund = refundByStake.get(stake);
    const explained =
      (held.has(stake) && stakePayoutByStake.get(stake)?.tx_hash.toLowerCase() === out.txHash) ||
      (refund !== undefined && refund.owner.toLowerCase() === out.owner && refund.amount === out.amount);
    if (
      !check(
        explained,
        4,
        `escrow-unexplained:${stake}`,
        () =>
          `the escrow ${out.kind} ${bnb(out.amount)} to ${out.owner} for stake ${stake} (${out.txHash}) and no paid bet, bond or refused deposit explains it`,
      )
    )
      lose(out.amount);
  }
  for (const row of snapshot.stakePayouts) {
    const out = outsByStake.get(row.stake_id)?.[0];
    check(
      out !== undefined && out.txHash === row.tx_hash.toLowerCase() && out.amount === row.amount,
      4,
      `escrow-payout-row:${row.stake_id}`,
      () =>
        `escrow_stake_payouts says stake ${row.stake_id} got ${bnb(row.amount)} in ${row.tx_hash}; the chain: ${out ? `${bnb(out.amount)} in ${out.txHash}` : 'nothing'}`,
    );
  }
  // A stake in two relays that both ended done would be paid twice (or recorded twice).
  const relayById = new Map(snapshot.relays.map((r) => [r.id, r]));
  const doneRelays = new Map<bigint, number[]>();
  for (const link of snapshot.relayStakes) {
    if (relayById.get(link.relay_id)?.status !== 'done') continue;
    doneRelays.set(link.stake_id, [...(doneRelays.get(link.stake_id) ?? []), link.relay_id]);
  }
  for (const [stake, relays] of doneRelays)
    check(
      relays.length === 1,
      4,
      `escrow-relayed-twice:${stake}`,
      () => `stake ${stake} is in ${relays.length} relays that ended done (${relays.join(', ')})`,
    );
  for (const row of snapshot.stakePayouts) {
    if (row.relay_id === null) continue;
    check(
      snapshot.relayStakes.some((link) => link.relay_id === row.relay_id && link.stake_id === row.stake_id),
      4,
      `escrow-relay-link:${row.stake_id}`,
      () => `stake ${row.stake_id} is recorded paid by relay ${row.relay_id}, which did not carry it`,
    );
  }
}

import { expectedMarketPayouts, expectedRoundPayouts } from './expected-payouts.ts';
import type { InvariantContext } from './invariant-context.ts';

// Invariant 2: every claimed bet has exactly one confirmed payout on chain, to its owner, of the
// right amount (computed here from the bets), and after the claim sweep every win is paid.

/** Invariant 2 (docs/chaos.md). */
export function checkClaimsPaid(context: InvariantContext): void {
  const { snapshot, payoutById, minedOf, checkPaidOnChain, check, lose, bnb } = context;
  //    and (after the claim sweep) every win is claimed.
  const owedMarket = expectedMarketPayouts(snapshot);
  const owedRound = expectedRoundPayouts(snapshot);
  const owedByPayout = new Map<number, bigint>();
  const addOwed = (payoutId: number | null, owed: bigint | undefined) => {
    if (payoutId !== null) owedByPayout.set(payoutId, (owedByPayout.get(payoutId) ?? 0n) + (owed ?? 0n));
  };
  for (const bet of snapshot.bets) {
    const owed = owedMarket.get(bet.id);
    addOwed(bet.payout_id, owed);
    // Unpaid: owed something and not claimed, whether no payout was made or it never confirmed.
    if (owed !== undefined && bet.status !== 'claimed')
      check(
        owed === 0n,
        2,
        `unpaid-market-bet:${bet.id}`,
        () => `market bet ${bet.id} (${bet.user_address}) is owed ${bnb(owed)} and was never paid`,
      );
    if (bet.status === 'claimed') {
      checkPaidOnChain(
        2,
        `market-bet:${bet.id}`,
        bet.payout_id === null ? undefined : payoutById.get(bet.payout_id),
        bet.user_address,
      );
    }
    if (owed !== undefined && bet.status !== 'claimed' && bet.status !== 'pending') {
      // payout_amount is the full return: stake + profit, the stake, or 0 (decision 002).
      const stored = bet.payout_amount ?? 0n;
      check(
        stored === owed,
        2,
        `settled-amount:${bet.id}`,
        () => `market bet ${bet.id} is ${bet.status} for ${bnb(stored)}, the pools say ${bnb(owed)}`,
      );
    }
  }
  for (const bet of snapshot.oracleBets) {
    const owed = owedRound.get(bet.id);
    addOwed(bet.payout_id, owed);
    if (owed !== undefined) {
      check(
        bet.payout_amount === owed,
        2,
        `round-amount:${bet.id}`,
        () => `oracle bet ${bet.id} stores ${bet.payout_amount} wei, the pools say ${owed}`,
      );
      if (!bet.claimed)
        check(
          owed === 0n,
          2,
          `unpaid-oracle-bet:${bet.id}`,
          () => `oracle bet ${bet.id} (${bet.user_address}) is owed ${bnb(owed)} and was never paid`,
        );
    }
    if (bet.claimed)
      checkPaidOnChain(
        2,
        `oracle-bet:${bet.id}`,
        bet.payout_id === null ? undefined : payoutById.get(bet.payout_id),
        bet.user_address,
      );
  }
  for (const payout of snapshot.payouts) {
    if (payout.kind !== 'claim') continue;
    const owed = owedByPayout.get(payout.id) ?? 0n;
    check(
      owed === payout.amount,
      2,
      `claim-amount:${payout.id}`,
      () => `claim payout ${payout.id} is ${bnb(payout.amount)}, its bets are owed ${bnb(owed)}`,
    );
    if (owed !== payout.amount && minedOf(payout).length) lose(abs(payout.amount - owed));
  }
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

import { expectedMarketPayouts, expectedRoundPayouts } from './expected-payouts.ts';
import type { InvariantContext } from './invariant-context.ts';

// Invariant 2: every claimed bet was paid once on chain, to its owner, of the right amount (computed
// here from the bets), and after the claim sweep every win is paid. Every bet is a stake on the
// escrow, paid by the contract (escrow_stake_payouts, the chain's Claimed or Refunded event, its stake
// spent).

/** Invariant 2 (docs/chaos.md). */
export function checkClaimsPaid(context: InvariantContext): void {
  const { snapshot, check, bnb } = context;
  //    and (after the claim sweep) every win is claimed.
  const owedMarket = expectedMarketPayouts(snapshot);
  const owedRound = expectedRoundPayouts(snapshot);
  for (const bet of snapshot.bets) {
    const owed = owedMarket.get(bet.id);
    // Unpaid: owed something and not claimed, whether no payout was made or it never confirmed.
    if (owed !== undefined && bet.status !== 'claimed')
      check(
        owed === 0n,
        2,
        `unpaid-market-bet:${bet.id}`,
        () => `market bet ${bet.id} (${bet.user_address}) is owed ${bnb(owed)} and was never paid`,
      );
    // A bet naming no stake is invariant 1's (its payment names no deposit).
    if (bet.stake_id !== null && bet.status === 'claimed')
      checkEscrowStakePaid(
        context,
        `escrow-market-bet:${bet.id}`,
        bet.stake_id,
        bet.user_address,
        owed ?? bet.payout_amount ?? 0n,
      );
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
    if (bet.stake_id !== null && bet.claimed)
      checkEscrowStakePaid(
        context,
        `escrow-bet:${bet.id}`,
        bet.stake_id,
        bet.user_address,
        owed ?? bet.payout_amount ?? 0n,
      );
  }
}

/**
 * A stake the database says was paid (a round bet claimed, a market bet claimed): its
 * escrow_stake_payouts row, the chain's Claimed or Refunded event of the same transaction, to its
 * owner, of what it was owed, and its stake spent on chain.
 */
function checkEscrowStakePaid(
  context: InvariantContext,
  key: string,
  stake: bigint,
  owner: string,
  paid: bigint,
): void {
  const { outsByStake, stakePayoutByStake, input, check, lose, bnb } = context;
  const row = stakePayoutByStake.get(stake);
  const out = outsByStake.get(stake)?.[0];
  if (!check(row !== undefined, 2, `${key}:no-payout`, () => `${key}: claimed, no escrow_stake_payouts row`))
    return;
  if (!row) return;
  check(
    row.owner === owner && row.amount === paid,
    2,
    `${key}:wrong-row`,
    () => `${key}: its payout row says ${bnb(row.amount)} to ${row.owner}, owed ${bnb(paid)} to ${owner}`,
  );
  if (
    !check(
      out !== undefined && out.txHash === row.tx_hash.toLowerCase(),
      2,
      `${key}:not-on-chain`,
      () =>
        `${key}: stake ${stake} paid in ${row.tx_hash} says the database; the chain: ${out ? out.txHash : 'nothing'}`,
    )
  )
    return;
  if (!out) return;
  check(
    out.owner === owner && out.amount === paid && out.kind === row.kind,
    2,
    `${key}:wrong-value`,
    () => `${key}: the chain ${out.kind} ${bnb(out.amount)} to ${out.owner}, owed ${bnb(paid)} to ${owner}`,
  );
  if (out.amount !== paid) lose(abs(out.amount - paid));
  check(
    input.escrow.spent.get(stake) === true,
    2,
    `${key}:stake-open`,
    () => `${key}: stake ${stake} was paid, yet stakes(${stake}) is not zero`,
  );
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

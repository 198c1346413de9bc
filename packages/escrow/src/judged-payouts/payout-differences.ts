import { formatEther } from 'viem';
import { SIDE_YES } from '../market-escrow-constants.ts';
import type { Payout } from '../payout-tree.ts';
import type { RecomputedJudgedPayouts } from './recompute-judged-payouts.ts';

// How the payouts someone shows (a published list's leaves, the settlement's claims) differ from the
// rules' recomputation, stake by stake, each difference a sentence a guardian can act on.

export type PaidPayouts = {
  /** The payouts shown: a list's leaves or the claims paid. */
  payouts: readonly Payout[];
  /** True for a whole list (a stake owed and absent is left out); false for claims (not all are in yet). */
  complete: boolean;
  /** How a sentence says a stake got its amount: "is paid", "was claimed for". */
  verb: string;
  /** The stakes refunded before the settlement: a payout to one names it. */
  refunded: readonly bigint[];
};

/** Every stake paid otherwise than `expected` says: paid and owed nothing, left out, or paid another amount. */
export function payoutDifferences(expected: RecomputedJudgedPayouts, paid: PaidPayouts): string[] {
  const owed = new Map(expected.stakes.map((stake) => [stake.stakeId, stake]));
  const refunded = new Set(paid.refunded);
  const shown = new Map<bigint, bigint>();
  const sentences: string[] = [];
  for (const payout of paid.payouts) {
    shown.set(payout.stakeId, (shown.get(payout.stakeId) ?? 0n) + payout.amount);
  }
  for (const [stakeId, amount] of shown) {
    const stake = owed.get(stakeId);
    if (stake === undefined) {
      sentences.push(
        refunded.has(stakeId)
          ? `Stake ${stakeId} ${paid.verb} ${bnb(amount)}, but it was refunded before the settlement: it is not in the pool.`
          : `Stake ${stakeId} ${paid.verb} ${bnb(amount)}, but it is no stake of this market.`,
      );
    } else if (stake.payout === 0n) {
      const why =
        stake.side === 0
          ? 'its bond is forfeited (the verdict it disputed was confirmed)'
          : 'it is a losing bet';
      sentences.push(
        `Stake ${stakeId} (${describe(stake)}) ${paid.verb} ${bnb(amount)}, but ${why}: it should get nothing.`,
      );
    } else if (amount !== stake.payout) {
      const gap =
        amount > stake.payout
          ? `${bnb(amount - stake.payout)} too much`
          : `${bnb(stake.payout - amount)} too little`;
      sentences.push(
        `Stake ${stakeId} (${describe(stake)}) ${paid.verb} ${bnb(amount)}, but the rules give it ${bnb(stake.payout)}: ${gap}.`,
      );
    }
  }
  if (paid.complete) {
    for (const stake of expected.stakes) {
      if (stake.payout === 0n || shown.has(stake.stakeId)) continue;
      const who = stake.side === 0 ? 'a bond to be returned' : 'a winner';
      sentences.push(
        `Stake ${stake.stakeId} (${describe(stake)}), ${who}, is left out: it should get ${bnb(stake.payout)}.`,
      );
    }
  }
  return sentences;
}

function describe(stake: { side: number; owner: string }): string {
  if (stake.side === 0) return `dispute bond of ${stake.owner}`;
  return `${stake.side === SIDE_YES ? 'YES' : 'NO'} bet of ${stake.owner}`;
}

/** An amount in BNB, exact to the wei. */
export function bnb(wei: bigint): string {
  return `${formatEther(wei)} BNB`;
}

import type { Hex } from 'viem';
import { MAX_FEE_BPS, maxFee } from './escrow-constants.ts';
import { buildPayoutTree, type Payout, type PayoutTree } from './payout-tree.ts';

// docs/decisions/026-app-on-the-escrow.md "Settlement, claims and refunds": what the operator posts
// with `settle`, computed from the payouts the product rules gave. The contract takes a settlement
// only when payoutTotal + fee is its pool to the wei and the fee is within MAX_FEE_BPS; this module
// refuses anything else before a transaction is sent, with the reason.

const UINT128_MAX = 2n ** 128n - 1n;

export type Settlement = {
  /** `settle`'s payoutRoot. */
  root: Hex;
  /** `settle`'s payoutTotal: the sum of the payouts. */
  payoutTotal: bigint;
  /** `settle`'s fee: the market's fee plus the rounding dust, so payoutTotal + fee is the pool. */
  fee: bigint;
  /** What the payouts and the market's fee left of the pool (wei lost to rounding), inside `fee`. */
  dust: bigint;
  /** The payouts, as given: the leaves of `tree`. */
  payouts: readonly Payout[];
  tree: PayoutTree;
};

/**
 * The commitment of a market's payouts. `pool` is the market's pool on chain (deposits less refunds),
 * `fee` what the market's fee rule keeps; whatever the payouts and that fee leave is dust and goes to
 * the fee. Throws when there is nothing to pay (that is `settleAsRefund`), a stake is listed twice,
 * a payout is not above zero, the payouts and fee exceed the pool, or fee and dust pass the cap.
 */
export function buildSettlement({
  pool,
  payouts,
  fee,
}: {
  pool: bigint;
  payouts: readonly Payout[];
  fee: bigint;
}): Settlement {
  if (pool <= 0n || pool > UINT128_MAX)
    throw new RangeError(`The pool must be above zero and fit uint128, got ${pool}`);
  if (fee < 0n) throw new RangeError(`The fee cannot be negative, got ${fee}`);
  if (payouts.length === 0) {
    throw new Error('A settlement needs at least one payout: a market with no winners is settleAsRefund');
  }
  const tree = buildPayoutTree(payouts);
  const payoutTotal = tree.total;
  const dust = pool - payoutTotal - fee;
  if (dust < 0n) {
    throw new Error(
      `The payouts (${payoutTotal} wei) and the fee (${fee} wei) exceed the pool (${pool} wei) by ${-dust} wei`,
    );
  }
  const kept = fee + dust;
  const cap = maxFee(pool);
  if (kept > cap) {
    throw new Error(
      `The fee with its rounding dust (${fee} + ${dust} = ${kept} wei) is above the contract's cap of ` +
        `${Number(MAX_FEE_BPS) / 100} % of the pool (${cap} wei)`,
    );
  }
  return { root: tree.root, payoutTotal, fee: kept, dust, payouts: [...payouts], tree };
}

/** The arguments of `settle(market, outcome, verdictHash, payoutRoot, payoutTotal, fee, delay)`, in order. */
export function settleArgs(
  settlement: Settlement,
  {
    marketKey,
    outcome,
    verdictHash,
    delay,
  }: { marketKey: Hex; outcome: number; verdictHash: Hex; delay: number },
) {
  return [
    marketKey,
    outcome,
    verdictHash,
    settlement.root,
    settlement.payoutTotal,
    settlement.fee,
    delay,
  ] as const;
}

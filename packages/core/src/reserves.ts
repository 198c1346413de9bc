import { BPS_DENOMINATOR } from './money.ts';

// Proof of reserves (decision 028, docs/architecture.md "Proof of reserves"): the escrow contract's
// balance at a block against everything it owes at that block (its `liabilities()`: open and refunding
// pools, unclaimed payouts, credits and fees not yet sent to the treasury). The contract keeps
// `balance ≥ liabilities` by construction; what is above it is BNB forced in, nobody's stake. The
// server's keys hold gas money only, so no server figure enters this sum.

/**
 * floor(balance × 10000 / liabilities): 10000 is exactly covered, below it the escrow is short.
 * Null when nothing is owed (any balance covers it). A bigint: a large balance over a tiny debt
 * is a ratio past what a float holds exactly.
 */
export function reserveRatioBps(balanceWei: bigint, liabilitiesWei: bigint): bigint | null {
  if (balanceWei < 0n || liabilitiesWei < 0n) throw new RangeError('balance and liabilities must be ≥ 0');
  if (liabilitiesWei === 0n) return null;
  return (balanceWei * BigInt(BPS_DENOMINATOR)) / liabilitiesWei;
}

export type ReservesReport = {
  blockNumber: bigint;
  balanceWei: bigint;
  liabilitiesWei: bigint;
  /** balance ≥ liabilities. */
  covered: boolean;
  /** liabilities − balance when short, else 0. */
  shortfallWei: bigint;
  /** balance − liabilities when covered, else 0: BNB forced in, which no bettor owns. */
  excessWei: bigint;
  reserveRatioBps: bigint | null;
};

/** The escrow's balance at a block against what it owes there: covered or short, and by how much. */
export function reservesReport(input: {
  blockNumber: bigint;
  balanceWei: bigint;
  liabilitiesWei: bigint;
}): ReservesReport {
  const { balanceWei, liabilitiesWei } = input;
  const covered = balanceWei >= liabilitiesWei;
  return {
    blockNumber: input.blockNumber,
    balanceWei,
    liabilitiesWei,
    covered,
    shortfallWei: covered ? 0n : liabilitiesWei - balanceWei,
    excessWei: covered ? balanceWei - liabilitiesWei : 0n,
    reserveRatioBps: reserveRatioBps(balanceWei, liabilitiesWei),
  };
}

import { BPS_DENOMINATOR } from './money.ts';

// Proof of reserves (issue 20, docs/architecture.md "Proof of reserves"): what the vault owes, in
// parts, in integer wei. Every row of the ledger owes through at most one part, so nothing is
// counted twice: a bet or a refund linked to a payout in flight is owed through the payout (its
// amount is what they come to), and a failed payout releases them, so they are owed through their
// own part again. What the vault keeps (the fee net of flaggers' rewards, and rounding dust) is
// never a row's part: it is the vault's, not a bettor's. Money on its way in that the server has
// not recorded yet is owed too, as an unrecorded transfer.
//
// The server sums each part in SQL with the same predicates (apps/server/src/solvency/); the row
// rules below are the reference those sums follow, and what the property tests check against a
// simulated vault: balance − liabilities = what the vault keeps, after every step.

/** The parts of what the vault owes, in the order the API and the page list them. */
export const LIABILITY_PARTS = [
  /** Stakes of markets not settled yet (active, closed, or in review), paid to the vault (not the escrow). */
  'openMarketStakesWei',
  /** Stakes of oracle rounds not ended yet (upcoming, live, locked), staked into the vault (not the escrow). */
  'openRoundStakesWei',
  /** What settled market bets paid to the vault return (win: stake + profit; refund: stake), not yet in a payout. */
  'unclaimedMarketWei',
  /** What ended round bets staked into the vault return, not yet in a payout (the escrow pays the rest). */
  'unclaimedRoundWei',
  /** Payments owed back (refused, late, or a returned flag bond with its reward), not yet in a payout. */
  'refundsOwedWei',
  /** Flag bonds held while their market is in review. */
  'flagBondsHeldWei',
  /** Payouts created, signed or broadcast, not yet confirmed final. */
  'payoutsQueuedWei',
  /** Transfers to the vault found on chain but not yet recorded as a payment (reconciliation's queue). */
  'unrecordedTransfersWei',
] as const;

export type LiabilityPart = (typeof LIABILITY_PARTS)[number];
export type LiabilityParts = Record<LiabilityPart, bigint>;

export type Liabilities = {
  parts: LiabilityParts;
  /** Σ parts: everything the vault owes. */
  totalWei: bigint;
};

/** One row's debt: which part it is owed through, and how much. */
export type Owed = { part: LiabilityPart; wei: bigint };

/** Every part at 0. */
export function noLiabilities(): LiabilityParts {
  return Object.fromEntries(LIABILITY_PARTS.map((part) => [part, 0n])) as LiabilityParts;
}

/** The total of the parts; a negative part is a bug upstream and throws. */
export function liabilitiesOf(parts: LiabilityParts): Liabilities {
  let totalWei = 0n;
  for (const part of LIABILITY_PARTS) {
    const wei = parts[part];
    if (wei < 0n) throw new RangeError(`${part} must not be negative, got ${wei}`);
    totalWei += wei;
  }
  return { parts: { ...parts }, totalWei };
}

/** Adds up rows' debts by part (the rows' `Owed`, or null for a row that owes nothing). */
export function sumLiabilities(debts: Iterable<Owed | null>): Liabilities {
  const parts = noLiabilities();
  for (const debt of debts) if (debt) parts[debt.part] += debt.wei;
  return liabilitiesOf(parts);
}

const owed = (part: LiabilityPart, wei: bigint): Owed | null => (wei > 0n ? { part, wei } : null);

export type MarketBetLedgerRow = {
  marketStatus: 'active' | 'settling' | 'settled';
  status: 'pending' | 'won' | 'lost' | 'claimed' | 'refunded';
  amountWei: bigint;
  /** The full return once settled (decision 002), null before. */
  payoutAmountWei: bigint | null;
  /** Linked to a payout (`payout_id` set): owed through that payout while it is open. */
  inPayout: boolean;
  /**
   * Staked on the escrow contract (a stake id; decision 026): the contract holds it and pays it, so
   * the vault owes nothing of it, ever, as for a round bet. Only bets paid to the vault owe.
   */
  onEscrow?: boolean;
};

/**
 * A market bet paid to the vault: its stake while the market is not settled (a verdict in review is
 * not settled); once settled, a win or a refund owes its return until a payout takes it; a loss owes
 * nothing, nor does a claimed bet (its payout was confirmed). A bet on the escrow contract owes the
 * vault nothing.
 */
export function marketBetOwes(bet: MarketBetLedgerRow): Owed | null {
  if (bet.onEscrow) return null;
  if (bet.marketStatus !== 'settled') return owed('openMarketStakesWei', bet.amountWei);
  if (bet.inPayout || (bet.status !== 'won' && bet.status !== 'refunded')) return null;
  return owed('unclaimedMarketWei', bet.payoutAmountWei ?? 0n);
}

export type RoundBetLedgerRow = {
  roundStatus: 'upcoming' | 'live' | 'locked' | 'ended';
  amountWei: bigint;
  /** The full return once the round ended (0 on a loss), null before. */
  payoutAmountWei: bigint | null;
  claimed: boolean;
  inPayout: boolean;
  /**
   * Staked on the escrow contract (a stake id; decision 026): the contract holds it and pays it,
   * so the vault owes nothing of it, ever. Only bets staked into the vault before the switch owe.
   */
  onEscrow?: boolean;
};

/**
 * A round bet staked into the vault: its stake while the round runs; once ended, its return until a
 * payout takes it. A bet on the escrow contract owes the vault nothing.
 */
export function roundBetOwes(bet: RoundBetLedgerRow): Owed | null {
  if (bet.onEscrow) return null;
  if (bet.roundStatus !== 'ended') return owed('openRoundStakesWei', bet.amountWei);
  if (bet.inPayout || bet.claimed) return null;
  return owed('unclaimedRoundWei', bet.payoutAmountWei ?? 0n);
}

export type PaymentLedgerRow = {
  /** `escrow_refund`: a deposit into the escrow it refused, given back by the contract, never the vault. */
  status: 'recorded' | 'refund_due' | 'refund_held' | 'refunded' | 'escrow_refund';
  amountWei: bigint;
  /** Owed back instead of the amount (a returned flag bond with its reward), null: the amount. */
  refundAmountWei: bigint | null;
  /** Linked to a refund payout (`refund_payout_id` set). */
  inPayout: boolean;
};

/**
 * A payment owed back (due, or held for an operator) owes what the refund path pays,
 * `refund_amount` when set, else the amount, until a refund payout takes it. A recorded payment
 * owes through what it became (a bet, or a flag's bond); a refunded one owes nothing.
 */
export function paymentOwes(payment: PaymentLedgerRow): Owed | null {
  if (payment.inPayout || (payment.status !== 'refund_due' && payment.status !== 'refund_held')) return null;
  return owed('refundsOwedWei', payment.refundAmountWei ?? payment.amountWei);
}

export type FlagBondLedgerRow = {
  bondStatus: 'held' | 'returned' | 'forfeited' | 'returned_void' | null;
  bondAmountWei: bigint | null;
  /** The bond is a dispute deposit the escrow holds (it has a stake id, decision 026): not the vault's. */
  onEscrow?: boolean;
};

/**
 * A flag's bond paid to the vault while its market is in review. Once the market settles it is owed
 * elsewhere or not at all: returned, its payment is a refund owed (bond + reward); forfeited, it is in
 * the winners' returns. A bond on the escrow (a dispute deposit) is the escrow's, never the vault's.
 */
export function flagBondOwes(flag: FlagBondLedgerRow): Owed | null {
  if (flag.bondStatus !== 'held' || flag.onEscrow) return null;
  return owed('flagBondsHeldWei', flag.bondAmountWei ?? 0n);
}

export type PayoutLedgerRow = {
  status: 'created' | 'signed' | 'broadcast' | 'confirmed' | 'failed';
  amountWei: bigint;
};

/**
 * A payout not yet confirmed owes its amount: the sum of what its bets or its refund owed. Once
 * confirmed it is paid; once failed, what it paid for is released and owed through its own parts.
 */
export function payoutOwes(payout: PayoutLedgerRow): Owed | null {
  if (payout.status !== 'created' && payout.status !== 'signed' && payout.status !== 'broadcast') return null;
  return owed('payoutsQueuedWei', payout.amountWei);
}

export type VaultTransferLedgerRow = {
  /** Reconciliation has settled it (recorded, refunded, known, or reverted). */
  resolved: boolean;
  /** A payment with its hash exists: owed through that payment and what it became. */
  recorded: boolean;
  amountWei: bigint;
};

/** A transfer to the vault found on chain and not settled yet: it becomes a bet or a refund. */
export function vaultTransferOwes(transfer: VaultTransferLedgerRow): Owed | null {
  if (transfer.resolved || transfer.recorded) return null;
  return owed('unrecordedTransfersWei', transfer.amountWei);
}

/**
 * floor(balance × 10000 / liabilities): 10000 is exactly covered, below it the vault is short.
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
  vaultBalanceWei: bigint;
  liabilities: Liabilities;
  /** balance ≥ liabilities. */
  covered: boolean;
  /** liabilities − balance when short, else 0. */
  shortfallWei: bigint;
  reserveRatioBps: bigint | null;
};

/** The vault's balance at a block against what it owes: covered or short, and by how much. */
export function reservesReport(input: {
  blockNumber: bigint;
  vaultBalanceWei: bigint;
  liabilities: Liabilities;
}): ReservesReport {
  const { vaultBalanceWei, liabilities } = input;
  const covered = vaultBalanceWei >= liabilities.totalWei;
  return {
    blockNumber: input.blockNumber,
    vaultBalanceWei,
    liabilities,
    covered,
    shortfallWei: covered ? 0n : liabilities.totalWei - vaultBalanceWei,
    reserveRatioBps: reserveRatioBps(vaultBalanceWei, liabilities.totalWei),
  };
}

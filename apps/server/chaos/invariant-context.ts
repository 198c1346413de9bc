import { formatEther } from 'viem';
import type { DbSnapshot, PayoutRow } from './db-snapshot.ts';
import type { EscrowStakeOut, EscrowView } from './escrow-ledger.ts';
import type { VaultTransfer } from './vault-ledger.ts';

// What every invariant check reads (the chain's vault transfers, the database snapshot, indexes
// over both) and how it reports: `check` counts a check and records a violation when it fails,
// `lose` adds to the BNB the run cannot account for.

export type Violation = { invariant: 1 | 2 | 3 | 4 | 5; key: string; message: string };

export type InvariantInput = {
  snapshot: DbSnapshot;
  transfers: VaultTransfer[];
  vault: string;
  head: bigint;
  confirmations: number;
  initialBalance: bigint;
  finalBalance: bigint;
  /** The final head quiescence saw the scans reach (null: it never got quiet; a lag is allowed). */
  scanTarget: bigint | null;
  /** The escrow as the chain has it at `head`: round stakes in, payouts and refunds out. */
  escrow: EscrowView;
  /** Chain time at the snapshot: deadlines and round closes are compared with it. */
  chainNowS: number;
};

export function createInvariantContext(input: InvariantInput) {
  const { snapshot } = input;
  const violations: Violation[] = [];
  let checks = 0;
  let lostWei = 0n;
  const check = (ok: boolean, invariant: Violation['invariant'], key: string, message: () => string) => {
    checks += 1;
    if (!ok) violations.push({ invariant, key: `I${invariant}:${key}`, message: message() });
    return ok;
  };
  const lose = (wei: bigint) => {
    lostWei += wei;
  };
  const bnb = (wei: bigint) => `${formatEther(wei)} BNB`;

  const inbound = input.transfers.filter(
    (t) => t.to === input.vault && t.from !== input.vault && t.success && t.value > 0n,
  );
  const outbound = input.transfers.filter(
    (t) => t.from === input.vault && t.to !== input.vault && t.success && t.value > 0n,
  );
  const outboundByHash = new Map(outbound.map((t) => [t.hash, t]));
  const payoutById = new Map(snapshot.payouts.map((p) => [p.id, p]));
  // The escrow's side: deposits by stake, what left it per stake (a list: twice would be a violation).
  const depositByStake = new Map(input.escrow.deposits.map((d) => [d.stakeId, d]));
  const outsByStake = new Map<bigint, EscrowStakeOut[]>();
  for (const out of input.escrow.outs)
    outsByStake.set(out.stakeId, [...(outsByStake.get(out.stakeId) ?? []), out]);
  const stakePayoutByStake = new Map(snapshot.stakePayouts.map((p) => [p.stake_id, p]));

  /** The payout's transactions as the chain has them (one of its signed hashes, mined). */
  const minedOf = (payout: PayoutRow) =>
    payout.tx_hashes.map((hash) => outboundByHash.get(hash.toLowerCase())).filter((t) => t !== undefined);

  /** A payout that must have happened: confirmed, on chain, to `to`, for its amount. */
  const checkPaidOnChain = (invariant: 1 | 2, key: string, payout: PayoutRow | undefined, to: string) => {
    if (!check(payout !== undefined, invariant, `${key}:no-payout`, () => `${key}: no payout row`)) return;
    if (!payout) return;
    const mined = minedOf(payout);
    check(
      payout.status === 'confirmed',
      invariant,
      `${key}:not-confirmed`,
      () => `${key}: payout ${payout.id} is ${payout.status}`,
    );
    const tx = mined[0];
    if (
      !check(
        tx !== undefined,
        invariant,
        `${key}:not-on-chain`,
        () => `${key}: payout ${payout.id} (${payout.tx_hash}) is not on chain`,
      )
    )
      return;
    if (!tx) return;
    check(
      tx.to === to,
      invariant,
      `${key}:wrong-recipient`,
      () => `${key}: payout ${payout.id} went to ${tx.to}, not ${to}`,
    );
    check(
      tx.value === payout.amount,
      invariant,
      `${key}:wrong-value`,
      () => `${key}: payout ${payout.id} sent ${bnb(tx.value)} on chain, the row says ${bnb(payout.amount)}`,
    );
  };

  return {
    input,
    snapshot,
    inbound,
    outbound,
    outboundByHash,
    payoutById,
    depositByStake,
    outsByStake,
    stakePayoutByStake,
    minedOf,
    checkPaidOnChain,
    check,
    lose,
    bnb,
    result: () => ({ violations, checks, lostWei }),
  };
}

export type InvariantContext = ReturnType<typeof createInvariantContext>;

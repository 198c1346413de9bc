import { formatEther } from 'viem';
import type { DbSnapshot } from './db-snapshot.ts';
import type { EscrowStakeOut, EscrowView } from './escrow-ledger.ts';
import type { OperatorTransfer } from './operator-ledger.ts';

// What every invariant check reads (the operator key's transfers and the escrow as the chain has
// them, the database snapshot, indexes over them) and how it reports: `check` counts a check and records a violation when it fails,
// `lose` adds to the BNB the run cannot account for.

export type Violation = { invariant: 1 | 2 | 3 | 4 | 5; key: string; message: string };

export type InvariantInput = {
  snapshot: DbSnapshot;
  /** Every transaction to or from the operator key. */
  transfers: OperatorTransfer[];
  operator: string;
  head: bigint;
  confirmations: number;
  initialBalance: bigint;
  finalBalance: bigint;
  /** The final head quiescence saw the scans reach (null: it never got quiet; a lag is allowed). */
  scanTarget: bigint | null;
  /** The escrow as the chain has it at `head`: stakes in, payouts and refunds out. */
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

  // The operator key's value in and out (it pays gas only: decision 028).
  const inbound = input.transfers.filter(
    (t) => t.to === input.operator && t.from !== input.operator && t.success && t.value > 0n,
  );
  const outbound = input.transfers.filter(
    (t) => t.from === input.operator && t.to !== input.operator && t.success && t.value > 0n,
  );
  // The escrow's side: deposits by stake, what left it per stake (a list: twice would be a violation).
  const depositByStake = new Map(input.escrow.deposits.map((d) => [d.stakeId, d]));
  const outsByStake = new Map<bigint, EscrowStakeOut[]>();
  for (const out of input.escrow.outs)
    outsByStake.set(out.stakeId, [...(outsByStake.get(out.stakeId) ?? []), out]);
  const stakePayoutByStake = new Map(snapshot.stakePayouts.map((p) => [p.stake_id, p]));

  return {
    input,
    snapshot,
    inbound,
    outbound,
    depositByStake,
    outsByStake,
    stakePayoutByStake,
    check,
    lose,
    bnb,
    result: () => ({ violations, checks, lostWei }),
  };
}

export type InvariantContext = ReturnType<typeof createInvariantContext>;

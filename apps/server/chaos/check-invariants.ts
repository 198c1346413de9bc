import { checkBetsOrRefunds } from './check-bets-or-refunds.ts';
import { checkClaimsPaid } from './check-claims-paid.ts';
import { checkEscrowDeposits } from './check-escrow-deposits.ts';
import { checkEscrowLedger } from './check-escrow-ledger.ts';
import { checkEscrowPaidOnce } from './check-escrow-paid-once.ts';
import { checkNothingStuck } from './check-nothing-stuck.ts';
import { checkOperatorBalance } from './check-operator-balance.ts';
import { checkPaidOnce } from './check-paid-once.ts';
import { createInvariantContext, type InvariantInput, type Violation } from './invariant-context.ts';

// The five promises of the money path (docs/chaos.md), checked against the chain after the jobs
// have quiesced: the escrow's, which holds every stake (decision 026), and the operator key's, which
// pays only gas (decision 028). Each violation carries a stable key, so one bug seen in every round is
// reported once, with the round it first appeared in.

export type { InvariantInput, Violation };

export type InvariantReport = {
  violations: Violation[];
  checks: number;
  /** BNB the run cannot account for: payments neither bet nor refunded, phantom bets, extra payouts. */
  lostWei: bigint;
  stats: {
    /** The operator key's transfers of value in and out (0 out expected: it pays gas only). */
    operatorIn: number;
    operatorOut: number;
    bets: number;
    oracleBets: number;
    /** Deposits into the escrow, and stakes it paid out or gave back. */
    escrowDeposits: number;
    escrowPaid: number;
    /** Why payments became refunds: a transient fault here (RECORD_FAILED…) turned a valid bet into one. */
    refundReasons: Record<string, number>;
  };
};

export function checkInvariants(input: InvariantInput): InvariantReport {
  const context = createInvariantContext(input);
  checkBetsOrRefunds(context);
  checkEscrowDeposits(context);
  checkClaimsPaid(context);
  checkOperatorBalance(context);
  checkEscrowLedger(context);
  checkPaidOnce(context);
  checkEscrowPaidOnce(context);
  checkNothingStuck(context);
  const { snapshot } = input;
  return {
    ...context.result(),
    stats: {
      operatorIn: context.inbound.length,
      operatorOut: context.outbound.length,
      bets: snapshot.bets.length,
      oracleBets: snapshot.oracleBets.length,
      escrowDeposits: input.escrow.deposits.length,
      escrowPaid: input.escrow.outs.length,
      refundReasons: countBy(
        snapshot.payments.filter((p) => p.status !== 'recorded'),
        (p) => p.refund_reason ?? '(none)',
      ),
    },
  };
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

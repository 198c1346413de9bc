import { formatEther } from 'viem';
import type { RoundOutcome } from './chaos-round.ts';
import type { Violation } from './check-invariants.ts';
import type { FaultLog } from './fault-scheduler.ts';
import type { Tally } from './traffic.ts';

// The run's result, printed and written as JSON (scripts/test.ts reads `passed` and `failed`).

export type SeenViolation = Violation & { firstRound: number; rounds: number };

export type ChaosResult = {
  status: 'passed' | 'failed' | 'skipped';
  note?: string;
  seed: number;
  /** The options to replay this run with, beside the seed. */
  replay: string;
  roundsPlanned: number;
  roundsRun: number;
  /** Rounds whose invariants all held / did not. */
  passed: number;
  failed: number;
  faults: Record<string, number>;
  invariantsChecked: number;
  violations: SeenViolation[];
  lostWei: string;
  lost: string;
  rounds: Array<{
    round: number;
    seconds: number;
    quiet: boolean;
    stalled: boolean;
    waitingFor: string[];
    checks: number;
    violations: number;
    stats: RoundOutcome['report']['stats'];
  }>;
  traffic: Record<string, Record<string, number>>;
  faultLog: FaultLog[];
  harnessErrors: string[];
  serverErrors: Array<{ message: string; count: number; sample: string }>;
  serverStarts: number;
  logFile: string;
  durationS: number;
};

export function collectViolations(outcomes: RoundOutcome[]): SeenViolation[] {
  const seen = new Map<string, SeenViolation>();
  for (const outcome of outcomes) {
    for (const violation of outcome.report.violations) {
      const known = seen.get(violation.key);
      if (known) known.rounds += 1;
      else seen.set(violation.key, { ...violation, firstRound: outcome.round, rounds: 1 });
    }
  }
  return [...seen.values()].sort((a, b) => a.invariant - b.invariant || a.firstRound - b.firstRound);
}

export function tallyToJson(tally: Tally): Record<string, Record<string, number>> {
  return Object.fromEntries([...tally.entries()].map(([label, row]) => [label, Object.fromEntries(row)]));
}

export function printResult(result: ChaosResult, print: (line: string) => void) {
  print('\n━━ chaos summary ━━');
  print(`seed:               ${result.seed} (replay: npm run test:chaos -- ${result.replay})`);
  print(
    `rounds run:         ${result.roundsRun} of ${result.roundsPlanned} (${result.passed} held, ${result.failed} with violations)`,
  );
  const faults = Object.entries(result.faults).map(([kind, n]) => `${kind} ×${n}`);
  print(
    `faults injected:    ${Object.values(result.faults).reduce((a, b) => a + b, 0)} — ${faults.join(', ')}`,
  );
  print(`invariants checked: ${result.invariantsChecked}`);
  const lastRound = result.rounds.at(-1);
  if (lastRound) {
    const s = lastRound.stats;
    print(
      `money moved:        ${s.escrowDeposits} escrow deposits, ${s.bets} market + ${s.oracleBets} oracle bets, ${s.escrowPaid} stakes paid or given back by the escrow; the operator key: ${s.operatorIn} transfers in, ${s.operatorOut} out (it pays gas only: 0 expected)`,
    );
    print(
      `refund reasons:     ${
        Object.entries(s.refundReasons)
          .map(([reason, n]) => `${reason} ×${n}`)
          .join(', ') || 'none'
      }`,
    );
  }
  print(`violations:         ${result.violations.length}`);
  const names = [
    '',
    'bet or refund',
    'claims paid',
    'operator/escrow balance',
    'paid twice',
    'nothing stuck',
  ];
  for (const v of result.violations.slice(0, 40)) {
    print(
      `  [I${v.invariant} ${names[v.invariant]}] round ${v.firstRound}${v.rounds > 1 ? ` (+${v.rounds - 1} more)` : ''}: ${v.message}`,
    );
  }
  if (result.violations.length > 40) print(`  … ${result.violations.length - 40} more in the JSON result`);
  if (result.serverErrors.length) {
    print('server error logs (by message):');
    for (const e of result.serverErrors.slice(0, 12)) print(`  ×${e.count} ${e.message}`);
  }
  if (result.harnessErrors.length) print(`harness errors: ${result.harnessErrors.join('; ')}`);
  print(`server log:         ${result.logFile}`);
  print(`lost: ${result.lostWei === '0' ? '0' : `${result.lost} (${result.lostWei} wei)`}`);
  print(`chaos: ${result.status.toUpperCase()} in ${result.durationS} s`);
}

export function lostText(lostWei: bigint): string {
  return `${formatEther(lostWei)} BNB`;
}

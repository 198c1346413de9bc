import { type ApiClient, describeAnswer } from './api-client.ts';
import type { ChainTools } from './chain-tools.ts';
import { checkInvariants, type InvariantReport } from './check-invariants.ts';
import type { DbReader } from './db-snapshot.ts';
import type { EscrowLedger } from './escrow-ledger.ts';
import type { FaultScheduler } from './fault-scheduler.ts';
import type { OperatorLedger } from './operator-ledger.ts';
import type { Random } from './prng.ts';
import { type QuiesceResult, quiesce } from './quiesce.ts';
import { sleep } from './server-process.ts';
import type { Tally, Traffic } from './traffic.ts';

// One round: players pay and post while faults fly; time moves so rounds and markets settle;
// winners claim (still under fire); then the faults stop, the jobs quiesce, and the invariants are
// checked against the chain.

export type RoundDeps = {
  chain: ChainTools;
  api: ApiClient;
  db: DbReader;
  ledger: OperatorLedger;
  escrowLedger: EscrowLedger;
  traffic: Traffic;
  faults: FaultScheduler;
  random: Random;
  tally: Tally;
  operator: `0x${string}`;
  confirmations: number;
  initialBalance: bigint;
  quiesceTimeoutMs: number;
  log: (line: string) => void;
};

export type RoundOutcome = {
  round: number;
  quiesce: QuiesceResult;
  report: InvariantReport;
  seconds: number;
};

export async function runChaosRound(deps: RoundDeps, round: number): Promise<RoundOutcome> {
  const started = Date.now();
  deps.faults.start(round);
  try {
    deps.log('  traffic');
    await deps.traffic.run(round, { everySpecial: round === 1 });
    deps.log('  oracle rounds to their close');
    await stepThroughBetRounds(deps);
    deps.log('  markets past their deadline');
    await deps.chain.advanceTime(3601);
    await waitForMarkets(deps, 45_000);
    deps.log('  claims');
    await claimUnderFire(deps);
  } finally {
    await deps.faults.stop();
  }
  deps.log('  quiescing');
  const quiet = await quiesce({ ...deps, timeoutMs: deps.quiesceTimeoutMs });
  deps.log(
    `  ${quiet.quiet ? 'quiet' : quiet.stalled ? 'STALLED (no progress for 20 s)' : 'NOT quiet'} after ${Math.round(quiet.waitedMs / 1000)} s${quiet.waitingFor.length ? `: ${quiet.waitingFor.join(', ')}` : ''}`,
  );
  await deps.ledger.sync();
  const snapshot = await deps.db.snapshot();
  const head = await deps.ledger.sync();
  const report = checkInvariants({
    snapshot,
    transfers: deps.ledger.transfers(),
    operator: deps.operator,
    head,
    confirmations: deps.confirmations,
    initialBalance: deps.initialBalance,
    finalBalance: await deps.ledger.balanceAt(head),
    escrow: await deps.escrowLedger.view(head),
    scanTarget: quiet.scanTarget,
    chainNowS: await deps.chain.chainNowS(),
  });
  return { round, quiesce: quiet, report, seconds: Math.round((Date.now() - started) / 1000) };
}

/** Small steps of chain time (the price sampler needs a sample near each lock and close). */
async function stepThroughBetRounds(deps: RoundDeps) {
  for (let step = 0; step < 30; step++) {
    const snapshot = await deps.db.snapshot();
    const betEpochs = new Set(snapshot.oracleBets.map((bet) => bet.epoch));
    const open = snapshot.rounds.filter((r) => betEpochs.has(r.epoch) && r.status !== 'ended');
    if (open.length === 0 && step > 2) return;
    await deps.chain.advanceTime(deps.random.int(3, 5));
    await sleep(1000);
  }
}

async function waitForMarkets(deps: RoundDeps, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const nowS = await deps.chain.chainNowS();
    const snapshot = await deps.db.snapshot();
    if (!snapshot.markets.some((m) => m.status !== 'settled' && m.deadline.getTime() / 1000 < nowS)) return;
    await sleep(1000);
  }
}

/** Every player claims, some twice at once, some scoped, while the faults go on. */
async function claimUnderFire(deps: RoundDeps) {
  for (let pass = 0; pass < 3; pass++) {
    await Promise.all(
      deps.chain.players.map(async (player) => {
        const scope = deps.random.pick(['all', 'all', 'markets', 'oracle'] as const);
        const body = { userAddress: player.address, scope };
        const times = deps.random.chance(0.3) ? 2 : 1;
        const answers = await Promise.all(
          Array.from({ length: times }, () => deps.api.post('/api/claims', body, '10.0.2.1')),
        );
        for (const answer of answers) {
          const row = deps.tally.get('claim') ?? new Map<string, number>();
          const key = answer.status === 200 ? claimOutcome(answer.body) : describeAnswer(answer);
          row.set(key, (row.get(key) ?? 0) + 1);
          deps.tally.set('claim', row);
        }
      }),
    );
    await sleep(deps.random.int(500, 2000));
  }
}

function claimOutcome(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '200';
  const success = 'success' in body ? body.success : undefined;
  const status = 'payoutStatus' in body ? body.payoutStatus : undefined;
  return `200 ${success === true ? 'paid' : 'nothing'}${typeof status === 'string' ? ` (${status})` : ''}`;
}

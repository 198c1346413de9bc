import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';

// docs/operations.md "The guardian's watcher": what the watcher tells Prometheus. It is a process of
// its own, apart from the server, so it has a registry of its own (the server's metrics read its
// database and jobs, which the watcher has none of); the names follow the server's conventions.

/** What a check of a settlement found: the rules' list, or another. */
export type GuardianCheckResult = 'agrees' | 'differs';

export function createGuardianMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const checked = new Counter({
    name: 'bnbpredict_guardian_settlements_checked_total',
    help: "Judged settlements the guardian's watcher recomputed, by result (agrees, differs).",
    labelNames: ['result'] as const,
    registers,
  });
  const vetoes = new Counter({
    name: 'bnbpredict_guardian_vetoes_total',
    help: "Vetoes the guardian's watcher sent and saw mined: each a settlement it could not recompute.",
    registers,
  });
  const missed = new Counter({
    name: 'bnbpredict_guardian_settlements_missed_total',
    help: 'Settlements posted after the watcher started whose payouts opened before it could check or veto them.',
    registers,
  });
  const failures = new Counter({
    name: 'bnbpredict_guardian_check_failures_total',
    help: 'Reads or vetoes that failed (an RPC fault) and are tried again on the next pass.',
    registers,
  });
  const lastPass = new Gauge({
    name: 'bnbpredict_guardian_last_pass_timestamp_seconds',
    help: 'Unix time of the last pass that read every final block and decided every settlement it found.',
    registers,
  });
  const block = new Gauge({
    name: 'bnbpredict_guardian_scanned_block',
    help: 'The last final block the watcher has read the settlements of.',
    registers,
  });
  const waiting = new Gauge({
    name: 'bnbpredict_guardian_settlements_waiting',
    help: 'Settlements found and not decided yet (their check failed and is tried again).',
    registers,
  });
  return {
    contentType: registry.contentType,
    scrape: () => registry.metrics(),
    countChecked: (result: GuardianCheckResult) => checked.inc({ result }),
    countVeto: () => vetoes.inc(),
    countMissed: () => missed.inc(),
    countFailure: () => failures.inc(),
    passCompleted: (atMs: number) => lastPass.set(atMs / 1000),
    scannedBlock: (height: bigint) => block.set(Number(height)),
    waiting: (count: number) => waiting.set(count),
  };
}

export type GuardianMetrics = ReturnType<typeof createGuardianMetrics>;

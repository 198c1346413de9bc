import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BetsResult } from './bench-bets.ts';
import type { FanOut, RealtimeResult } from './bench-realtime.ts';

// The figures of `npm run bench`, printed as a table and written between two markers in
// docs/benchmarks.md ("Server benchmarks"), each beside its target (the targets table there) and a verdict.

type Run = { rps: number; p50: number; p99: number; non2xx: number; errors: number };

/**
 * Which target a hot read is held to, at 100 connections:
 * - wallet (decisions 022 and 032): a wallet's own reads, kept per wallet until its events drop them:
 *   ≥ 80% of the SQL ceiling and p99 ≤ 2 × the SQL ceiling's p99;
 * - page (decision 016): a list's first page: ≤ 40 kB, p99 < 50 ms;
 * - public (decision 017): ≥ 50% of the HTTP ceiling, p99 < 50 ms.
 */
export type HotTarget = 'wallet' | 'page' | 'public';

export const TARGETS = {
  walletShareOfSql: 0.8,
  /** The API's p99 at most this many times the SQL ceiling's. */
  walletP99OfSql: 2,
  pageBytes: 40_000,
  pageP99Ms: 50,
  publicShareOfHttp: 0.5,
  publicP99Ms: 50,
  realtimeP99Ms: 100,
  /** The server's realtime p99 at most this many times a bare ws server's, in the same run. */
  realtimeP99OfBare: 1.1,
  betsPerSecond: 100,
  settlementS: 3,
  rssPostgresMb: 200,
  rssPgliteMb: 400,
} as const;

type HotRow = BenchReport['hot'][number];

/** The target of a row at 100 connections, in words, and whether the row meets it. */
export function hotVerdict(row: HotRow): { target: string; met: boolean } | null {
  if (row.connections !== 100) return null;
  const clean = row.api.non2xx === 0 && row.api.errors === 0;
  switch (row.target) {
    case 'wallet':
      return {
        target: `≥ ${TARGETS.walletShareOfSql * 100}% of SQL, p99 ≤ ${TARGETS.walletP99OfSql} × SQL's (${TARGETS.walletP99OfSql * row.sqlCeiling.p99} ms)`,
        met:
          clean &&
          row.api.rps >= TARGETS.walletShareOfSql * row.sqlCeiling.rps &&
          row.api.p99 <= TARGETS.walletP99OfSql * row.sqlCeiling.p99,
      };
    case 'page':
      return {
        target: `≤ ${TARGETS.pageBytes / 1000} kB, p99 < ${TARGETS.pageP99Ms} ms`,
        met: clean && row.bytes <= TARGETS.pageBytes && row.api.p99 < TARGETS.pageP99Ms,
      };
    case 'public':
      return {
        target: `≥ 50% of HTTP, p99 < ${TARGETS.publicP99Ms} ms`,
        met:
          clean &&
          row.api.rps >= TARGETS.publicShareOfHttp * row.httpCeiling.rps &&
          row.api.p99 < TARGETS.publicP99Ms,
      };
  }
}

export type BenchReport = {
  scale: number;
  sizes: Record<string, number>;
  durationS: number;
  seedS?: number;
  hot: Array<{
    name: string;
    target: HotTarget;
    connections: number;
    bytes: number;
    api: Run;
    httpCeiling: Run;
    sqlCeiling: Run;
  }>;
  rssPostgresMb?: number;
  rssPgliteMb?: number;
  realtime?: RealtimeResult;
  bets?: BetsResult;
  settlement?: { bets: number; seconds: number };
  /** The load average (1 min) when the run began: a busy machine lowers every figure. */
  loadAtStart?: number;
  /** The load average (1 / 5 / 15 min) at the end of each section, by section. */
  loads: Record<string, string>;
  notes: string[];
};

const pct = (a: number, b: number) => (b > 0 ? `${Math.round((100 * a) / b)}%` : '–');
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

export function renderMarkdown(report: BenchReport): string {
  const lines: string[] = [];
  lines.push(
    `Scale ${report.scale} (${Object.entries(report.sizes)
      .map(([key, value]) => `${value.toLocaleString('en')} ${key}`)
      .join(', ')}); ${report.durationS} s per load run; seeded in ${report.seedS?.toFixed(1) ?? '?'} s; ` +
      `load average ${report.loadAtStart?.toFixed(1) ?? '?'} (1 min) when the run began.`,
    '',
    '| endpoint | conns | bytes | API req/s | p50 ms | p99 ms | HTTP ceiling req/s | SQL ceiling req/s | API / HTTP | API / SQL | target at c=100 | |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  );
  for (const row of report.hot) {
    const judged = hotVerdict(row);
    const failures =
      row.api.non2xx || row.api.errors ? ` (${row.api.non2xx} non-2xx, ${row.api.errors} errors)` : '';
    lines.push(
      `| ${row.name} | ${row.connections} | ${row.bytes} | ${row.api.rps.toFixed(0)} | ${row.api.p50} | ${row.api.p99} | ` +
        `${row.httpCeiling.rps.toFixed(0)} | ${row.sqlCeiling.rps.toFixed(0)} | ${pct(row.api.rps, row.httpCeiling.rps)} | ` +
        `${pct(row.api.rps, row.sqlCeiling.rps)} | ${judged?.target ?? ''} | ${judged ? verdict(judged.met) : ''}${failures} |`,
    );
  }
  lines.push('', '| measure | figure | target | |', '|---|---|---|---|');
  if (report.realtime) {
    const r = report.realtime;
    const figure = (f: FanOut) =>
      `p50 ${f.p50.toFixed(0)} ms, p99 ${f.p99.toFixed(0)} ms, max ${f.max.toFixed(0)} ms; ${f.delivered.toLocaleString('en')}/${(f.clients * f.events).toLocaleString('en')} delivered${f.duplicates ? `, ${f.duplicates} twice` : ''}` +
      (f.serverCpuMsPerEvent
        ? `; server CPU per event ${f.serverCpuMsPerEvent.user.toFixed(0)} ms user + ${f.serverCpuMsPerEvent.system.toFixed(0)} ms system`
        : '');
    lines.push(
      `| realtime delivery to ${r.clients.toLocaleString('en')} WebSocket clients (${r.events} events) | ${figure(r)} | p99 < ${TARGETS.realtimeP99Ms} ms, nothing lost | ${verdict(r.p99 < TARGETS.realtimeP99Ms && r.delivered === r.clients * r.events && r.duplicates === 0)} |`,
    );
    if (r.ceiling) {
      lines.push(
        `| realtime ceiling: a bare ws server, the same clients and events | ${figure(r.ceiling)}; the server's p99 is ${(r.p99 / r.ceiling.p99).toFixed(2)} × this | the server's p99 ≤ ${TARGETS.realtimeP99OfBare} × this | ${verdict(realtimeWithinBare(r))} |`,
      );
    }
  }
  if (report.bets) {
    const b = report.bets;
    lines.push(
      `| bets recorded end to end (deposits into the escrow, local chain, ${b.wallets} wallets) | ${b.perSecond.toFixed(1)} bets/s (${b.bets} in ${b.seconds.toFixed(1)} s); chain alone ${b.chainOnlyPerSecond.toFixed(0)} tx/s, server alone ${b.serverOnlyPerSecond.toFixed(0)} bets/s; POST p50 ${b.postMs.p50.toFixed(0)} ms, p99 ${b.postMs.p99.toFixed(0)} ms; CPU per bet: server ${b.cpuMsPerBet.server?.toFixed(1) ?? '?'} ms, Hardhat ${b.cpuMsPerBet.chain?.toFixed(1) ?? '?'} ms, PostgreSQL ${b.cpuMsPerBet.database?.toFixed(1) ?? '?'} ms | ≥ ${TARGETS.betsPerSecond}/s | ${verdict(b.perSecond >= TARGETS.betsPerSecond)} |`,
    );
  }
  if (report.settlement) {
    const s = report.settlement;
    lines.push(
      `| settlement of one market with ${s.bets.toLocaleString('en')} bets, queued on the escrow | ${s.seconds.toFixed(2)} s | < ${TARGETS.settlementS} s | ${verdict(s.seconds < TARGETS.settlementS)} |`,
    );
  }
  if (report.rssPostgresMb !== undefined) {
    lines.push(
      `| peak RSS of the instance under the read load (PostgreSQL) | ${report.rssPostgresMb.toFixed(0)} MB | < ${TARGETS.rssPostgresMb} MB | ${verdict(report.rssPostgresMb < TARGETS.rssPostgresMb)} |`,
    );
  }
  if (report.realtime) {
    lines.push(
      `| peak RSS with ${report.realtime.clients.toLocaleString('en')} WebSocket clients (PostgreSQL) | ${report.realtime.rssMb.toFixed(0)} MB | – | |`,
    );
  }
  if (report.rssPgliteMb !== undefined) {
    lines.push(
      `| peak RSS of the instance under the read load (PGlite, demo data) | ${report.rssPgliteMb.toFixed(0)} MB | < ${TARGETS.rssPgliteMb} MB | ${verdict(report.rssPgliteMb < TARGETS.rssPgliteMb)} |`,
    );
  }
  const loads = Object.entries(report.loads);
  if (loads.length > 0) {
    lines.push(
      '',
      `Load average at the end of each section (1 / 5 / 15 min): ${loads.map(([section, load]) => `${section} ${load}`).join('; ')}.`,
    );
  }
  for (const note of report.notes) lines.push('', note);
  const missed = countMissed(report);
  lines.push('', missed === 0 ? 'Every target met.' : `${missed} target(s) MISSED.`);
  return lines.join('\n');
}

/** Whether the server's fan-out is as fast as a bare ws server's in the same run (none measured: not judged). */
function realtimeWithinBare(r: RealtimeResult): boolean {
  return !r.ceiling || r.p99 <= TARGETS.realtimeP99OfBare * r.ceiling.p99;
}

/** How many rows miss their target. */
export function countMissed(report: BenchReport): number {
  let missed = report.hot.filter((row) => hotVerdict(row)?.met === false).length;
  const r = report.realtime;
  if (r && !(r.p99 < TARGETS.realtimeP99Ms && r.delivered === r.clients * r.events && r.duplicates === 0))
    missed += 1;
  if (r && !realtimeWithinBare(r)) missed += 1;
  if (report.bets && report.bets.perSecond < TARGETS.betsPerSecond) missed += 1;
  if (report.settlement && report.settlement.seconds >= TARGETS.settlementS) missed += 1;
  if (report.rssPostgresMb !== undefined && report.rssPostgresMb >= TARGETS.rssPostgresMb) missed += 1;
  if (report.rssPgliteMb !== undefined && report.rssPgliteMb >= TARGETS.rssPgliteMb) missed += 1;
  return missed;
}

export function printReport(report: BenchReport, log: (line: string) => void): void {
  log('');
  log(renderMarkdown(report));
  log('');
}

const DOCS = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/**
 * Replaces what stands between `<!-- bench:<name>:start -->` and its end marker in docs/benchmarks.md
 * with a stamp and `body` (the file is left alone when the markers are absent).
 */
export function writeBetweenMarkers(name: string, body: string): void {
  const startMarker = `<!-- bench:${name}:start -->`;
  const text = readFileSync(DOCS, 'utf8');
  const start = text.indexOf(startMarker);
  const end = text.indexOf(`<!-- bench:${name}:end -->`);
  if (start < 0 || end < start) return;
  const stamp = `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
  writeFileSync(
    DOCS,
    `${text.slice(0, start + startMarker.length)}\n${stamp}\n\n${body}\n${text.slice(end)}`,
  );
}

/** Replaces the server figures between their markers in docs/benchmarks.md. */
export function writeReportToDocs(report: BenchReport): void {
  writeBetweenMarkers('server', renderMarkdown(report));
}

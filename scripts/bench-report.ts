import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BetsResult } from './bench-bets.ts';
import type { FanOut, RealtimeResult } from './bench-realtime.ts';

// The figures of `npm run bench`, printed as a table and written between two markers in
// docs/benchmarks.md ("Server benchmarks"), with the targets of issue 12 beside them.

type Run = { rps: number; p50: number; p99: number; non2xx: number; errors: number };

export type BenchReport = {
  scale: number;
  sizes: Record<string, number>;
  durationS: number;
  seedS?: number;
  hot: Array<{
    name: string;
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
  notes: string[];
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

const pct = (a: number, b: number) => (b > 0 ? `${Math.round((100 * a) / b)}%` : '–');
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

export function renderMarkdown(report: BenchReport): string {
  const lines: string[] = [];
  lines.push(
    `Scale ${report.scale} (${Object.entries(report.sizes)
      .map(([key, value]) => `${value.toLocaleString('en')} ${key}`)
      .join(', ')}); ${report.durationS} s per load run; seeded in ${report.seedS?.toFixed(1) ?? '?'} s.`,
    '',
    '| endpoint | conns | bytes | API req/s | p50 ms | p99 ms | HTTP ceiling req/s | SQL ceiling req/s | API / HTTP | API / SQL | target (c=100: ≥ 50% of HTTP, p99 < 50 ms) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const row of report.hot) {
    const target =
      row.connections === 100
        ? verdict(row.api.rps >= 0.5 * row.httpCeiling.rps && row.api.p99 < 50 && row.api.non2xx === 0)
        : '';
    lines.push(
      `| ${row.name} | ${row.connections} | ${row.bytes} | ${row.api.rps.toFixed(0)} | ${row.api.p50} | ${row.api.p99} | ` +
        `${row.httpCeiling.rps.toFixed(0)} | ${row.sqlCeiling.rps.toFixed(0)} | ${pct(row.api.rps, row.httpCeiling.rps)} | ` +
        `${pct(row.api.rps, row.sqlCeiling.rps)} | ${target}${row.api.non2xx ? ` (${row.api.non2xx} non-2xx)` : ''} |`,
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
      `| realtime delivery to ${r.clients.toLocaleString('en')} WebSocket clients (${r.events} events) | ${figure(r)} | p99 < 100 ms, nothing lost | ${verdict(r.p99 < 100 && r.delivered === r.clients * r.events && r.duplicates === 0)} |`,
    );
    if (r.ceiling) {
      lines.push(
        `| realtime ceiling: a bare ws server, the same clients and events | ${figure(r.ceiling)} | – | |`,
      );
    }
  }
  if (report.bets) {
    const b = report.bets;
    lines.push(
      `| bets recorded end to end (real payments, local chain, ${b.wallets} wallets) | ${b.perSecond.toFixed(1)} bets/s (${b.bets} in ${b.seconds.toFixed(1)} s); chain alone ${b.chainOnlyPerSecond.toFixed(0)} tx/s, server alone ${b.serverOnlyPerSecond.toFixed(0)} bets/s; POST p50 ${b.postMs.p50.toFixed(0)} ms, p99 ${b.postMs.p99.toFixed(0)} ms; CPU per bet: server ${b.cpuMsPerBet.server?.toFixed(1) ?? '?'} ms, Hardhat ${b.cpuMsPerBet.chain?.toFixed(1) ?? '?'} ms | ≥ 100/s | ${verdict(b.perSecond >= 100)} |`,
    );
  }
  if (report.settlement) {
    const s = report.settlement;
    lines.push(
      `| settlement of one market with ${s.bets.toLocaleString('en')} bets | ${s.seconds.toFixed(2)} s | < 3 s | ${verdict(s.seconds < 3)} |`,
    );
  }
  if (report.rssPostgresMb !== undefined) {
    lines.push(
      `| peak RSS of the instance under the read load (PostgreSQL) | ${report.rssPostgresMb.toFixed(0)} MB | < 300 MB | ${verdict(report.rssPostgresMb < 300)} |`,
    );
  }
  if (report.realtime) {
    lines.push(
      `| peak RSS with ${report.realtime.clients.toLocaleString('en')} WebSocket clients (PostgreSQL) | ${report.realtime.rssMb.toFixed(0)} MB | – | |`,
    );
  }
  if (report.rssPgliteMb !== undefined) {
    lines.push(
      `| peak RSS of the instance under the read load (PGlite, demo data) | ${report.rssPgliteMb.toFixed(0)} MB | – | |`,
    );
  }
  for (const note of report.notes) lines.push('', note);
  return lines.join('\n');
}

export function printReport(report: BenchReport, log: (line: string) => void): void {
  log('');
  log(renderMarkdown(report));
  log('');
}

const DOCS = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const START = '<!-- bench:server:start -->';
const END = '<!-- bench:server:end -->';

/** Replaces the figures between the markers in docs/benchmarks.md (left alone when absent). */
export function writeReportToDocs(report: BenchReport): void {
  const text = readFileSync(DOCS, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return;
  const stamp = `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
  writeFileSync(
    DOCS,
    `${text.slice(0, start + START.length)}\n${stamp}\n\n${renderMarkdown(report)}\n${text.slice(end)}`,
  );
}

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { z } from 'zod';
import { findFreePort } from '../apps/server/src/dev/local-chain.ts';
import { buildPeer } from '../apps/web/bench/build-peer.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { measurePage, type PageRun, type PageTarget, QUIET_CAP_MS } from './measure-page.ts';
import { buildWeb, startStack } from './stack.ts';

// `npm run bench:web`: what each route of the built app costs a cold visitor, next to a bare
// wagmi + viem + React page built in the same run (the peer). Method and results:
// docs/benchmarks.md. Options: --runs N (default 5), --check (exit 1 when over budget),
// --markdown (the table as Markdown too), --json <file> (every run).

const WEB_DIST = fileURLToPath(new URL('../apps/web/dist', import.meta.url));
const LCP_BUDGET_MS = 1_000;
const ROUTE_JS_FACTOR = 1.5;
const WATCHDOG_MS = 20 * 60_000;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    check: { type: 'boolean', default: false },
    markdown: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const runs = z.coerce.number().int().min(1).max(50).parse(args.runs);

/** `landing` may load as much JS as the peer, `route` ROUTE_JS_FACTOR times that. */
type Target = PageTarget & { route: string; budget: 'peer' | 'landing' | 'route' };

// Whatever was started is stopped once, in reverse, on success, error, Ctrl-C or the watchdog.
const cleanups: Array<() => unknown> = [];
let cleaning: Promise<void> | undefined;
const cleanUp = () => {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // Already gone (Ctrl-C reaches the children too): carry on with the rest.
      }
    }
  })();
  return cleaning;
};
const exitAfterCleanUp = (code: number) => void cleanUp().finally(() => process.exit(code));
// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and
// with no listener left tsx's own handler would exit before the clean-up is done.
process.on('SIGINT', () => exitAfterCleanUp(130));
process.on('SIGTERM', () => exitAfterCleanUp(143));
setTimeout(() => {
  console.error(`bench:web: gave up after ${WATCHDOG_MS / 60_000} minutes`);
  exitAfterCleanUp(1);
}, WATCHDOG_MS).unref();

/** Builds, serves and measures everything; returns the exit code. */
async function benchWeb(): Promise<number> {
  console.log('bench:web: building the app and the peer page…');
  buildWeb();
  const peerDist = mkdtempSync(join(tmpdir(), 'bench-web-peer-'));
  cleanups.push(() => rmSync(peerDist, { recursive: true, force: true }));
  await buildPeer(peerDist);

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-data-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const stack = await startStack({
    port: await findFreePort(),
    rpcPort: await findFreePort(),
    dataDir,
    build: false,
    env: { DATABASE_URL: '', DEMO_DATA: 'true', LOG_LEVEL: 'warn', METRICS_PORT: '0' },
    log: (line) => process.stderr.write(`[server] ${line}\n`),
  });
  cleanups.push(() => stack.stop());
  const peerUrl = await serveStatic(peerDist);

  const marketId = await firstMarketId(stack.baseUrl);
  const app = (path: string, budget: Target['budget'] = 'route'): Target => ({
    route: path,
    url: `${stack.baseUrl}${path}`,
    distDir: WEB_DIST,
    budget,
  });
  const targets: Target[] = [
    { route: 'peer: wagmi page', url: `${peerUrl}/`, distDir: peerDist, budget: 'peer' },
    app('/', 'landing'),
    app('/predictions'),
    app('/oracle-predictions'),
    app(`/market/${marketId}`),
    app('/my-bets'),
    app('/leaderboard'),
    app('/no-such-page'),
  ];

  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Playwright's own handlers would exit the process before the stack is stopped: ours close it.
    handleSIGINT: false,
    handleSIGTERM: false,
    args: [
      ...CHROMIUM_ARGS,
      // Loopback only: every other host name fails to resolve.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  cleanups.push(() => browser.close());

  // One uncounted pass first, so that the server's first-request costs (JIT, PGlite caches) do
  // not land in the first run. Then the routes in turn, so drift spreads over all of them.
  console.log(`bench:web: a warm-up pass, then ${runs} cold-cache runs of ${targets.length} pages…`);
  for (const target of targets) await measurePage(browser, target);
  const results = new Map<Target, PageRun[]>(targets.map((target) => [target, []]));
  for (let run = 0; run < runs; run++) {
    for (const target of targets) results.get(target)?.push(await measurePage(browser, target));
  }
  return report(targets, results);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Serves a built page on loopback; resolves its origin. */
async function serveStatic(distDir: string): Promise<string> {
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = resolve(distDir, `.${pathname === '/' ? '/index.html' : decodeURIComponent(pathname)}`);
    if (!file.startsWith(distDir + sep) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(readFileSync(file));
  });
  const port = await findFreePort();
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  cleanups.push(() => new Promise((closed) => server.close(closed)));
  return `http://127.0.0.1:${port}`;
}

/** The demo data seeds markets at start; they may land a moment after the server is healthy. */
async function firstMarketId(baseUrl: string): Promise<number> {
  const MarketsSchema = z.object({ markets: z.array(z.object({ id: z.number().int() })) });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/api/markets`);
    if (response.ok) {
      const id = MarketsSchema.parse(await response.json()).markets[0]?.id;
      if (id !== undefined) return id;
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error('GET /api/markets listed no market: did DEMO_DATA seed any?');
}

function median(values: Array<number | null>): number | null {
  const sorted = values.filter((value) => value !== null).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2) return sorted[middle] ?? null;
  const [low, high] = [sorted[middle - 1], sorted[middle]];
  return low === undefined || high === undefined ? null : (low + high) / 2;
}
const kB = (bytes: number | null) => (bytes === null ? '—' : (bytes / 1000).toFixed(1));
const ms = (value: number | null) => (value === null ? '—' : String(Math.round(value)));

type Summary = ReturnType<typeof summarize>;
function summarize(target: Target, pageRuns: PageRun[], peerJs: number | null) {
  const pick = (key: 'jsBytes' | 'deferredJsBytes' | 'jsFiles' | 'cssBytes' | 'fcp' | 'lcp' | 'tbt') =>
    median(pageRuns.map((run) => run[key]));
  const [js, lcp] = [pick('jsBytes'), pick('lcp')];
  const isPeer = target.budget === 'peer';
  const budget =
    isPeer || peerJs === null ? null : peerJs * (target.budget === 'landing' ? 1 : ROUTE_JS_FACTOR);
  const overs: Array<[name: string, detail: string]> = [];
  if (budget !== null && (js === null || js > budget))
    overs.push(['JS', `JS ${kB(js)} kB > ${kB(budget)} kB`]);
  if (!isPeer && (lcp === null || lcp >= LCP_BUDGET_MS)) {
    overs.push(['LCP', `LCP ${ms(lcp)} ms ≥ ${LCP_BUDGET_MS} ms`]);
  }
  const notes: string[] = [];
  const jsSizes = pageRuns.map((run) => run.jsBytes);
  if (new Set(pageRuns.map((run) => run.files.join(' '))).size > 1) {
    notes.push(
      `loaded different files across runs: JS ${kB(Math.min(...jsSizes))}–${kB(Math.max(...jsSizes))} kB`,
    );
  }
  const capped = pageRuns.filter((run) => run.capped).length;
  if (capped)
    notes.push(`never went network-quiet: cut ${QUIET_CAP_MS} ms after load in ${capped}/${runs} runs`);
  const verdict = isPeer ? 'peer' : overs.length ? `over: ${overs.map(([name]) => name).join(' + ')}` : 'ok';
  return {
    route: target.route,
    url: target.url,
    js,
    deferredJs: pick('deferredJsBytes'),
    jsFiles: pick('jsFiles'),
    css: pick('cssBytes'),
    fcp: pick('fcp'),
    lcp,
    tbt: pick('tbt'),
    budget,
    verdict,
    problems: overs.map(([, detail]) => detail),
    notes,
    runs: pageRuns,
  };
}

const COLUMNS: Array<[title: string, cell: (summary: Summary) => string]> = [
  ['route', (s) => s.route],
  ['JS gzip kB', (s) => kB(s.js)],
  ['JS files', (s) => ms(s.jsFiles)],
  ['deferred JS kB', (s) => (s.deferredJs ? kB(s.deferredJs) : '—')],
  ['CSS gzip kB', (s) => kB(s.css)],
  ['FCP ms', (s) => ms(s.fcp)],
  ['LCP ms', (s) => ms(s.lcp)],
  ['TBT ms', (s) => ms(s.tbt)],
  ['budget (kB)', (s) => kB(s.budget)],
  ['verdict', (s) => s.verdict],
];
const leftAligned = (column: number) => column === 0 || column === COLUMNS.length - 1;

/** Prints the table and the verdict; returns the exit code. */
function report(targets: Target[], results: Map<Target, PageRun[]>): number {
  const peer = targets.find((target) => target.budget === 'peer');
  const peerJs = median(peer ? (results.get(peer) ?? []).map((run) => run.jsBytes) : []);
  const summaries = targets.map((target) => summarize(target, results.get(target) ?? [], peerJs));
  const header = COLUMNS.map(([title]) => title);
  const rows = summaries.map((summary) => COLUMNS.map(([, cell]) => cell(summary)));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const pad = (cells: string[]) =>
    cells
      .map((cell, column) => cell[leftAligned(column) ? 'padEnd' : 'padStart'](widths[column] ?? 0))
      .join('  ');

  const date = new Date().toISOString();
  console.log(
    `\nbench:web ${date}: median of ${runs} cold-cache runs at 1280×800; kB = 1000 bytes of gzip\n`,
  );
  for (const row of [header, ...rows]) console.log(pad(row));
  for (const summary of summaries)
    for (const note of summary.notes) console.log(`note: ${summary.route} ${note}`);
  if (args.markdown) {
    const separator = header.map((_, column) => (leftAligned(column) ? '---' : '---:'));
    console.log('');
    for (const row of [header, separator, ...rows]) console.log(`| ${row.join(' | ')} |`);
  }
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify({ date, runs, viewport: '1280x800', summaries }, null, 2)}\n`);
  }
  const over = summaries.filter((summary) => summary.problems.length);
  console.log(
    over.length
      ? `\nbench:web: over budget: ${over.map((s) => `${s.route} (${s.problems.join(', ')})`).join('; ')}`
      : '\nbench:web: all within budget',
  );
  return args.check && over.length ? 1 : 0;
}

// Last, so that every constant above is initialised when it runs.
benchWeb().then(
  async (exitCode) => {
    await cleanUp();
    process.exit(exitCode);
  },
  (error: unknown) => {
    // Once interrupted, the browser and the stack closing under the run is no news.
    if (!cleaning) console.error('bench:web failed:', error);
    exitAfterCleanUp(1);
  },
);

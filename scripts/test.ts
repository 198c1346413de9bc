import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { CHROMIUM_PATH } from './chromium.ts';

// `npm test`: every suite, in order, with one summary. A suite that cannot run here says so
// loudly; under CI=true that is a failure, not a skip.

const CI = process.env.CI === 'true' || process.env.CI === '1';
const reports = mkdtempSync(join(tmpdir(), 'pm-test-'));

type Outcome = {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  passed: number;
  failed: number;
  note?: string;
  /** Extra counts for the summary line (the fuzz suite's cases by status). */
  detail?: string;
};
const outcomes: Outcome[] = [];
/** Each suite's wall time: the summary prints it, so a run that grows shows where. */
const durations = new Map<string, number>();
const startedAt = Date.now();
const minutes = (ms: number) =>
  `${Math.floor(ms / 60_000)}:${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}`;

function run(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): boolean {
  console.log(`\n━━ ${name} ━━ ${command} ${args.join(' ')}`);
  const startedAt = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env }, cwd });
  durations.set(name, Date.now() - startedAt);
  return result.status === 0;
}

const VitestReportSchema = z.object({ numPassedTests: z.number(), numFailedTests: z.number() });
function vitest(name: string, projects: string[], env: Record<string, string> = {}): Outcome {
  const output = join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const ok = run(
    name,
    'npx',
    [
      'vitest',
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${output}`,
    ],
    env,
  );
  const report = existsSync(output)
    ? VitestReportSchema.safeParse(JSON.parse(readFileSync(output, 'utf8')))
    : undefined;
  const passed = report?.success ? report.data.numPassedTests : 0;
  const failed = report?.success ? report.data.numFailedTests : 0;
  const outcome: Outcome = {
    name,
    status: ok ? 'passed' : 'failed',
    passed,
    failed: ok ? failed : Math.max(failed, 1),
  };
  outcomes.push(outcome);
  return outcome;
}

// The fuzz suite writes its totals (apps/server/test/fuzz/global-setup.ts); they go in the summary.
const FuzzSummarySchema = z.object({
  cases: z.number(),
  status2xx: z.number(),
  status4xx: z.number(),
  status5xx: z.number(),
  wsCases: z.number(),
  violations: z.number(),
});
function fuzz() {
  const summaryFile = join(reports, 'fuzz-summary.json');
  const outcome = vitest('fuzz', ['fuzz'], { TEST_DB: 'pglite', FUZZ_SUMMARY_FILE: summaryFile });
  const summary = existsSync(summaryFile)
    ? FuzzSummarySchema.safeParse(JSON.parse(readFileSync(summaryFile, 'utf8')))
    : undefined;
  if (summary?.success) {
    const s = summary.data;
    outcome.detail =
      `${s.cases + s.wsCases} cases, ${s.status4xx} 4xx, ${s.status2xx} 2xx, ${s.status5xx} 5xx, ` +
      `${s.wsCases} WebSocket; ${s.violations} violations`;
  } else {
    // Passing without counts would hide that nothing was fuzzed.
    outcome.status = 'failed';
    outcome.failed = Math.max(outcome.failed, 1);
    outcome.detail = 'no fuzz counts were written';
  }
}

function step(name: string, command: string, args: string[]) {
  const ok = run(name, command, args);
  outcomes.push({ name, status: ok ? 'passed' : 'failed', passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}

function cannotRun(name: string, why: string) {
  const banner = `${CI ? 'FAILED' : 'SKIPPED'}: ${name} cannot run here: ${why}`;
  console.log(`\n${'!'.repeat(banner.length)}\n${banner}\n${'!'.repeat(banner.length)}`);
  outcomes.push({ name, status: CI ? 'failed' : 'skipped', passed: 0, failed: CI ? 1 : 0, note: why });
}

step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
// Biome, the import-cycle check of apps/server, solhint on the escrow contract.
step('lint', 'npm', ['run', '--silent', 'lint']);
vitest('unit (core, pay-and-post, web, scripts)', ['core', 'pay-and-post', 'web', 'scripts']);
// The escrow contract on its own Hardhat node: every function, the attacks, a few short random
// histories (ESCROW_FUZZ_RUNS for more) and the gas report (decision 025).
vitest('escrow contract', ['escrow']);
vitest('integration on PGlite', ['server'], { TEST_DB: 'pglite' });
fuzz();
if (process.env.DATABASE_URL) {
  vitest('integration on PostgreSQL', ['server'], { TEST_DB: 'postgres' });
} else {
  cannotRun(
    'integration on PostgreSQL',
    'DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
}
if (process.env.DATABASE_URL) {
  // The money path under fire (docs/chaos.md): 3 rounds here, on a fixed seed so every run injects
  // the same faults (timings still vary); `npm run test:chaos` runs 20 on a new seed each time.
  const output = join(reports, 'chaos.json');
  const ok = run('chaos (short)', 'npx', [
    'tsx',
    'apps/server/chaos/run-chaos.ts',
    '--rounds',
    '3',
    '--seed',
    process.env.CHAOS_SEED ?? '7',
    '--quiesce-timeout-s',
    '45',
    '--out',
    output,
  ]);
  const result = existsSync(output)
    ? z.object({ passed: z.number(), failed: z.number() }).safeParse(JSON.parse(readFileSync(output, 'utf8')))
    : undefined;
  const passed = result?.success ? result.data.passed : 0;
  const failed = result?.success ? result.data.failed : 0;
  outcomes.push({
    name: 'chaos (short)',
    status: ok ? 'passed' : 'failed',
    passed,
    failed: ok ? failed : Math.max(failed, 1),
  });
} else {
  cannotRun('chaos (short)', 'DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)');
}
if (existsSync(CHROMIUM_PATH)) {
  const output = join(reports, 'e2e.json');
  // Playwright directly (not through npm, which would swallow --reporter).
  const ok = run(
    'e2e in Chromium',
    'npx',
    ['playwright', 'test', '--reporter=list,json'],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: output, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    'e2e',
  );
  const stats = existsSync(output)
    ? z
        .object({ stats: z.object({ expected: z.number(), unexpected: z.number(), flaky: z.number() }) })
        .safeParse(JSON.parse(readFileSync(output, 'utf8')))
    : undefined;
  const passed = stats?.success ? stats.data.stats.expected + stats.data.stats.flaky : 0;
  const failed = stats?.success ? stats.data.stats.unexpected : 0;
  outcomes.push({
    name: 'e2e in Chromium',
    status: ok ? 'passed' : 'failed',
    passed,
    failed: ok ? failed : Math.max(failed, 1),
  });
} else {
  cannotRun('e2e in Chromium', `no browser at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
}

console.log('\n━━ summary ━━');
for (const o of outcomes) {
  const counts =
    o.status === 'skipped'
      ? o.note
      : `${o.passed} passed, ${o.failed} failed${o.detail ? ` (${o.detail})` : ''}`;
  const took = durations.get(o.name);
  console.log(
    `  ${o.status.toUpperCase().padEnd(8)} ${o.name.padEnd(28)} ${(took === undefined ? '' : minutes(took)).padStart(6)}  ${counts}`,
  );
}
const passed = outcomes.reduce((sum, o) => sum + o.passed, 0);
const failed = outcomes.reduce((sum, o) => sum + o.failed, 0);
console.log(`total: ${passed} passed, ${failed} failed, in ${minutes(Date.now() - startedAt)}`);
process.exit(outcomes.some((o) => o.status === 'failed') ? 1 : 0);

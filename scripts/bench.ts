import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { findFreePort } from '../apps/server/src/dev/local-chain.ts';
import { seedScaleData } from '../apps/server/test/support/seed-scale.ts';
import { measureEndToEndBets } from './bench-bets.ts';
import {
  countGasMissed,
  countMarketGasMissed,
  measureGas,
  measureMarketGas,
  renderGasMarkdown,
  renderMarketGasMarkdown,
  writeGasToDocs,
  writeMarketGasToDocs,
} from './bench-gas.ts';
import { measureHotReads, measurePgliteRss } from './bench-http.ts';
import { measureRealtime } from './bench-realtime.ts';
import { type BenchReport, printReport, writeReportToDocs } from './bench-report.ts';
import { measureSettlement, seedSettlementMarket } from './bench-settlement.ts';
import { startStack } from './stack.ts';

// `npm run bench` (decision 016): the server against a seeded PostgreSQL, measured against its ceilings.
// See docs/benchmarks.md "Server benchmarks" for what each figure means.

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    only: { type: 'string' },
    /** Hot reads whose name contains one of these words, e.g. `--reads markets,price`. */
    reads: { type: 'string' },
    duration: { type: 'string' },
    'no-docs': { type: 'boolean', default: false },
  },
});

const only = args.only ? new Set(args.only.split(',')) : null;
const wants = (name: string) => !only || only.has(name);
const log = (line: string) => process.stdout.write(`${line}\n`);
/** The machine's load average now (1 / 5 / 15 min): every figure is printed beside it. */
const loadText = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

// The escrow's gas first: it needs no database and its figures do not depend on the machine's load.
if (wants('gas')) {
  const gasLoad = loadavg();
  const gas = await measureGas(log);
  log('');
  log('Escrow gas (docs/benchmarks.md "Escrow gas"):');
  log(renderGasMarkdown(gas, gasLoad));
  log('');
  if (!args['no-docs']) writeGasToDocs(gas, gasLoad);
  const marketGas = await measureMarketGas(log);
  log('');
  log('MarketEscrow gas (docs/benchmarks.md "MarketEscrow gas"):');
  log(renderMarketGasMarkdown(marketGas, gasLoad));
  log('');
  if (!args['no-docs']) writeMarketGasToDocs(marketGas, gasLoad);
  const missed = countGasMissed(gas) + countMarketGasMissed(marketGas);
  if (missed > 0) log(`${missed} gas target(s) MISSED.`);
  if (only?.size === 1) process.exit(missed === 0 ? 0 : 1);
}

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write(
    '\nnpm run bench needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).\n' +
      'It creates a database of its own there and drops it at the end.\n\n',
  );
  process.exit(2);
}

const scale = Number(args.scale);
if (!(scale > 0 && scale <= 1)) throw new Error('--scale must be in (0, 1]');
const durationS = Number(args.duration ?? (scale < 1 ? 2 : 5));
const sizes = {
  markets: Math.max(50, Math.round(10_000 * scale)),
  bets: Math.max(2_000, Math.round(1_000_000 * scale)),
  rounds: Math.max(20, Math.round(50_000 * scale)),
  oracleBets: Math.max(200, Math.round(200_000 * scale)),
  addresses: Math.max(100, Math.round(100_000 * scale)),
  busyMarketBets: 1000,
};
const settlementBets = Math.max(1000, Math.round(100_000 * scale));
const realtimeClients = Math.max(100, Math.round(10_000 * scale));

const dbName = `${process.env.BENCH_DB_PREFIX ?? 'bench'}_${randomBytes(4).toString('hex')}`;
const dbUrl = new URL(url);
dbUrl.pathname = `/${dbName}`;
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const dataDir = mkdtempSync(join(tmpdir(), 'pm-bench-'));
const cleanups: Array<() => Promise<void>> = [];
let cleaning = false;
async function cleanUp() {
  if (cleaning) return;
  cleaning = true;
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await admin.end().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

const report: BenchReport = {
  scale,
  sizes,
  durationS,
  hot: [],
  loadAtStart: loadavg()[0],
  loads: {},
  notes: [],
};
try {
  await admin.query(`CREATE DATABASE ${dbName}`);
  const database = await openDatabase({ url: dbUrl.toString(), poolSize: 4 });
  cleanups.push(() => database.close());
  await migrate(database.db);
  const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
  cleanups.push(() => pool.end());

  let started = performance.now();
  log(`seeding ${JSON.stringify(sizes)} …`);
  const seeded = await seedScaleData(pool, sizes);
  const settlementMarketId = await seedSettlementMarket(pool, settlementBets);
  report.seedS = (performance.now() - started) / 1000;
  log(`seeded in ${report.seedS.toFixed(1)} s`);

  const port = await findFreePort();
  const stack = await startStack({
    port,
    rpcPort: await findFreePort(),
    dataDir,
    build: false,
    env: {
      DATABASE_URL: dbUrl.toString(),
      DEMO_DATA: 'false',
      // Jobs would move seeded rounds and markets under the measurement; the figures are the reads'.
      JOBS: 'false',
      RATE_LIMIT_PER_MIN: '0',
      WS_MAX_CONNECTIONS: '20000',
      WS_MAX_CONNECTIONS_PER_IP: '10000',
      ORACLE_MAX_AGE_S: '86400',
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
    },
    log: (line) => {
      if (/error|fatal/i.test(line)) process.stderr.write(`server: ${line}\n`);
    },
  });
  cleanups.push(() => stack.stop());
  const serverPid = stack.server.pid ?? 0;

  if (wants('reads')) {
    started = performance.now();
    await measureHotReads({
      report,
      baseUrl: stack.baseUrl,
      db: database.db,
      dbUrl: dbUrl.toString(),
      seeded,
      serverPid,
      durationS,
      only: args.reads ? args.reads.split(',') : undefined,
      log,
    });
    report.loads.reads = loadText();
    log(`hot reads measured in ${((performance.now() - started) / 1000).toFixed(0)} s (load ${loadText()})`);
  }
  if (wants('realtime')) {
    report.realtime = await measureRealtime({
      baseUrl: stack.baseUrl,
      db: database.db,
      clients: realtimeClients,
      serverPid,
      databaseUrl: dbUrl.toString(),
      log,
    });
    report.loads.realtime = loadText();
  }
  if (wants('bets')) {
    report.bets = await measureEndToEndBets({
      baseUrl: stack.baseUrl,
      rpcUrl: stack.rpcUrl,
      marketId: seeded.busyMarketId,
      serverPid,
      log,
    });
    report.loads.bets = loadText();
    log(`(load ${loadText()})`);
  }
  if (wants('settlement')) {
    report.settlement = await measureSettlement(database.db, settlementMarketId, settlementBets, {
      chainId: 31337,
      address: stack.escrowAddress,
    });
    report.loads.settlement = loadText();
    log(
      `settled ${settlementBets} bets on the escrow path in ${report.settlement.seconds.toFixed(2)} s (load ${loadText()})`,
    );
  }
  if (wants('pglite')) {
    // The same instance on embedded PGlite (the default without DATABASE_URL), with the demo data:
    // its memory is the database's too, so this is the figure a one-machine install sees.
    await stack.stop();
    const pgliteDir = mkdtempSync(join(tmpdir(), 'pm-bench-pglite-'));
    cleanups.push(async () => rmSync(pgliteDir, { recursive: true, force: true }));
    const pglite = await startStack({
      port: await findFreePort(),
      rpcPort: await findFreePort(),
      dataDir: pgliteDir,
      build: false,
      // Empty DATABASE_URL: PGlite under DATA_DIR (startStack passes this process's environment on).
      env: {
        DATABASE_URL: '',
        DEMO_DATA: 'true',
        RATE_LIMIT_PER_MIN: '0',
        LOG_LEVEL: 'warn',
        METRICS_PORT: '0',
      },
    });
    cleanups.push(() => pglite.stop());
    report.rssPgliteMb = await measurePgliteRss(pglite.baseUrl, pglite.server.pid ?? 0, durationS);
    report.loads.pglite = loadText();
    log(`PGlite instance: peak RSS ${report.rssPgliteMb.toFixed(0)} MB under load (load ${loadText()})`);
  }
  // Everything shares this machine: a busy machine lowers every figure, the ceilings' too.
  report.notes.push(
    `Machine: ${cpus().length} CPUs; load average at the end ${loadText()} (1 / 5 / 15 min).`,
  );
  printReport(report, log);
  if (!args['no-docs']) writeReportToDocs(report);
} finally {
  await cleanUp();
}
process.exit(0);

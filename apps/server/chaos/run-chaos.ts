import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEV_OPERATOR } from '../src/config/dev-accounts.ts';
import { deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { findFreePort, type LocalChain, startLocalChain } from '../src/dev/local-chain.ts';
import { type AiStub, startAiStub, verdict } from '../test/support/ai-stub.ts';
import { createApiClient } from './api-client.ts';
import { createChainTools } from './chain-tools.ts';
import { type ChaosDatabase, createChaosDatabase } from './chaos-database.ts';
import { type ChaosResult, collectViolations, lostText, printResult, tallyToJson } from './chaos-report.ts';
import { type RoundOutcome, runChaosRound } from './chaos-round.ts';
import { createDbReader, type DbReader } from './db-snapshot.ts';
import { createEscrowLedger } from './escrow-ledger.ts';
import { createFaultScheduler, parseFaultKinds } from './fault-scheduler.ts';
import { createOperatorLedger } from './operator-ledger.ts';
import { type PgFaultProxy, startPgFaultProxy } from './pg-fault-proxy.ts';
import { createRandom } from './prng.ts';
import { type RpcFaultProxy, startRpcFaultProxy } from './rpc-fault-proxy.ts';
import { createServerProcess, type ServerProcess } from './server-process.ts';
import { createTraffic, type Tally } from './traffic.ts';

// `npm run test:chaos [-- --rounds 20 --seed 123]`: the money path under fire (docs/chaos.md).
// Real Hardhat node, the real server as a child process on a fresh PostgreSQL database, faults
// from a seeded PRNG, invariants checked against the chain after every round. Exit code 1 on any
// violation; the same result as JSON at --out.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CI = process.env.CI === 'true' || process.env.CI === '1';
/** Blocks a payment needs on the chaos chain: more than one, so a reorg can undo a "final-looking" one. */
const CONFIRMATIONS = 2;

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    seed: { type: 'string' },
    out: { type: 'string', default: join(ROOT, '.data/chaos/chaos-result.json') },
    'quiesce-timeout-s': { type: 'string', default: '60' },
    faults: { type: 'string', default: 'all' },
    'no-attacks': { type: 'boolean', default: false },
  },
});
const rounds = Number.parseInt(args.rounds, 10);
const seed = args.seed === undefined ? randomInt(1, 2 ** 31 - 1) : Number.parseInt(args.seed, 10);
if (!Number.isSafeInteger(rounds) || rounds < 1 || !Number.isSafeInteger(seed)) {
  process.stderr.write(
    'usage: run-chaos.ts [--rounds N] [--seed S] [--out result.json] [--faults all|none|kill,rpc,postgres,reorg] [--no-attacks]\n',
  );
  process.exit(2);
}
const faultKinds = parseFaultKinds(args.faults);
const attacks = !args['no-attacks'];
const outFile = resolve(args.out);
const logFile = join(dirname(outFile), `server-${seed}.log`);
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(logFile, '');
const log = (line: string) => process.stdout.write(`${line}\n`);
const startedAt = Date.now();

function writeResult(result: ChaosResult) {
  writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
}

const replay = [
  `--seed ${seed} --rounds ${rounds}`,
  args.faults === 'all' ? '' : `--faults '${args.faults}'`,
  attacks ? '' : '--no-attacks',
]
  .filter(Boolean)
  .join(' ');

const emptyResult = (status: ChaosResult['status'], note: string): ChaosResult => ({
  status,
  note,
  seed,
  replay,
  roundsPlanned: rounds,
  roundsRun: 0,
  passed: 0,
  failed: status === 'failed' ? 1 : 0,
  faults: {},
  invariantsChecked: 0,
  violations: [],
  lostWei: '0',
  lost: '0 BNB',
  rounds: [],
  traffic: {},
  faultLog: [],
  harnessErrors: [],
  serverErrors: [],
  serverStarts: 0,
  logFile,
  durationS: 0,
});

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  const banner = `${CI ? 'FAILED' : 'SKIPPED'}: the chaos suite cannot run here: DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)`;
  log(`${'!'.repeat(banner.length)}\n${banner}\n${'!'.repeat(banner.length)}`);
  writeResult(emptyResult(CI ? 'failed' : 'skipped', 'DATABASE_URL is not set'));
  process.exit(CI ? 1 : 0);
}

// Everything started is stopped on the way out, whatever the way out is.
let chainNode: LocalChain | undefined;
let rpcProxy: RpcFaultProxy | undefined;
let pgProxy: PgFaultProxy | undefined;
let database: ChaosDatabase | undefined;
let dbReader: DbReader | undefined;
let aiStub: AiStub | undefined;
let server: ServerProcess | undefined;
let stopTicker: () => Promise<void> = async () => {};
let cleanedUp = false;

async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  const quietly = async (step: () => Promise<unknown> | undefined) => {
    try {
      await step();
    } catch (error) {
      log(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  await quietly(() => stopTicker());
  await quietly(() => server?.stop());
  await quietly(() => dbReader?.close());
  await quietly(() => database?.drop());
  await quietly(() => pgProxy?.close());
  await quietly(() => rpcProxy?.close());
  await quietly(() => aiStub?.close());
  await quietly(() => chainNode?.stop());
}
process.on('exit', () => {
  server?.killNow();
  if (chainNode && chainNode.process.exitCode === null) chainNode.process.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    log(`\n${signal}: stopping the chaos run`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<ChaosResult> {
  const random = createRandom(seed);
  log(`chaos: seed ${seed}, ${rounds} rounds (replay with --seed ${seed})`);
  log(`faults: ${faultKinds.join(', ') || 'none'}; attacker payments: ${attacks ? 'yes' : 'no'}`);

  chainNode = await startLocalChain();
  rpcProxy = await startRpcFaultProxy({ upstream: chainNode.rpcUrl, random: random.fork('rpc') });
  database = await createChaosDatabase(adminUrl ?? '');
  pgProxy = await startPgFaultProxy({ upstreamHost: database.host, upstreamPort: database.port });
  dbReader = createDbReader(database.url);
  aiStub = await startAiStub();
  const judge = random.fork('judge');
  // The AI vendor answers YES or NO, now and then UNDECIDABLE (AI_MAX_ATTEMPTS=1: the market is voided).
  aiStub.reply(() => {
    const roll = judge.next();
    return verdict(
      roll < 0.15 ? { verdict: 'UNDECIDABLE', confidence: 20 } : { verdict: roll < 0.58 ? 'YES' : 'NO' },
    );
  });

  const chain = createChainTools(chainNode.rpcUrl);
  const operator = DEV_OPERATOR.address;
  // The escrow every stake goes into, as `npm start` deploys it (decision 026 "The chain").
  const escrow = (await deployDevEscrow(chainNode.rpcUrl)).address;
  const ledger = createOperatorLedger(chain, operator);
  const initialBalance = await ledger.balanceAt(0n);
  const escrowLedger = createEscrowLedger(chain, escrow);

  const port = await findFreePort();
  server = createServerProcess({
    port,
    logFile,
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      // No metrics listener: the default 9464 may be taken by another server on this machine.
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      CHAIN_ID: '31337',
      RPC_URL: rpcProxy.url,
      ESCROW_ADDRESS: escrow,
      DATABASE_URL: database.urlVia('127.0.0.1', pgProxy.port),
      JOBS: 'true',
      CLOCK: 'chain',
      CONFIRMATIONS: String(CONFIRMATIONS),
      PAYMENT_WAIT_MS: '3000',
      // A request whose transaction never mines (a reorged-out payment) is forgotten after a minute.
      PENDING_PAYMENT_EXPIRY_S: '60',
      ROUND_INTERVAL_S: '20',
      BETTING_WINDOW_S: '10',
      ORACLE_MAX_AGE_S: '120',
      PRICE_FEED: 'simulated',
      AI_BASE_URL: aiStub.url,
      AI_MODEL: 'chaos-judge',
      AI_MAX_ATTEMPTS: '1',
      AI_TIMEOUT_MS: '5000',
      // Verdicts go through the review window (docs/decisions/011), short enough for I5 (nothing stuck).
      RESOLUTION_REVIEW_WINDOW_S: '5',
      MARKET_FEE_BPS: '0',
      ORACLE_FEE_BPS: '0',
      DEMO_DATA: 'false',
    },
  });
  await server.start();
  chain.startTicker(1000);
  stopTicker = () => chain.stopTicker();

  const api = createApiClient(server.baseUrl);
  const tally: Tally = new Map();
  const traffic = createTraffic({
    chain,
    api,
    db: dbReader,
    escrow,
    ledger,
    random: random.fork('traffic'),
    tally,
    confirmations: CONFIRMATIONS,
    attacks,
  });
  const faults = createFaultScheduler({
    random: random.fork('faults'),
    server,
    rpc: rpcProxy,
    pg: pgProxy,
    reorg: () => traffic.reorgBet(),
    log,
    kinds: faultKinds,
  });

  const outcomes: RoundOutcome[] = [];
  for (let round = 1; round <= rounds; round++) {
    log(`\nround ${round}/${rounds}`);
    const outcome = await runChaosRound(
      {
        chain,
        api,
        db: dbReader,
        ledger,
        escrowLedger,
        traffic,
        faults,
        random: random.fork(`round-${round}`),
        tally,
        operator,
        confirmations: CONFIRMATIONS,
        initialBalance,
        quiesceTimeoutMs: Number(args['quiesce-timeout-s']) * 1000,
        log,
      },
      round,
    );
    outcomes.push(outcome);
    const { report } = outcome;
    log(
      `  round ${round}: ${report.checks} checks, ${report.violations.length} violations, lost ${lostText(report.lostWei)} (${outcome.seconds} s; ${report.stats.escrowDeposits} escrow deposits, ${report.stats.bets}+${report.stats.oracleBets} bets, ${report.stats.escrowPaid} escrow payouts so far)`,
    );
  }

  const violations = collectViolations(outcomes);
  const last = outcomes.at(-1);
  const lostWei = last?.report.lostWei ?? 0n;
  const failedRounds = outcomes.filter((o) => o.report.violations.length > 0).length;
  return {
    status: violations.length || lostWei > 0n ? 'failed' : 'passed',
    seed,
    replay,
    roundsPlanned: rounds,
    roundsRun: outcomes.length,
    passed: outcomes.length - failedRounds,
    failed: failedRounds,
    faults: Object.fromEntries(faults.injected),
    invariantsChecked: outcomes.reduce((sum, o) => sum + o.report.checks, 0),
    violations,
    lostWei: lostWei.toString(),
    lost: lostText(lostWei),
    rounds: outcomes.map((o) => ({
      round: o.round,
      seconds: o.seconds,
      quiet: o.quiesce.quiet,
      stalled: o.quiesce.stalled,
      waitingFor: o.quiesce.waitingFor,
      checks: o.report.checks,
      violations: o.report.violations.length,
      stats: o.report.stats,
    })),
    traffic: tallyToJson(tally),
    faultLog: faults.history,
    harnessErrors: faults.harnessErrors,
    serverErrors: [...server.errors.entries()]
      .map(([message, e]) => ({ message, count: e.count, sample: e.sample }))
      .sort((a, b) => b.count - a.count),
    serverStarts: server.starts(),
    logFile,
    durationS: Math.round((Date.now() - startedAt) / 1000),
  };
}

let result: ChaosResult;
try {
  result = await main();
} catch (error) {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  log(`\nchaos: the run itself failed: ${message}`);
  result = {
    ...emptyResult('failed', `the run failed: ${error instanceof Error ? error.message : String(error)}`),
    serverStarts: server?.starts() ?? 0,
    durationS: Math.round((Date.now() - startedAt) / 1000),
  };
}
await cleanup();
writeResult(result);
printResult(result, log);
log(`result: ${outFile}`);
process.exit(result.status === 'passed' ? 0 : 1);

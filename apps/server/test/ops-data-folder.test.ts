import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListMarketsResponseSchema } from '@pm/core/contract/markets';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { LOCK_FILE } from '../src/db/data-folder-lock.ts';
import { markets } from '../src/db/schema.ts';
import { compiledServerCommand } from '../src/dev/compiled-server.ts';
import { deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { findFreePort } from '../src/dev/local-chain.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';

// Decision 033: the embedded PGlite's files are one process's. Beside a running server (its own
// process, as `npm start` runs it) an ops command that changes state is refused in one line and
// changes nothing, a read-only one reads a copy; once the server has stopped, the same command works.
// Both are the compiled build, as `npm start` and `npm run ops` run them (decision 021): no tsx
// compiling the whole server again in each of the five processes.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'pm-ops-folder-'));

let chain: TestChain;
let server: ChildProcess | undefined;
let baseUrl: string;
let env: Record<string, string | undefined>;
let opsCommand: { command: string; args: string[] };
let output = '';

beforeAll(async () => {
  chain = await startTestChain();
  const escrow = (await deployDevEscrow(chain.rpcUrl)).address;
  const port = await findFreePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    PORT: String(port),
    RPC_URL: chain.rpcUrl,
    ESCROW_ADDRESS: escrow,
    DATA_DIR: dataDir,
    DEMO_DATA: 'true',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const { command, args } = compiledServerCommand('main');
  opsCommand = compiledServerCommand('ops');
  server = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  server.stdout?.on('data', collect);
  server.stderr?.on('data', collect);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && server.exitCode === null) {
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not become healthy:\n${output}`);
}, 150_000);

afterAll(async () => {
  await stopServer();
  await chain?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function stopServer() {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
}

/** `npm run ops -- <argv>` (the compiled CLI) as its own process, with the server's settings. */
async function ops(...argv: string[]) {
  const child = spawn(opsCommand.command, [...opsCommand.args, ...argv], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

async function openMarket() {
  const list = ListMarketsResponseSchema.parse(
    await (await fetch(`${baseUrl}/api/markets?status=open`)).json(),
  );
  const market = list.markets[0];
  if (!market) throw new Error('no open demo market');
  return market;
}

describe('ops commands beside a running server on PGlite', () => {
  let marketId: number;

  it('a command that changes state is refused in one line, naming the server, and changes nothing', async () => {
    marketId = (await openMarket()).id;
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);
    const refused = await ops('markets:void', String(marketId), '--reason', 'beside the server');
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stdout.split('\n')).toHaveLength(1);
    expect(refused.stdout).toMatch(
      new RegExp(
        `^Refused: the server \\(pid ${server?.pid}, since .+\\) holds the data folder ${dataDir}; nothing was changed: stop it first, or act through its signed operator API`,
      ),
    );
    const after = (await (await fetch(`${baseUrl}/api/markets/${marketId}`)).json()) as {
      market: { status: string };
    };
    expect(after.market.status).toBe('active');
    // The oracle's too.
    const reset = await ops('oracle:reset');
    expect(reset.code).toBe(1);
    expect(reset.stdout).toMatch(/^Refused: the server \(pid \d+/);
  }, 60_000);

  it('a read-only command reads a copy of the folder and says so', async () => {
    const pending = await ops('markets:pending');
    expect(pending.code, pending.stderr).toBe(0);
    expect(pending.stdout).toContain('No market is waiting for resolution.');
    expect(pending.stderr).toContain(`Reading a copy taken now: the server (pid ${server?.pid}`);
    const doctor = await ops('doctor');
    expect(doctor.stdout).toMatch(/✔ database answers: PGlite at .+ \(a copy: the server \(pid \d+/);
    // The server never noticed.
    expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
  }, 90_000);

  it('once the server has stopped, its lock is gone and the same command works as before', async () => {
    await stopServer();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const voided = await ops('markets:void', String(marketId), '--reason', 'the server is stopped');
    expect(voided.code, voided.stderr).toBe(0);
    expect(voided.stdout).toMatch(new RegExp(`^Market #${marketId} settled VOID`));
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    try {
      const [row] = await database.db.select().from(markets).where(eq(markets.id, marketId));
      expect(row?.status).toBe('settled');
      expect(row?.result).toBe('VOID');
    } finally {
      await database.close();
    }
  }, 60_000);
});

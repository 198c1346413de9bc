import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestClient, http, publicActions } from 'viem';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { publicDevHostRefusalFromEnv } from '../apps/server/src/config/public-dev-host.ts';
import { compiledServerCommand } from '../apps/server/src/dev/compiled-server.ts';
import { startDevChain } from '../apps/server/src/dev/dev-chain-journal.ts';
import { deployDevFeeds, devFeedSettings } from '../apps/server/src/dev/dev-feeds.ts';
import { devChainMarketEscrow } from '../apps/server/src/dev/dev-market-escrow.ts';

// The whole product on one machine: local Hardhat chain with the escrow contracts and a
// Chainlink-compatible price feed per coin, API server (PGlite) reading them, serving the built web app on the same origin. The server is the compiled build (apps/server/dist),
// rebuilt when stale: what production runs. Used by `npm start` and by the e2e global setup.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WEB_DIST = join(ROOT, 'apps/web/dist');

export type StackOptions = {
  port: number;
  rpcPort: number;
  dataDir: string;
  /** Extra server environment (short round timings in e2e, an AI endpoint, …). */
  env?: Record<string, string>;
  /** Build the web app first (default: when dist/ is missing). */
  build?: boolean;
  /** Where server and chain output goes. */
  log?: (line: string) => void;
  /** The one line that says the saved dev chain could not be restored (and where the old data went). */
  notice?: (line: string) => void;
  /** Write the chain's blocks to the data folder for the next start (default true; decision 003). */
  saveChain?: boolean;
};

/** BSC's block time is 0.75–3 s; the dev chain mines at least this often. */
export const DEV_BLOCK_INTERVAL_MS = 2_000;

export async function startStack(options: StackOptions) {
  // The server refuses too (config.ts); asking first stops before a build or a chain starts.
  const refusal = publicDevHostRefusalFromEnv({ ...process.env, ...options.env });
  if (refusal) throw new PublicDevHostError(refusal);
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  if (options.build ?? !existsSync(join(WEB_DIST, 'index.html'))) buildWeb();

  // The saved dev chain replayed, or fresh data when it cannot be (said in one line, the old folder
  // moved aside): the database never shows stakes the contract does not hold (decision 003).
  const devChain = await startDevChain({
    dataDir,
    port: options.rpcPort,
    log: (line) => options.log?.(line),
    databaseUrl: options.env?.DATABASE_URL ?? process.env.DATABASE_URL,
    ...(options.saveChain === undefined ? {} : { record: options.saveChain }),
  });
  if (devChain.notice) options.notice?.(devChain.notice);
  const { chain, escrow } = devChain;
  const client = createTestClient({ mode: 'hardhat', transport: http(chain.rpcUrl) }).extend(publicActions);
  // Each coin's feed (an aggregator behind a proxy with phases), which the server reads as it reads
  // Chainlink's on BSC and whose rounds its dev feed writer publishes from the simulated walk. On a
  // replayed chain they are there already (found at the writer's addresses). Then MarketEscrow
  // (docs/decisions/034), reading those feeds by coin index, with the fees and price age the server is
  // given: deployed by the dev admin on a fresh chain, found where the data folder says on a replayed
  // one; the server gets its address and block (MARKET_ESCROW_ADDRESS, MARKET_ESCROW_DEPLOY_BLOCK).
  const { feeds, marketEscrow } = await (async () => {
    const feeds = await deployDevFeeds(chain.rpcUrl);
    const serverEnv = { ...process.env, ...options.env };
    const fees = loadConfig({
      ORACLE_FEE_BPS: serverEnv.ORACLE_FEE_BPS,
      MARKET_FEE_BPS: serverEnv.MARKET_FEE_BPS,
      ORACLE_MAX_AGE_S: serverEnv.ORACLE_MAX_AGE_S,
    });
    return { feeds, marketEscrow: await devChainMarketEscrow(devChain, feeds, fees) };
  })().catch(async (error: unknown) => {
    await devChain.recorder.stop();
    await chain.stop();
    throw error;
  });
  // A block every DEV_BLOCK_INTERVAL_MS even when nobody sends a transaction, as on BSC: the escrow
  // reads the chain's clock (a round's settlement needs its lock passed, a payout its claimableAt),
  // and an automine-only node's clock stands still between transactions. Hardhat's
  // evm_setIntervalMining takes milliseconds; viem's setIntervalMining takes seconds and multiplies
  // for Hardhat, so the request goes out as it is, with the unit in its name.
  await client.request({ method: 'evm_setIntervalMining', params: [DEV_BLOCK_INTERVAL_MS] });

  const { command, args } = compiledServerCommand();
  const server = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      RPC_URL: chain.rpcUrl,
      DATA_DIR: dataDir,
      WEB_DIST,
      DEMO_DATA: 'true',
      ESCROW_ADDRESS: escrow.address,
      ESCROW_DEPLOY_BLOCK: String(escrow.blockNumber),
      MARKET_ESCROW_ADDRESS: marketEscrow.address,
      MARKET_ESCROW_DEPLOY_BLOCK: String(marketEscrow.blockNumber),
      ...devFeedSettings(feeds),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pipeLines(server, options.log);
  const baseUrl = `http://127.0.0.1:${options.port}`;
  try {
    await waitForHealth(baseUrl, server);
  } catch (error) {
    server.kill('SIGTERM');
    await devChain.recorder.stop();
    await chain.stop();
    throw error;
  }

  // The guardian's watcher (docs/operations.md "The guardian's watcher"): a process of its own with
  // the dev guardian's key, as in production, checking every judged settlement on MarketEscrow. Its
  // metrics listener takes a free port; its lines join the server's.
  const ops = compiledServerCommand('ops');
  const guardian = spawn(ops.command, [...ops.args, 'guardian:watch', '--metrics-port', '0'], {
    cwd: ROOT,
    env: {
      ...process.env,
      RPC_URL: chain.rpcUrl,
      MARKET_ESCROW_ADDRESS: marketEscrow.address,
      MARKET_ESCROW_DEPLOY_BLOCK: String(marketEscrow.blockNumber),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pipeLines(guardian, options.log);

  const stopChild = async (child: ChildProcess) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  };
  let stopped = false;
  return {
    baseUrl,
    rpcUrl: chain.rpcUrl,
    escrowAddress: escrow.address,
    marketEscrowAddress: marketEscrow.address,
    /** Blocks replayed from the data folder at this start (0 on fresh data). */
    replayedBlocks: devChain.replayed,
    server,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([stopChild(server), stopChild(guardian)]);
      // The server sends nothing more: the last blocks are written, then the node stops.
      await devChain.recorder.stop();
      await chain.stop();
    },
  };
}

/**
 * `HOST` is not loopback on the local chain and `ALLOW_PUBLIC_DEV=1` is not set: `POST /api/dev/price`
 * and the public dev keys stay on the machine (docs/security.md "Configuration").
 */
export class PublicDevHostError extends Error {
  override name = 'PublicDevHostError';
}

export function buildWeb(): void {
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('Building the web app failed');
}

function pipeLines(child: ChildProcess, log: ((line: string) => void) | undefined) {
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) log?.(line);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
}

async function waitForHealth(baseUrl: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not become healthy at ${baseUrl}`);
}

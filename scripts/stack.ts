import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { createTestClient, http, publicActions, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { z } from 'zod';
import { DEV_MNEMONIC } from '../apps/server/src/config/dev-accounts.ts';
import { publicDevHostRefusalFromEnv } from '../apps/server/src/config/public-dev-host.ts';
import { compiledServerCommand } from '../apps/server/src/dev/compiled-server.ts';
import { deployDevEscrow } from '../apps/server/src/dev/dev-escrow.ts';
import { deployDevFeeds, devFeedSettings } from '../apps/server/src/dev/dev-feeds.ts';
import { startLocalChain } from '../apps/server/src/dev/local-chain.ts';

// The whole product on one machine: local Hardhat chain with a Chainlink-compatible price feed per
// coin, API server (PGlite) reading them, serving the built web app on the same origin. The server is the compiled build (apps/server/dist),
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

  const chain = await startLocalChain({ port: options.rpcPort });
  const client = createTestClient({ mode: 'hardhat', transport: http(chain.rpcUrl) }).extend(publicActions);
  const statePath = join(dataDir, 'chain-state.json');
  const saved = await restoreChainState(client, statePath);
  // The escrow contract, deployed afresh on the fresh chain (one transaction from the dev admin, whose
  // nonce is not carried over: the same address at every start). Every stake is deposited into it;
  // its stake ids go on from where the saved chain's stopped.
  const escrow = await deployDevEscrow(chain.rpcUrl)
    .then(async (deployed) => {
      if (saved?.escrowNextStakeId) {
        await continueStakeIds(client, deployed.address, BigInt(saved.escrowNextStakeId));
      }
      return deployed;
    })
    .catch(async (error: unknown) => {
      await chain.stop();
      throw error;
    });
  // Each coin's feed (an aggregator behind a proxy with phases), which the server reads as it reads
  // Chainlink's on BSC and whose rounds its dev feed writer publishes from the simulated walk.
  const feeds = await deployDevFeeds(chain.rpcUrl).catch(async (error: unknown) => {
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
    await chain.stop();
    throw error;
  }
  // A crash should lose as little as possible: save the chain state now and then, and at stop.
  const saver = setInterval(
    () => void saveChainState(client, statePath, escrow.address).catch(() => {}),
    15_000,
  );
  saver.unref();

  let stopped = false;
  return {
    baseUrl,
    rpcUrl: chain.rpcUrl,
    escrowAddress: escrow.address,
    server,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(saver);
      await saveChainState(client, statePath, escrow.address).catch(() => {});
      if (server.exitCode === null && server.signalCode === null) {
        server.kill('SIGTERM');
        await once(server, 'exit');
      }
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

// The Hardhat chain lives in memory, while PGlite keeps its data on disk. So that a second start
// finds the chain where the data left it, the dev accounts' balances and nonces and the chain's
// clock offset are saved and put back (hardhat_setBalance / hardhat_setNonce / evm_increaseTime).
// Old transaction hashes are not replayed: the database never needs to read them again. The escrow
// starts empty at each start (its stakes of the last run are not carried: decision 026 "The chain"),
// but numbers its stakes on from the last run's, so no new stake takes an id the database holds.

const ChainStateSchema = z.object({
  timeOffsetS: z.number(),
  accounts: z.array(z.object({ address: z.string(), balance: z.string(), nonce: z.number() })),
  /** The escrow's next stake id when saved (decimal); absent in a state saved before rounds paid into it. */
  escrowNextStakeId: z.string().optional(),
});
type ChainState = z.infer<typeof ChainStateSchema>;

type DevChainClient = ReturnType<typeof devClient>;
const devClient = (rpcUrl: string) =>
  createTestClient({ mode: 'hardhat', transport: http(rpcUrl) }).extend(publicActions);

const devAddresses = () =>
  Array.from({ length: 20 }, (_, index) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index }).address);

async function saveChainState(client: DevChainClient, path: string, escrow: `0x${string}`): Promise<void> {
  const timeOffsetS = Number(await client.increaseTime({ seconds: 0 }));
  const accounts = await Promise.all(
    devAddresses().map(async (address) => ({
      address,
      balance: (await client.getBalance({ address })).toString(),
      nonce: await client.getTransactionCount({ address }),
    })),
  );
  const escrowNextStakeId = (await readNextStakeId(client, escrow)).toString();
  const state: ChainState = { timeOffsetS, accounts, escrowNextStakeId };
  writeFileSync(path, JSON.stringify(state, null, 2));
}

const readNextStakeId = (client: DevChainClient, escrow: `0x${string}`) =>
  client.readContract({ address: escrow, abi: predictionEscrowAbi, functionName: 'nextStakeId' });

/**
 * Makes the fresh escrow's next stake id `next`: the saved database names stakes below it, which
 * payments and bets hold unique. Dev chain only (hardhat_setStorageAt). The contract packs its
 * liabilities (uint128, 0 here), next stake id (uint64) and pause flag in one slot: found by its value
 * on the fresh contract, written, and read back through `nextStakeId()`.
 */
async function continueStakeIds(client: DevChainClient, escrow: `0x${string}`, next: bigint): Promise<void> {
  const current = await readNextStakeId(client, escrow);
  if (next <= current) return;
  for (let slot = 0; slot < 64; slot++) {
    const index = toHex(slot, { size: 32 });
    const value = await client.getStorageAt({ address: escrow, slot: index });
    if (value === undefined || BigInt(value) !== current << 128n) continue;
    await client.setStorageAt({ address: escrow, index, value: toHex(next << 128n, { size: 32 }) });
    if ((await readNextStakeId(client, escrow)) === next) return;
    await client.setStorageAt({ address: escrow, index, value });
  }
  throw new Error(`could not carry the escrow's stake ids over (next ${next})`);
}

async function restoreChainState(client: DevChainClient, path: string): Promise<ChainState | null> {
  if (!existsSync(path)) return null;
  const state = ChainStateSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  for (const account of state.accounts) {
    const address = z.templateLiteral(['0x', z.string()]).parse(account.address);
    await client.setBalance({ address, value: BigInt(account.balance) });
    await client.setNonce({ address, nonce: account.nonce });
  }
  if (state.timeOffsetS > 0) await client.increaseTime({ seconds: state.timeOffsetS });
  await client.mine({ blocks: 1 });
  return state;
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

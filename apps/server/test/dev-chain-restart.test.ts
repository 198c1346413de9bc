import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAIN_ID } from '@pm/core/constants';
import { depositArgs, roundDepositTerms } from '@pm/escrow/deposit-terms';
import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import {
  type Address,
  createTestClient,
  createWalletClient,
  getAddress,
  getContractAddress,
  http,
  parseEther,
  publicActions,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_ESCROW_ROLES, DEV_PLAYERS } from '../src/config/dev-accounts.ts';
import { type DevChainStart, META_FILE, startDevChain } from '../src/dev/dev-chain-journal.ts';
import { deployDevFeeds } from '../src/dev/dev-feeds.ts';
import { devChainMarketEscrow } from '../src/dev/dev-market-escrow.ts';
import { findFreePort } from '../src/dev/local-chain.ts';

// Decisions 003 and 026 "The chain": `npm start`'s dev chain (scripts/stack.ts's startDevChain) on a
// real Hardhat node. A second start with the same data folder replays the saved blocks hash for hash:
// the escrow holds the first run's stake and its transaction is there; a saved chain that cannot be
// restored is said in one line, the old folder moved aside, and the start is on fresh data.

const root = mkdtempSync(join(tmpdir(), 'pm-dev-chain-'));
const dataDir = join(root, 'data');
const running: DevChainStart[] = [];
afterAll(async () => {
  for (const each of running) await stop(each);
  rmSync(root, { recursive: true, force: true });
});

async function start(): Promise<DevChainStart> {
  const started = await startDevChain({ dataDir, port: await findFreePort() });
  running.push(started);
  return started;
}

async function stop(started: DevChainStart) {
  await started.recorder.stop();
  await started.chain.stop();
  running.splice(running.indexOf(started), 1);
}

function clients(started: DevChainStart) {
  const transport = http(started.chain.rpcUrl);
  const test = createTestClient({ mode: 'hardhat', transport }).extend(publicActions);
  const player = createWalletClient({
    chain: {
      id: CHAIN_ID.local,
      name: 'local',
      nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
      rpcUrls: { default: { http: [started.chain.rpcUrl] } },
    },
    transport,
    account: privateKeyToAccount(DEV_PLAYERS[0].privateKey),
  }).extend(publicActions);
  return { test, player };
}

const stakeHash = (started: DevChainStart, stakeId: bigint) =>
  clients(started).test.readContract({
    address: started.escrow.address,
    abi: predictionEscrowAbi,
    functionName: 'stakes',
    args: [stakeId],
  });

/** MarketEscrow as scripts/stack.ts has it: after the dev feeds, found on a replayed chain, else deployed. */
const marketEscrowOf = async (started: DevChainStart) =>
  devChainMarketEscrow(started, await deployDevFeeds(started.chain.rpcUrl));

/** Where the dev admin's second transaction (after the PredictionEscrow) puts a contract. */
const MARKET_ESCROW = getContractAddress({ from: getAddress(DEV_ESCROW_ROLES.admin.address), nonce: 1n });

const marketCoinCount = (started: DevChainStart, address: Address) =>
  clients(started).test.readContract({ address, abi: marketEscrowAbi, functionName: 'coinCount' });

/** The old folders moved aside beside the data folder. */
const movedAside = () => readdirSync(root).filter((name) => name.startsWith('data.old-'));

describe("npm start's dev chain over a restart", () => {
  let depositHash: `0x${string}`;
  let stakeId: bigint;
  let headHash: `0x${string}`;
  let chainTime: bigint;
  let marketEscrow: { address: Address; blockNumber: bigint };

  it('a fresh data folder gets a fresh chain with the escrow, and every block is written as it comes', async () => {
    const first = await start();
    expect(first.notice).toBeNull();
    expect(first.replayed).toBe(0);
    expect(first.marketEscrow).toBeNull();
    marketEscrow = await marketEscrowOf(first);
    expect(marketEscrow.address).toBe(MARKET_ESCROW);
    expect(await marketCoinCount(first, MARKET_ESCROW)).toBe(8);
    const { test, player } = clients(first);
    const closesAt = Number((await test.getBlock()).timestamp) + 3600;
    depositHash = await player.writeContract({
      address: first.escrow.address,
      abi: predictionEscrowAbi,
      functionName: 'deposit',
      args: depositArgs(roundDepositTerms(7, closesAt, 'bull')),
      value: parseEther('0.1'),
    });
    await player.waitForTransactionReceipt({ hash: depositHash });
    stakeId =
      (await test.readContract({
        address: first.escrow.address,
        abi: predictionEscrowAbi,
        functionName: 'nextStakeId',
      })) - 1n;
    expect(BigInt(await stakeHash(first, stakeId))).not.toBe(0n);
    // A legacy transaction too, and the clock moved ahead, as a demo does.
    await player.sendTransaction({ to: DEV_PLAYERS[1].address, value: 1n, type: 'legacy' });
    await test.increaseTime({ seconds: 500 });
    await test.mine({ blocks: 3 });
    const head = await test.getBlock();
    headHash = head.hash;
    chainTime = head.timestamp;
    await stop(first);
  }, 120_000);

  it('the second start with the same data replays the saved blocks: the stake, its transaction and the clock are there', async () => {
    const second = await start();
    expect(second.notice).toBeNull();
    expect(second.replayed).toBeGreaterThanOrEqual(6);
    const { test } = clients(second);
    expect((await test.getBlock({ blockNumber: BigInt(second.replayed) })).hash).toBe(headHash);
    expect(BigInt(await stakeHash(second, stakeId))).not.toBe(0n);
    expect((await test.getTransactionReceipt({ hash: depositHash })).status).toBe('success');
    // The clock goes on from where it was ahead of the wall clock.
    expect((await test.getBlock()).timestamp).toBeGreaterThanOrEqual(chainTime);
    // MarketEscrow is found where the first start deployed it, not deployed again.
    expect(second.marketEscrow).toEqual(marketEscrow);
    expect(await marketEscrowOf(second)).toEqual(marketEscrow);
    expect(await marketCoinCount(second, MARKET_ESCROW)).toBe(8);
    await stop(second);
  }, 120_000);

  it('a folder saved before MarketEscrow was: replayed, MarketEscrow deployed on it and found at the next start', async () => {
    const meta = JSON.parse(readFileSync(join(dataDir, META_FILE), 'utf8'));
    const { marketEscrow: _, ...older } = meta;
    writeFileSync(join(dataDir, META_FILE), JSON.stringify(older));
    const replayed = await start();
    expect(replayed.notice).toBeNull();
    expect(replayed.marketEscrow).toBeNull();
    // The one the first start deployed is still on the chain; the folder did not say, so another comes.
    const deployed = await marketEscrowOf(replayed);
    expect(deployed.address).not.toBe(MARKET_ESCROW);
    await stop(replayed);
    const again = await start();
    expect(again.notice).toBeNull();
    expect(again.marketEscrow).toEqual(deployed);
    await stop(again);
  }, 180_000);

  it('a saved chain that cannot be restored is said in one line, moved aside, and the start is on fresh data', async () => {
    // A state change no block holds (hardhat_setBalance): the replay makes other blocks than the saved ones.
    const third = await start();
    const { test } = clients(third);
    await test.setBalance({ address: DEV_PLAYERS[1].address, value: parseEther('1') });
    await test.mine({ blocks: 1 });
    await stop(third);
    mkdirSync(join(dataDir, 'pglite'));
    writeFileSync(join(dataDir, 'pglite', 'PG_VERSION'), '18\n');

    const fourth = await start();
    expect(fourth.notice).toMatch(
      new RegExp(
        `^The saved dev chain in ${dataDir} cannot be restored \\(its replay made another block \\d+ than the one saved\\): moved it to ${root}/data\\.old-[^ ]+; starting on fresh data\\.$`,
      ),
    );
    expect(movedAside()).toHaveLength(1);
    const [aside] = movedAside();
    expect(existsSync(join(root, aside ?? '', 'pglite', 'PG_VERSION'))).toBe(true);
    // Fresh: no saved database, a new escrow without the first run's stake.
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    expect(fourth.replayed).toBe(0);
    expect(BigInt(await stakeHash(fourth, stakeId))).toBe(0n);
    await stop(fourth);
  }, 180_000);

  it('so is a folder saved by an earlier version (no blocks), and one whose genesis this node cannot make', async () => {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(join(dataDir, 'pglite'), { recursive: true });
    writeFileSync(join(dataDir, 'chain-state.json'), '{}');
    const legacy = await start();
    expect(legacy.notice).toMatch(
      /cannot be restored \(it was saved by an earlier npm start, which kept no blocks of the chain\)/,
    );
    await stop(legacy);

    const meta = JSON.parse(readFileSync(join(dataDir, META_FILE), 'utf8'));
    writeFileSync(join(dataDir, META_FILE), JSON.stringify({ ...meta, genesisTime: meta.genesisTime - 1 }));
    const moved = movedAside().length;
    const other = await start();
    expect(other.notice).toMatch(/cannot be restored \(this Hardhat makes another genesis block/);
    expect(movedAside()).toHaveLength(moved + 1);
    await stop(other);
  }, 180_000);

  it('a saved MarketEscrow whose code is not this build: said in one line, moved aside, fresh data', async () => {
    const saved = await start();
    await marketEscrowOf(saved);
    await stop(saved);
    const meta = JSON.parse(readFileSync(join(dataDir, META_FILE), 'utf8'));
    const moved = movedAside().length;
    // The PredictionEscrow's address stands for a MarketEscrow of another build.
    writeFileSync(
      join(dataDir, META_FILE),
      JSON.stringify({ ...meta, marketEscrow: { ...meta.marketEscrow, address: meta.escrow.address } }),
    );
    const other = await start();
    expect(other.notice).toMatch(
      /cannot be restored \(its MarketEscrow 0x[0-9a-fA-F]{40} is an earlier build of the contract than this one\)/,
    );
    expect(movedAside()).toHaveLength(moved + 1);
    expect(other.replayed).toBe(0);
    expect(other.marketEscrow).toBeNull();
    await stop(other);
  }, 180_000);
});

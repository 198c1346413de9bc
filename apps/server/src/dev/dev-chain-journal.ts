import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { expectedRuntimeCodeHash, runtimeCodeHash } from '@pm/escrow/deploy';
import { marketEscrowCodeHash, marketEscrowRuntimeCodeHash } from '@pm/escrow/deploy-market-escrow';
import {
  type Address,
  getAddress,
  type Hex,
  keccak256,
  serializeTransaction,
  type Transaction,
  type TransactionSerializable,
} from 'viem';
import { z } from 'zod';
import { findDataFolderHolder } from '../db/data-folder-lock.ts';
import { deployDevEscrow } from './dev-escrow.ts';
import { type LocalChain, startLocalChain } from './local-chain.ts';

// Decisions 003 and 026 "The chain": the Hardhat node keeps its chain in memory, the data folder keeps
// the database on disk. So that a second `npm start` finds the chain the database knows (the escrow's
// stakes, its settlements, every block and transaction hash the database recorded), the stack writes
// every block the node mines to DATA_DIR/dev-chain-blocks.jsonl as it comes (its time, its hash, its
// transactions as signed), and the next start replays them on a node started with the same genesis
// time: the same blocks, hash for hash. When that cannot be (no blocks saved, an earlier version's
// data, a transaction that cannot be sent again, another genesis, another escrow build), it says so in
// one line, moves the old data folder aside and starts on fresh data, never showing stakes the
// contract does not hold.

export const META_FILE = 'dev-chain.json';
export const BLOCKS_FILE = 'dev-chain-blocks.jsonl';
/** What an earlier `npm start` saved instead: balances and nonces only (decision 003, first version). */
const LEGACY_STATE_FILE = 'chain-state.json';

const MetaSchema = z.object({
  version: z.literal(1),
  genesisTime: z.number().int(),
  genesisHash: z.string(),
  escrow: z.object({ address: z.string(), blockNumber: z.string() }),
  /**
   * MarketEscrow (docs/decisions/034), deployed by the stack after the dev feeds; absent in a folder
   * saved before it was, whose next start deploys it on the replayed chain.
   */
  marketEscrow: z.object({ address: z.string(), blockNumber: z.string() }).optional(),
  /** How far the chain's clock ran ahead of the wall clock when last saved (evm_increaseTime). */
  clockAheadS: z.number().int(),
  /** Why these blocks cannot be replayed (a transaction not sendable again as it was); null when they can. */
  unreplayable: z.string().nullable(),
});
export type DevChainMeta = z.infer<typeof MetaSchema>;

/** One saved block: its number, time and hash, and its transactions as signed (raw). */
type SavedBlock = { number: bigint; timestamp: number; hash: Hex; transactions: Hex[] };

type Deployed = { address: Address; blockNumber: bigint };

export type DevChainStart = {
  chain: LocalChain;
  escrow: Deployed;
  /** MarketEscrow on a replayed chain that has it (its code checked); null on a fresh one, or one saved before it. */
  marketEscrow: Deployed | null;
  /** Writes down where MarketEscrow was deployed on this chain, so the next start finds it. */
  recordMarketEscrow(deployed: Deployed): void;
  /** The one line to show when the saved chain could not be restored (and where the old data went); else null. */
  notice: string | null;
  /** Blocks replayed from the data folder (0 on fresh data). */
  replayed: number;
  /** Writes each block the node mines from now on; `stop()` writes the last ones. */
  recorder: DevChainRecorder;
};

export type DevChainRecorder = { stop(): Promise<void> };
const NO_RECORDER: DevChainRecorder = { stop: async () => {} };

/**
 * The dev chain for `dataDir`: the saved one replayed, or a fresh one (with the escrow deployed) when
 * there is none or it cannot be restored. Refuses while another process holds the data folder.
 */
export async function startDevChain(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /** Said in the notice when the database is elsewhere (DATABASE_URL) and so is not made fresh. */
  databaseUrl?: string | undefined;
  /**
   * Write the blocks for the next start (default true). A stack on a folder thrown away at its end
   * (a bench's) may save the node the reads.
   */
  record?: boolean;
}): Promise<DevChainStart> {
  const { dataDir } = options;
  const holder = findDataFolderHolder(dataDir);
  if (holder) {
    throw new Error(
      `the data folder ${dataDir} is held by ${holder.purpose} (pid ${holder.pid}): stop it first, or give this stack another DATA_DIR`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const saved = readSaved(dataDir);
  if (saved.kind === 'saved') {
    const restored = await restore(dataDir, saved.meta, options).catch((error: unknown) => ({
      failed: error instanceof Error ? error.message : String(error),
    }));
    if (!('failed' in restored)) return restored;
    return fresh(dataDir, options, moveAside(dataDir, restored.failed, options.databaseUrl));
  }
  const notice = saved.kind === 'unrestorable' ? moveAside(dataDir, saved.reason, options.databaseUrl) : null;
  return fresh(dataDir, options, notice);
}

type Saved =
  | { kind: 'none' }
  | { kind: 'unrestorable'; reason: string }
  | { kind: 'saved'; meta: DevChainMeta };

function readSaved(dataDir: string): Saved {
  const metaPath = join(dataDir, META_FILE);
  if (!existsSync(metaPath)) {
    const left = readdirSync(dataDir);
    if (left.length === 0) return { kind: 'none' };
    return {
      kind: 'unrestorable',
      reason: left.includes(LEGACY_STATE_FILE)
        ? 'it was saved by an earlier npm start, which kept no blocks of the chain'
        : 'it holds no saved chain',
    };
  }
  let meta: DevChainMeta;
  try {
    meta = MetaSchema.parse(JSON.parse(readFileSync(metaPath, 'utf8')));
  } catch {
    return { kind: 'unrestorable', reason: `its ${META_FILE} cannot be read` };
  }
  if (meta.unreplayable) return { kind: 'unrestorable', reason: meta.unreplayable };
  return { kind: 'saved', meta };
}

async function restore(
  dataDir: string,
  meta: DevChainMeta,
  options: { port: number; log?: (line: string) => void; record?: boolean },
): Promise<DevChainStart> {
  const blocks = readBlocks(join(dataDir, BLOCKS_FILE));
  const chain = await startLocalChain({ port: options.port, genesisTime: meta.genesisTime });
  try {
    const genesis = await rpc<{ hash: Hex }>(chain.rpcUrl, 'eth_getBlockByNumber', ['0x0', false]);
    if (genesis.hash !== meta.genesisHash) {
      throw new Error('this Hardhat makes another genesis block (chain/hardhat.config.ts changed)');
    }
    if (blocks.length > 0)
      options.log?.(`Replaying the dev chain: ${blocks.length} block(s) from ${dataDir}`);
    await replay(chain.rpcUrl, blocks);
    const last = blocks.at(-1);
    const head = await rpc<{ hash: Hex; number: Hex; timestamp: Hex }>(chain.rpcUrl, 'eth_getBlockByNumber', [
      'latest',
      false,
    ]);
    if (last && head.hash !== last.hash) {
      throw new Error(`its replay made another block ${last.number} than the one saved`);
    }
    const escrow = getAddress(meta.escrow.address);
    const code = await rpc<Hex>(chain.rpcUrl, 'eth_getCode', [escrow, 'latest']);
    if (code === '0x') throw new Error(`its escrow ${escrow} is not on the replayed chain`);
    if (runtimeCodeHash(code) !== expectedRuntimeCodeHash()) {
      throw new Error(`its escrow ${escrow} is an earlier build of the contract than this one`);
    }
    const marketEscrow = meta.marketEscrow ? getAddress(meta.marketEscrow.address) : null;
    if (marketEscrow) {
      const marketCode = await rpc<Hex>(chain.rpcUrl, 'eth_getCode', [marketEscrow, 'latest']);
      if (marketCode === '0x')
        throw new Error(`its MarketEscrow ${marketEscrow} is not on the replayed chain`);
      if (marketEscrowCodeHash(marketCode) !== marketEscrowRuntimeCodeHash()) {
        throw new Error(`its MarketEscrow ${marketEscrow} is an earlier build of the contract than this one`);
      }
    }
    // The chain's clock goes on where it stood against the wall clock, as a node left running would.
    const target = Math.floor(Date.now() / 1000) + meta.clockAheadS;
    if (target > Number(head.timestamp)) await rpc(chain.rpcUrl, 'evm_mine', [target]);
    const recorder =
      options.record === false
        ? NO_RECORDER
        : startRecorder(chain.rpcUrl, dataDir, meta, BigInt(head.number));
    return {
      chain,
      escrow: { address: escrow, blockNumber: BigInt(meta.escrow.blockNumber) },
      marketEscrow:
        marketEscrow && meta.marketEscrow
          ? { address: marketEscrow, blockNumber: BigInt(meta.marketEscrow.blockNumber) }
          : null,
      recordMarketEscrow: marketEscrowRecorder(dataDir, meta, options.record !== false),
      notice: null,
      replayed: blocks.length,
      recorder,
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

async function fresh(
  dataDir: string,
  options: { port: number; record?: boolean },
  notice: string | null,
): Promise<DevChainStart> {
  const genesisTime = Math.floor(Date.now() / 1000);
  const chain = await startLocalChain({ port: options.port, genesisTime });
  try {
    const genesis = await rpc<{ hash: Hex }>(chain.rpcUrl, 'eth_getBlockByNumber', ['0x0', false]);
    // The escrow, one transaction from the dev admin (#20): the same address on every fresh chain.
    const deployed = await deployDevEscrow(chain.rpcUrl);
    const meta: DevChainMeta = {
      version: 1,
      genesisTime,
      genesisHash: genesis.hash,
      escrow: { address: deployed.address, blockNumber: String(deployed.blockNumber) },
      clockAheadS: 0,
      unreplayable: null,
    };
    let recorder = NO_RECORDER;
    if (options.record !== false) {
      writeFileSync(join(dataDir, BLOCKS_FILE), '');
      writeMeta(dataDir, meta);
      recorder = startRecorder(chain.rpcUrl, dataDir, meta, 0n);
    }
    return {
      chain,
      escrow: { address: deployed.address, blockNumber: deployed.blockNumber },
      marketEscrow: null,
      recordMarketEscrow: marketEscrowRecorder(dataDir, meta, options.record !== false),
      notice,
      replayed: 0,
      recorder,
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

/**
 * Writes MarketEscrow's deployment into the chain's meta (the recorder's own object, so its next
 * write keeps it): the stack deploys it after the dev feeds, once the chain has started.
 */
function marketEscrowRecorder(dataDir: string, meta: DevChainMeta, record: boolean) {
  return (deployed: Deployed) => {
    meta.marketEscrow = { address: deployed.address, blockNumber: String(deployed.blockNumber) };
    if (record) writeMeta(dataDir, meta);
  };
}

/** Moves the data folder aside (beside it, named by the time), and says so in one line. */
function moveAside(dataDir: string, reason: string, databaseUrl: string | undefined): string {
  const why = (reason.split('\n')[0] ?? '').slice(0, 200);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = join(dirname(dataDir), `${basename(dataDir)}.old-${stamp}`);
  renameSync(dataDir, target);
  mkdirSync(dataDir, { recursive: true });
  const database = databaseUrl ? '; DATABASE_URL is not in it, so empty that database yourself' : '';
  return `The saved dev chain in ${dataDir} cannot be restored (${why}): moved it to ${target}${database}; starting on fresh data.`;
}

/** The saved blocks in order; a last line cut short by a crash is left out. */
function readBlocks(path: string): SavedBlock[] {
  if (!existsSync(path)) return [];
  const blocks: SavedBlock[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      if (index >= lines.length - 2) return;
      throw new Error(`line ${index + 1} of ${BLOCKS_FILE} cannot be read`, { cause: error });
    }
    const [number, timestamp, hash, ...transactions] = z
      .tuple([z.string(), z.number(), z.string()], z.string())
      .parse(parsed);
    blocks.push({
      number: BigInt(number),
      timestamp,
      hash: hash as Hex,
      transactions: transactions as Hex[],
    });
  });
  return blocks;
}

/**
 * Mines the saved blocks again, each at its own time with its transactions sent in their order
 * (the node mines its pool first in, first out: chain/hardhat.config.ts).
 */
async function replay(rpcUrl: string, blocks: readonly SavedBlock[]): Promise<void> {
  if (blocks.length === 0) return;
  await rpc(rpcUrl, 'evm_setAutomine', [false]);
  try {
    let expected = 1n;
    for (const block of blocks) {
      if (block.number !== expected)
        throw new Error(`its blocks skip from ${expected - 1n} to ${block.number}`);
      for (const raw of block.transactions) await rpc(rpcUrl, 'eth_sendRawTransaction', [raw]);
      await rpc(rpcUrl, 'evm_mine', [block.timestamp]);
      expected += 1n;
    }
  } finally {
    await rpc(rpcUrl, 'evm_setAutomine', [true]);
  }
}

/**
 * Writes every block the node mines after `from`, as it comes (twice a second), and the clock's
 * lead at each; a transaction that cannot be sent again as it was (an impersonated account's) marks
 * the blocks unreplayable, which the next start says.
 */
function startRecorder(rpcUrl: string, dataDir: string, meta: DevChainMeta, from: bigint): DevChainRecorder {
  let recorded = from;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const step = async () => {
    if (meta.unreplayable) return;
    const head = BigInt(await rpc<Hex>(rpcUrl, 'eth_blockNumber', []));
    const lines: string[] = [];
    let latestTime = 0;
    while (recorded < head && !meta.unreplayable) {
      const number = recorded + 1n;
      const block = await rpc<RpcBlock>(rpcUrl, 'eth_getBlockByNumber', [`0x${number.toString(16)}`, true]);
      const raws: Hex[] = [];
      for (const tx of block.transactions) {
        const raw = rawTransaction(tx);
        if (!raw) {
          meta.unreplayable = `transaction ${tx.hash} of block ${number} cannot be sent again as it was signed (an impersonated account's?)`;
          break;
        }
        raws.push(raw);
      }
      if (meta.unreplayable) break;
      lines.push(JSON.stringify([number.toString(), Number(block.timestamp), block.hash, ...raws]));
      latestTime = Number(block.timestamp);
      recorded = number;
    }
    if (lines.length > 0) appendFileSync(join(dataDir, BLOCKS_FILE), `${lines.join('\n')}\n`);
    if (lines.length > 0 || meta.unreplayable) {
      if (latestTime > 0) meta.clockAheadS = Math.max(0, latestTime - Math.floor(Date.now() / 1000));
      writeMeta(dataDir, meta);
    }
  };
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(step).catch(() => {
      // The node is stopping or busy: the next step reads on from the last block written.
    });
  }, 500);
  timer.unref();
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await running;
      await step().catch(() => {});
    },
  };
}

type RpcBlock = { hash: Hex; timestamp: Hex; transactions: RpcTransaction[] };
type RpcTransaction = Record<string, unknown> & { hash: Hex };

/** The transaction as it was signed, checked by its hash; null when it cannot be made again. */
export function rawTransaction(rpcTx: RpcTransaction): Hex | null {
  const tx = formatRpcTransaction(rpcTx);
  const fields: TransactionSerializable = {
    type: tx.type,
    chainId: tx.chainId,
    nonce: tx.nonce,
    gas: tx.gas,
    to: tx.to,
    value: tx.value,
    data: tx.input,
    ...(tx.type === 'legacy'
      ? { gasPrice: tx.gasPrice }
      : tx.type === 'eip2930'
        ? { gasPrice: tx.gasPrice, accessList: tx.accessList }
        : {
            maxFeePerGas: tx.maxFeePerGas,
            maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
            accessList: tx.accessList,
            ...(tx.type === 'eip7702' ? { authorizationList: tx.authorizationList } : {}),
          }),
  } as TransactionSerializable;
  try {
    const raw = serializeTransaction(fields, { r: tx.r, s: tx.s, v: tx.v, yParity: tx.yParity });
    return keccak256(raw) === tx.hash ? raw : null;
  } catch {
    return null;
  }
}

function formatRpcTransaction(rpcTx: RpcTransaction): Transaction {
  const hex = (key: string) => (typeof rpcTx[key] === 'string' ? BigInt(rpcTx[key] as string) : undefined);
  const type = (
    { '0x0': 'legacy', '0x1': 'eip2930', '0x2': 'eip1559', '0x3': 'eip4844', '0x4': 'eip7702' } as const
  )[rpcTx.type as '0x0'];
  const authorizationList = Array.isArray(rpcTx.authorizationList)
    ? (rpcTx.authorizationList as Record<string, string>[]).map((each) => ({
        address: each.address as Address,
        chainId: Number(each.chainId),
        nonce: Number(each.nonce),
        r: each.r as Hex,
        s: each.s as Hex,
        yParity: Number(each.yParity),
      }))
    : undefined;
  return {
    ...rpcTx,
    type,
    chainId: rpcTx.chainId === undefined ? undefined : Number(rpcTx.chainId),
    nonce: Number(rpcTx.nonce),
    gas: hex('gas'),
    gasPrice: hex('gasPrice'),
    maxFeePerGas: hex('maxFeePerGas'),
    maxPriorityFeePerGas: hex('maxPriorityFeePerGas'),
    value: hex('value'),
    v: hex('v'),
    yParity: rpcTx.yParity === undefined ? undefined : Number(rpcTx.yParity),
    authorizationList,
  } as unknown as Transaction;
}

function writeMeta(dataDir: string, meta: DevChainMeta): void {
  const path = join(dataDir, META_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(meta, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

let rpcId = 0;
/** One JSON-RPC call (the replay is thousands of them, each its own so their order holds). */
async function rpc<T = unknown>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

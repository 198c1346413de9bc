import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expectedRuntimeCodeHash, runtimeCodeHash } from '@pm/escrow/deploy';
import { type PayoutList, parsePayoutList } from '@pm/escrow/payout-list';
import { formatSettlementReport, verifySettlement } from '@pm/escrow/verify-settlement';
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  isAddress,
  type PublicClient,
} from 'viem';
import { createChainClient } from '../chain/chain-client.ts';
import type { Config } from '../config/config.ts';
import { describeError } from '../errors/describe-error.ts';
import {
  CouldNotCheckError,
  type OpsArgs,
  type OpsCommand,
  RefusedError,
  UsageError,
} from './ops-commands.ts';

// `npm run ops -- vault:verify` (docs/decisions/026 "Payout lists", docs/operations.md): anyone
// holding a published payout list and an RPC checks it against the escrow's own events, trusting
// neither the server nor the list (packages/escrow/src/verify-settlement.ts; its standalone script is
// packages/escrow/scripts/verify-settlement.ts). The deployment's settings are read only for what the
// command line leaves out (RPC_URL, ESCROW_ADDRESS, PORT), so it runs with `--rpc` and `--escrow`
// where no server is configured. Exit 0: the list matches the chain; 1: it does not, every
// discrepancy printed; 2: it could not be checked (the list unreadable, the RPC down, no escrow).

export type VaultVerifyContext = {
  out: (line: string) => void;
  /** The deployment's settings, read only when an option is left out; may throw its ConfigError. */
  settings: () => Config;
  /** The chain to read; absent → `--rpc`, else RPC_URL. */
  chain?: PublicClient;
};

/** How long a published list may take to download. */
const FETCH_TIMEOUT_MS = 30_000;

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** JSON with bigints as decimal strings (wei, blocks), as the other vault:* commands print. */
const json = (value: unknown) =>
  JSON.stringify(value, (_, each) => (typeof each === 'bigint' ? each.toString() : each));

export const vaultVerifyCommand: OpsCommand<VaultVerifyContext> = {
  name: 'vault:verify',
  usage:
    'vault:verify <marketKey or market id> [--list <file or URL>] [--escrow <address>] [--rpc <url>] [--from-block N] [--to-block N] [--max-block-range N]',
  summary:
    "Check a market's published payout list against the escrow on chain (its settlement, deposits, refunds and claims), with only an RPC: the list from --list (a file, or the URL it is published at), else this server's GET /api/payout-lists/<marketKey>; the escrow from --escrow or ESCROW_ADDRESS, the chain from --rpc or RPC_URL. Exit 0 when it matches, 1 with every discrepancy, 2 when it could not check",
  options: {
    list: { type: 'string' },
    escrow: { type: 'string' },
    rpc: { type: 'string' },
    'from-block': { type: 'string' },
    'to-block': { type: 'string' },
    'max-block-range': { type: 'string' },
  },
  async run(context, args) {
    const { market, values } = parseArgs(args);
    const settings = lazySettings(context);
    const escrow = escrowOf(values.escrow, settings);
    const chain = context.chain ?? chainOf(values.rpc, settings);
    const source = values.list ?? publishedListUrl(settings(), market);
    const list = await readList(source);
    if (list.marketKey !== market && list.marketId !== market) {
      throw new CouldNotCheckError(
        `${source} is the list of market ${list.marketKey} (id ${list.marketId}), not of ${market}.`,
      );
    }

    const report = await (async () => {
      try {
        // The same last block for the code check and every event read.
        const toBlock = values.toBlock ?? (await chain.getBlockNumber({ cacheTime: 0 }));
        await checkEscrowCode(chain, escrow, toBlock);
        // The configured escrow's events start at its deployment; another's, named by --escrow, at
        // --from-block or the chain's first block.
        const fromBlock =
          values.range.fromBlock ?? (values.escrow === undefined ? settings().escrow.deployBlock : undefined);
        return await verifySettlement(chain, escrow, list, {
          ...values.range,
          ...(fromBlock === undefined ? {} : { fromBlock }),
          toBlock,
        });
      } catch (error) {
        if (error instanceof CouldNotCheckError) throw error;
        throw new CouldNotCheckError(`the chain could not be read: ${describeError(error)}`, {
          cause: error,
        });
      }
    })();
    for (const line of formatSettlementReport(report).split('\n')) context.out(line);
    context.out(json({ source, ...report }));
    if (!report.ok) {
      const count = report.discrepancies.length;
      throw new RefusedError(
        `the payout list of market ${list.marketKey} does not match the chain (${count} ${count === 1 ? 'discrepancy' : 'discrepancies'}).`,
      );
    }
  },
};

type VerifyValues = {
  list?: string;
  escrow?: string;
  rpc?: string;
  toBlock?: bigint;
  range: { fromBlock?: bigint; maxBlockRange?: bigint };
};

function parseArgs({ positionals, values }: OpsArgs): { market: Hex; values: VerifyValues } {
  const [market, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`vault:verify takes one market, not also '${rest[0]}'.`);
  if (!market || !BYTES32.test(market)) {
    throw new UsageError(
      "Give the market's escrow key (PredictionEscrow.marketKey(id, closesAt)) or its escrow id: 0x and 64 hex digits.",
    );
  }
  const text = (name: string) => {
    const value = values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} takes a value.`);
    return value;
  };
  const block = (name: string) => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (!/^[0-9]{1,20}$/.test(value)) throw new UsageError(`--${name} takes a block number, not '${value}'.`);
    return BigInt(value);
  };
  const maxBlockRange = block('max-block-range');
  if (maxBlockRange === 0n) throw new UsageError('--max-block-range must be at least 1.');
  const fromBlock = block('from-block');
  const toBlock = block('to-block');
  if (fromBlock !== undefined && toBlock !== undefined && fromBlock > toBlock)
    throw new UsageError(`--from-block ${fromBlock} is after --to-block ${toBlock}.`);
  return {
    market: market.toLowerCase() as Hex,
    values: {
      list: text('list'),
      escrow: text('escrow'),
      rpc: text('rpc'),
      toBlock,
      range: { fromBlock, maxBlockRange },
    },
  };
}

/** The deployment's settings, read once and only if needed; a bad setting is a usage error naming it. */
function lazySettings(context: VaultVerifyContext): () => Config {
  let settings: Config | undefined;
  return () => {
    if (settings) return settings;
    try {
      settings = context.settings();
      return settings;
    } catch (error) {
      throw new UsageError(
        `${error instanceof Error ? error.message : String(error)}\nGive --rpc, --escrow and --list to check without this deployment's settings.`,
      );
    }
  };
}

function escrowOf(given: string | undefined, settings: () => Config): Address {
  if (given !== undefined) {
    if (!isAddress(given, { strict: false }))
      throw new UsageError(`--escrow takes an address, not '${given}'.`);
    return getAddress(given);
  }
  const configured = settings().escrow.address;
  if (!configured) {
    throw new UsageError(
      'Give --escrow <address>, the escrow the bettors paid into (GET /api/vault names it), or set ESCROW_ADDRESS. The list names one too, but a list cannot vouch for itself.',
    );
  }
  return getAddress(configured);
}

function chainOf(rpc: string | undefined, settings: () => Config): PublicClient {
  if (rpc === undefined) return createChainClient(settings().chain);
  if (!URL.canParse(rpc)) throw new UsageError(`--rpc takes a URL, not '${rpc}'.`);
  return createPublicClient({ transport: http(rpc, { retryCount: 2, timeout: 10_000 }) });
}

/** Where this deployment's server publishes a market's list (GET /api/payout-lists/:key), on loopback. */
function publishedListUrl(settings: Config, market: Hex): string {
  return `http://127.0.0.1:${settings.port}/api/payout-lists/${market}`;
}

/** The list from a URL (http or https) or a file, read and parsed; what goes wrong is "could not check". */
async function readList(source: string): Promise<PayoutList> {
  let text: string;
  if (/^https?:\/\//i.test(source)) {
    let response: Response;
    try {
      response = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    } catch (error) {
      throw new CouldNotCheckError(`GET ${source} failed: ${describeError(error)}`, { cause: error });
    }
    if (!response.ok) {
      const hint =
        response.status === 404
          ? ' (no list published under that market yet? The list is published by the market key, not its id.)'
          : '';
      throw new CouldNotCheckError(`GET ${source} answered ${response.status}${hint}`);
    }
    text = await response.text();
  } else {
    // npm runs workspace scripts inside apps/server: a relative path is taken from where
    // `npm run ops` was typed (INIT_CWD), as DATA_DIR is.
    const path = resolve(process.env.INIT_CWD ?? process.cwd(), source);
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new CouldNotCheckError(`cannot read ${path}: ${describeError(error)}`, { cause: error });
    }
  }
  try {
    return parsePayoutList(text);
  } catch (error) {
    throw new CouldNotCheckError(`${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The escrow is this build's PredictionEscrow at `blockNumber`: its events are read with this build's
 * ABI, and a contract of other code at the address could emit anything.
 */
async function checkEscrowCode(chain: PublicClient, escrow: Address, blockNumber: bigint): Promise<void> {
  const code = await chain.getCode({ address: escrow, blockNumber });
  if (!code || code === '0x') {
    throw new CouldNotCheckError(
      `no contract at ${escrow} at block ${blockNumber}: is it the escrow (--escrow, ESCROW_ADDRESS), on this chain?`,
    );
  }
  const hash = runtimeCodeHash(code);
  if (hash !== expectedRuntimeCodeHash()) {
    throw new CouldNotCheckError(
      `the code at ${escrow} is not this build's PredictionEscrow (code hash ${hash}, this build's ${expectedRuntimeCodeHash()}): check it with the build that deployed it.`,
    );
  }
}

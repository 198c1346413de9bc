import { EscrowNotFoundError, type EscrowStatus, readEscrowStatus } from '@pm/escrow/deploy';
import { marketEscrowCodeHash } from '@pm/escrow/deploy-market-escrow';
import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import {
  type Address,
  createTestClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  zeroAddress,
} from 'viem';
import { type Clock, createChainClock, systemClock } from '../chain/clock.ts';
import { type Config, ConfigError, loadConfig } from '../config/config.ts';
import { createRedactor } from '../config/logger.ts';
import { marketEscrowFeeds, marketEscrowFees } from '../escrow/market-escrow-settings.ts';
import { createSearchProvider } from '../evidence/search-providers.ts';
import { checkAiModel } from './ai-checks.ts';
import { checkChainId, checkOperatorGas, checkPublicRpc, doctorChainClient } from './chain-checks.ts';
import {
  checkDatabaseAnswers,
  checkMigrationsCurrent,
  type DoctorDatabase,
  openDoctorDatabase,
} from './database-checks.ts';
import {
  checkEscrowCode,
  checkEscrowCoversLiabilities,
  checkEscrowDeployBlock,
  checkEscrowEscapeDelay,
  checkEscrowLimits,
  checkEscrowNotPaused,
  checkEscrowOperator,
  checkEscrowRoles,
  checkMarketEscrowCode,
  checkMarketEscrowFeeds,
  checkMarketEscrowFees,
  type DeployBlockReading,
  type MarketEscrowReading,
} from './escrow-checks.ts';
import {
  checkCoinFeed,
  checkFeedAddresses,
  checkFeedIdentity,
  coinFeedsToCheck,
  feedIdentityTitle,
} from './price-checks.ts';
import { checkTrustProxy } from './proxy-checks.ts';
import { checkRpcBatch } from './rpc-batch-checks.ts';
import { type DoctorCheck, defineCheck, failed, passed, runChecks } from './run-checks.ts';
import { checkSearchProvider } from './search-checks.ts';

// `npm run ops -- doctor` (docs/operations.md "Preflight"): checks a deployment with the
// server's own settings before it takes real BNB. One line per check; exit code 1 on any ✖.

/** How long each kind of call may take; every check has its own backstop a little above. */
export type DoctorTimeouts = { rpcMs: number; databaseMs: number; aiMs: number; searchMs: number };

export const DEFAULT_DOCTOR_TIMEOUTS: DoctorTimeouts = {
  rpcMs: 5_000,
  // PGlite takes a few seconds to open on a busy machine; PostgreSQL's connect and queries get this too.
  databaseMs: 20_000,
  aiMs: 20_000,
  searchMs: 10_000,
};

export type DoctorOptions = {
  /** The environment, read by the server's own config loader. */
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  /** Where a relative DATA_DIR is taken from (as the server takes it). */
  base?: string;
  /** Opens the database without migrating it; tests pass their own. */
  openDatabase?: (config: Config) => Promise<DoctorDatabase>;
  timeouts?: Partial<DoctorTimeouts>;
};

/** Runs every check and answers the exit code: 0 when all passed, else 1. */
export async function runDoctor(options: DoctorOptions): Promise<number> {
  const { out } = options;
  let config: Config;
  try {
    config = loadConfig(options.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // The other checks need the settings: the problems, then stop.
    const [, ...problems] = error.message.split('\n');
    out('✖ settings parse: the server would refuse to start');
    for (const problem of problems) out(`    ${problem.trim()}`);
    return 1;
  }
  out(`✔ settings parse: ${describeSettings(config)}`);

  const timeouts = { ...DEFAULT_DOCTOR_TIMEOUTS, ...options.timeouts };
  const openDatabase =
    options.openDatabase ??
    ((settings: Config) =>
      openDoctorDatabase(settings.database, {
        base: options.base ?? process.cwd(),
        timeoutMs: timeouts.databaseMs,
      }));
  let opening: Promise<DoctorDatabase> | undefined;
  const database = () => {
    opening ??= openDatabase(config);
    return opening;
  };
  try {
    const checks = doctorChecks(config, { database, timeouts });
    const reports = await runChecks(checks, { out, redact: createRedactor(config) });
    const failures = reports.filter((report) => report.status === 'failed').length;
    const skipped = reports.filter((report) => report.status === 'skipped').length;
    const warnings = reports.filter((report) => report.status === 'warned').length;
    if (failures === 0 && skipped === 0) {
      const warned = warnings ? `, ${plural(warnings, 'warning')} (⚠) to act on` : '';
      out(`Ready: all ${reports.length + 1} checks passed${warned}.`);
      return 0;
    }
    out(`Not ready: ${plural(failures, 'check')} failed${skipped ? `, ${skipped} skipped` : ''}.`);
    return 1;
  } finally {
    await opening?.then((open) => open.close()).catch(() => {});
  }
}

function doctorChecks(
  config: Config,
  deps: {
    database: () => Promise<DoctorDatabase>;
    timeouts: DoctorTimeouts;
  },
): DoctorCheck[] {
  const { timeouts } = deps;
  // Each check's backstop: its calls' own timeouts, and a little room.
  const rpcBound = { timeoutMs: timeouts.rpcMs * 2 + 1_000 };
  const chainId = config.chain.id;
  const chain = doctorChainClient(config.chain.rpcUrl, timeouts.rpcMs);

  const rpc = defineCheck(`RPC_URL serves CHAIN_ID ${chainId}`, () => checkChainId(chain, chainId), rpcBound);
  const batch = defineCheck(
    `RPC_URL answers a batch of RPC_BATCH_SIZE (${config.chain.rpcBatchSize}) calls`,
    () => checkRpcBatch(config.chain.rpcUrl, config.chain.rpcBatchSize, timeouts.rpcMs),
    { ...rpcBound, needs: [rpc] },
  );
  const operatorGas = defineCheck(
    'OPERATOR_PRIVATE_KEY is set and has gas',
    () => checkOperatorGas(chain, config.operator.privateKey),
    { ...rpcBound, needs: [rpc] },
  );
  const databaseAnswers = defineCheck(
    'database answers',
    async () => checkDatabaseAnswers(await deps.database()),
    { timeoutMs: timeouts.databaseMs + 1_000 },
  );
  const migrations = defineCheck(
    'database migrations are current',
    async () => checkMigrationsCurrent((await deps.database()).db),
    { timeoutMs: timeouts.databaseMs, needs: [databaseAnswers] },
  );
  const trustProxy = defineCheck(
    'TRUST_PROXY fits the requests seen',
    async () => checkTrustProxy(config.http.trustProxy, (await deps.database()).db),
    { timeoutMs: timeouts.databaseMs, needs: [databaseAnswers, migrations] },
  );
  const publicRpc =
    config.chain.publicRpcUrl === config.chain.rpcUrl
      ? defineCheck(
          `PUBLIC_RPC_URL serves CHAIN_ID ${chainId}`,
          async () => passed('unset: browsers get RPC_URL, checked above'),
          { timeoutMs: 1_000, needs: [rpc] },
        )
      : defineCheck(
          `PUBLIC_RPC_URL serves CHAIN_ID ${chainId}`,
          () => checkPublicRpc(doctorChainClient(config.chain.publicRpcUrl, timeouts.rpcMs), chainId),
          rpcBound,
        );
  return [
    rpc,
    batch,
    operatorGas,
    databaseAnswers,
    migrations,
    ...escrowChecks(config, { chain, rpc, timeouts }),
    ...marketEscrowChecks(config, { chain, rpc, timeouts }),
    ...priceFeedChecks(config, { chain, rpc, timeouts }),
    ...aiChecks(config, timeouts),
    searchCheck(config, timeouts),
    publicRpc,
    trustProxy,
  ];
}

/** The escrow contract at ESCROW_ADDRESS, read once at one block; one line when it is not configured. */
function escrowChecks(
  config: Config,
  deps: { chain: ReturnType<typeof doctorChainClient>; rpc: DoctorCheck; timeouts: DoctorTimeouts },
): DoctorCheck[] {
  const address = config.escrow.address;
  if (!address) {
    return [
      defineCheck(
        'escrow contract',
        async () =>
          failed('ESCROW_ADDRESS is not set: every stake is a deposit into it, so every bet is refused'),
        { timeoutMs: 1_000 },
      ),
    ];
  }
  let reading: Promise<EscrowStatus> | undefined;
  const status = () => {
    reading ??= readEscrowStatus(deps.chain, address);
    return reading;
  };
  // Its reads go out together: a few rounds of the RPC's timeout at most.
  const bound = { timeoutMs: deps.timeouts.rpcMs * 3 + 1_000 };
  const code = defineCheck(
    `escrow ${getAddress(address)} runs this build's PredictionEscrow`,
    async () => {
      try {
        return checkEscrowCode(await status());
      } catch (error) {
        if (error instanceof EscrowNotFoundError)
          return failed(`${error.message}: ESCROW_ADDRESS is wrong, or on another chain`);
        throw error;
      }
    },
    { ...bound, needs: [deps.rpc] },
  );
  const after = { ...bound, needs: [code] };
  return [
    code,
    defineCheck(
      "OPERATOR_PRIVATE_KEY (the server's key) is the escrow's operator, not its admin",
      async () => checkEscrowOperator(await status(), config.operator.privateKey),
      after,
    ),
    defineCheck(
      "ESCROW_DEPLOY_BLOCK is the escrow's deployment block",
      async () =>
        config.escrow.deployBlockSet
          ? checkEscrowDeployBlock(
              config.escrow.deployBlock,
              await readDeployBlock(deps.chain, address, config.escrow.deployBlock),
            )
          : passed('unset: the local chain is read from its first block'),
      after,
    ),
    defineCheck('escrow guardian and treasury are set', async () => checkEscrowRoles(await status()), after),
    defineCheck('escrow limits', async () => checkEscrowLimits(await status()), after),
    defineCheck('escrow is not paused', async () => checkEscrowNotPaused(await status()), after),
    defineCheck(
      'escrow balance covers its liabilities',
      async () => checkEscrowCoversLiabilities(await status()),
      after,
    ),
    defineCheck(
      'markets are decided before the escrow refunds them itself',
      async () =>
        checkEscrowEscapeDelay(await status(), {
          resolutionTimeoutS: config.ai.resolutionTimeoutS,
          reviewWindowS: config.ai.reviewWindowS,
        }),
      after,
    ),
  ];
}

/** MarketEscrow at MARKET_ESCROW_ADDRESS, read once at one block; no line when it is not configured. */
function marketEscrowChecks(
  config: Config,
  deps: { chain: ReturnType<typeof doctorChainClient>; rpc: DoctorCheck; timeouts: DoctorTimeouts },
): DoctorCheck[] {
  const marketEscrow = config.marketEscrow;
  if (!marketEscrow) return [];
  const address = getAddress(marketEscrow.address);
  // The code first; the rest at its block once the code is this build's (another contract's would
  // not answer the getters).
  let codeReading: Promise<MarketEscrowCode> | undefined;
  let reading: Promise<MarketEscrowReading> | undefined;
  const readCode = () => {
    codeReading ??= readMarketEscrowCode(deps.chain, address);
    return codeReading;
  };
  const status = () => {
    reading ??= readCode().then((found) => readMarketEscrow(deps.chain, address, found));
    return reading;
  };
  const bound = { timeoutMs: deps.timeouts.rpcMs * 3 + 1_000 };
  const code = defineCheck(
    `MarketEscrow ${address} runs this build's MarketEscrow`,
    async () => {
      const found = await readCode();
      if (!found.codeHash) {
        return failed(
          `No contract at ${address} at block ${found.blockNumber}: MARKET_ESCROW_ADDRESS is wrong, or on another chain`,
        );
      }
      return checkMarketEscrowCode({ blockNumber: found.blockNumber, codeHash: found.codeHash });
    },
    { ...bound, needs: [deps.rpc] },
  );
  const after = { ...bound, needs: [code] };
  return [
    code,
    defineCheck(
      "OPERATOR_PRIVATE_KEY (the server's key) is MarketEscrow's operator, not its admin",
      async () => checkEscrowOperator(await status(), config.operator.privateKey),
      after,
    ),
    defineCheck(
      "MARKET_ESCROW_DEPLOY_BLOCK is MarketEscrow's deployment block",
      async () =>
        marketEscrow.deployBlockSet
          ? checkEscrowDeployBlock(
              marketEscrow.deployBlock,
              await readDeployBlock(deps.chain, address, marketEscrow.deployBlock),
              { contract: 'MarketEscrow', setting: 'MARKET_ESCROW_DEPLOY_BLOCK' },
            )
          : passed('unset: the local chain is read from its first block'),
      after,
    ),
    defineCheck(
      "MarketEscrow's fees and price age are ORACLE_FEE_BPS, MARKET_FEE_BPS and ORACLE_MAX_AGE_S",
      async () => checkMarketEscrowFees(await status(), marketEscrowFees(config)),
      after,
    ),
    defineCheck(
      "MarketEscrow's feed of each coin is the one the settings name",
      async () => checkMarketEscrowFeeds((await status()).feeds, marketEscrowFeeds(config)),
      after,
    ),
  ];
}

type MarketEscrowCode = { blockNumber: bigint; codeHash: Hex | null };

/** The latest block, and the hash of MarketEscrow's code there (immutables zeroed); null without code. */
async function readMarketEscrowCode(
  chain: ReturnType<typeof doctorChainClient>,
  address: Address,
): Promise<MarketEscrowCode> {
  const blockNumber = await chain.getBlockNumber();
  const code = await chain.getCode({ address, blockNumber });
  return { blockNumber, codeHash: code && code !== '0x' ? marketEscrowCodeHash(code) : null };
}

/** MarketEscrow's roles, fees, price age and feeds at the block its code was read at. */
async function readMarketEscrow(
  chain: ReturnType<typeof doctorChainClient>,
  address: Address,
  { blockNumber, codeHash }: MarketEscrowCode,
): Promise<MarketEscrowReading> {
  if (!codeHash) throw new Error(`No contract at ${address} at block ${blockNumber}`);
  const at = { address, abi: marketEscrowAbi, blockNumber } as const;
  const [owner, pendingOwner, operator, roundFeeBps, priceMarketFeeBps, maxPriceAge, coinCount] =
    await Promise.all([
      chain.readContract({ ...at, functionName: 'owner' }),
      chain.readContract({ ...at, functionName: 'pendingOwner' }),
      chain.readContract({ ...at, functionName: 'operator' }),
      chain.readContract({ ...at, functionName: 'roundFeeBps' }),
      chain.readContract({ ...at, functionName: 'priceMarketFeeBps' }),
      chain.readContract({ ...at, functionName: 'maxPriceAge' }),
      chain.readContract({ ...at, functionName: 'coinCount' }),
    ]);
  const feeds = await Promise.all(
    Array.from({ length: coinCount }, (_, coin) =>
      chain.readContract({ ...at, functionName: 'feeds', args: [coin] }),
    ),
  );
  return {
    blockNumber,
    codeHash,
    owner,
    pendingOwner: pendingOwner === zeroAddress ? null : pendingOwner,
    operator,
    roundFeeBps,
    priceMarketFeeBps,
    maxPriceAge,
    feeds,
  };
}

/** Whether the escrow has code at `block` and at the block before; null where the node keeps no such state. */
async function readDeployBlock(
  chain: ReturnType<typeof doctorChainClient>,
  address: Address,
  block: bigint,
): Promise<DeployBlockReading> {
  const hasCode = (blockNumber: bigint) =>
    chain.getCode({ address, blockNumber }).then(
      (code) => code !== undefined && code !== '0x',
      // A pruned node refuses reads of old state; the check then says it cannot tell.
      () => null,
    );
  const [codeAtBlock, codeBefore] = await Promise.all([
    hasCode(block),
    block > 0n ? hasCode(block - 1n) : Promise.resolve(false),
  ]);
  return { codeAtBlock, codeBefore };
}

function priceFeedChecks(
  config: Config,
  deps: { chain: ReturnType<typeof doctorChainClient>; rpc: DoctorCheck; timeouts: DoctorTimeouts },
): DoctorCheck[] {
  const { timeouts } = deps;
  if (config.prices.feed === 'simulated') {
    return [
      defineCheck('price feeds', async () => passed('simulated, a random walk (local chain only)'), {
        timeoutMs: 1_000,
      }),
    ];
  }
  // The aggregators may live on another chain than the deployment (CHAINLINK_RPC_URL): through
  // RPC_URL they need it to pass; through their own RPC, not.
  const sameRpc = config.prices.chainlinkRpcUrl === config.chain.rpcUrl;
  const needs = config.prices.feed === 'chainlink' && sameRpc ? [deps.rpc] : [];
  const clock = serverClock(config, timeouts);
  let feedsClient: PublicClient | undefined;
  const chainlinkClient = () => {
    feedsClient ??= sameRpc ? deps.chain : doctorChainClient(config.prices.chainlinkRpcUrl, timeouts.rpcMs);
    return feedsClient;
  };
  const { source, coins } = coinFeedsToCheck({ config, clock, chainlinkClient });
  const bound = { timeoutMs: timeouts.rpcMs * 3 + 1_000, needs };
  const checks = coins.flatMap(({ symbol, label, feed }) => {
    const reading = defineCheck(
      `price feed ${symbol} (${source} ${label.startsWith('0x') ? getAddress(label) : label})`,
      async () => {
        await clock.ready();
        return checkCoinFeed(feed, { clock, maxAgeS: config.prices.maxAgeS });
      },
      bound,
    );
    if (source !== 'chainlink') return [reading];
    const address = config.prices.chainlinkAddresses[symbol];
    return [
      reading,
      defineCheck(
        feedIdentityTitle(symbol),
        () => checkFeedIdentity(chainlinkClient(), symbol, address),
        bound,
      ),
    ];
  });
  if (source !== 'chainlink') return checks;
  return [
    ...checks,
    defineCheck(
      "price feed addresses are Chainlink's published BSC mainnet proxies",
      async () => checkFeedAddresses(await chainlinkClient().getChainId(), config.prices.chainlinkAddresses),
      bound,
    ),
  ];
}

/**
 * The server's notion of now, for a reading's age: on the local chain (CLOCK=chain) wall time plus
 * the chain's offset, as the server keeps it; read once, lazily; the system clock if that fails.
 */
function serverClock(config: Config, timeouts: DoctorTimeouts): Clock & { ready(): Promise<void> } {
  let clock: Clock = systemClock;
  let syncing: Promise<void> | undefined;
  return {
    now: () => clock.now(),
    ready() {
      if (config.clock !== 'chain') return Promise.resolve();
      syncing ??= (async () => {
        const chainClock = createChainClock(
          createTestClient({
            mode: 'hardhat',
            transport: http(config.chain.rpcUrl, { timeout: timeouts.rpcMs, retryCount: 0 }),
          }),
        );
        try {
          await chainClock.sync();
          clock = chainClock;
        } catch {
          // The system clock: on a chain without evm_increaseTime its offset is 0 anyway.
        }
      })();
      return syncing;
    },
  };
}

function aiChecks(config: Config, timeouts: DoctorTimeouts): DoctorCheck[] {
  const { baseUrl, apiKey } = config.ai;
  if (!baseUrl) {
    return [
      defineCheck(
        'AI endpoint',
        async () => passed('not configured (AI_BASE_URL unset): every market waits for an operator'),
        { timeoutMs: 1_000 },
      ),
    ];
  }
  const timeoutMs = Math.min(config.ai.timeoutMs, timeouts.aiMs);
  return config.ai.models.map((model) =>
    defineCheck(
      `AI model ${model} answers a structured request`,
      () => checkAiModel({ baseUrl, apiKey, timeoutMs }, model),
      { timeoutMs: timeoutMs + 1_000 },
    ),
  );
}

function searchCheck(config: Config, timeouts: DoctorTimeouts): DoctorCheck {
  const { searchProvider, searchUrl, searchApiKey } = config.evidence;
  if (!searchProvider) {
    return defineCheck(
      'search provider',
      async () =>
        passed(
          "not configured (SEARCH_PROVIDER unset): the judge reads only the URLs a market's creator named",
        ),
      { timeoutMs: 1_000 },
    );
  }
  const provider = createSearchProvider({ provider: searchProvider, url: searchUrl, apiKey: searchApiKey });
  return defineCheck(
    `search provider ${searchProvider} answers`,
    () => checkSearchProvider(provider, timeouts.searchMs),
    { timeoutMs: timeouts.searchMs + 1_000 },
  );
}

function describeSettings(config: Config): string {
  const database = config.database.url ? 'PostgreSQL' : `PGlite under ${config.database.dataDir}`;
  return `CHAIN_ID ${config.chain.id}, PRICE_FEED ${config.prices.feed}, database ${database}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

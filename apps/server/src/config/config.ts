import {
  CHAIN_ID,
  DEFAULT_AI_MIN_CONFIDENCE,
  DEFAULT_BETTING_WINDOW_S,
  DEFAULT_MARKET_RESOLUTION_TIMEOUT_S,
  DEFAULT_PENDING_PAYMENT_EXPIRY_S,
  DEFAULT_ROUND_INTERVAL_S,
  MIN_AI_CONFIDENCE_FLOOR,
  PRICE_SYMBOLS,
  type PriceSymbol,
} from '@pm/core/constants';
import { isAddress, isHex, parseGwei } from 'viem';
import { z } from 'zod';
import { CHAINLINK_BSC_MAINNET_USD_FEEDS } from './chainlink-bsc-mainnet-usd-feeds.ts';
import { DEV_ESCROW_ROLES, DEV_OPERATOR } from './dev-accounts.ts';
import { publicDevHostRefusal } from './public-dev-host.ts';

// One typed config, read from the environment once at start-up (docs/architecture.md "Configuration").
// Defaults run offline against the local chain; a bad value stops start-up naming the variable.

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const address = z
  .string()
  .refine((v) => isAddress(v, { strict: false }), 'must be a 0x-prefixed 20-byte address')
  .transform((v) => v.toLowerCase() as `0x${string}`);
const privateKey = z
  .string()
  .refine((v) => isHex(v) && v.length === 66, 'must be a 0x-prefixed 32-byte hex key')
  .transform((v) => v as `0x${string}`);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined));
/** `BTC=0x…,ETH=0x…`: per-coin Chainlink aggregator overrides (docs/decisions/020). */
const feedAddressList = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const entries: Partial<Record<PriceSymbol, `0x${string}`>> = {};
    for (const item of v.split(',').map((s) => s.trim())) {
      if (!item) continue;
      const [symbol = '', value = ''] = item.split('=').map((s) => s.trim());
      if (!(PRICE_SYMBOLS as readonly string[]).includes(symbol)) {
        ctx.addIssue({ code: 'custom', message: `'${symbol}' is not one of ${PRICE_SYMBOLS.join(', ')}` });
      } else if (!isAddress(value, { strict: false })) {
        ctx.addIssue({ code: 'custom', message: `${symbol}: '${value}' is not an address` });
      } else {
        entries[symbol as PriceSymbol] = value.toLowerCase() as `0x${string}`;
      }
    }
    return entries;
  });
/** A comma-separated list of browser origins (`https://app.example.com`), each reduced to its origin. */
const originList = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const origins: string[] = [];
    for (const item of v.split(',').map((s) => s.trim())) {
      if (!item) continue;
      const origin = URL.canParse(item) ? new URL(item).origin : 'null';
      if (origin === 'null' || item.replace(/\/$/, '') !== origin)
        ctx.addIssue({ code: 'custom', message: `'${item}' is not an origin like https://app.example.com` });
      else origins.push(origin);
    }
    return origins;
  });

/** A comma-separated list, items trimmed, blanks dropped. */
const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const EnvSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  /** Lets the local chain's dev stack, price-setting endpoint included, listen beyond loopback. */
  ALLOW_PUBLIC_DEV: bool.default(false),
  PORT: int(0, 65535).default(8787),
  /** GET /metrics (Prometheus) listens here, never on PORT; METRICS_PORT=0 turns it off. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_PORT: int(0, 65535).default(9464),
  /** When set, GET /metrics wants `Authorization: Bearer <token>` (security review 2, lows). */
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CHAIN_ID: int(1, 2 ** 31).default(CHAIN_ID.local),
  RPC_URL: z.url().default('http://127.0.0.1:8545'),
  PUBLIC_RPC_URL: z.url().optional(),
  /** JSON-RPC calls sent in one HTTP request at most (docs/decisions/024); 1 = no batches. */
  RPC_BATCH_SIZE: int(1, 1000).default(20),
  // Decision 026: the operator key, hot and holding gas money only (it settles, relays claims
  // and gives back refused deposits on the escrow; it is never the escrow's admin). The dev operator's
  // on the local chain.
  OPERATOR_PRIVATE_KEY: privateKey.optional(),
  // The escrow contract every stake is deposited into (no bet is taken without it), and the keys the
  // ops CLI signs its admin's and guardian's calls with; the server itself never signs as either.
  ESCROW_ADDRESS: address.optional(),
  /**
   * The block the escrow was deployed in (`vault:deploy` prints it): where reading its deposits and
   * payouts starts on a first run, so nothing deposited before the server's first start is missed.
   */
  ESCROW_DEPLOY_BLOCK: z
    .string()
    .regex(/^\d{1,20}$/, 'must be a block number')
    .transform(BigInt)
    .optional(),
  /**
   * MarketEscrow (docs/decisions/031, 034), deployed beside the escrow by `vault:deploy` and `npm start`,
   * and its deployment block, as for ESCROW_ADDRESS and ESCROW_DEPLOY_BLOCK.
   */
  MARKET_ESCROW_ADDRESS: address.optional(),
  MARKET_ESCROW_DEPLOY_BLOCK: z
    .string()
    .regex(/^\d{1,20}$/, 'must be a block number')
    .transform(BigInt)
    .optional(),
  ESCROW_ADMIN_PRIVATE_KEY: privateKey.optional(),
  ESCROW_GUARDIAN_PRIVATE_KEY: privateKey.optional(),
  CONFIRMATIONS: z.union([z.literal('finalized'), z.coerce.number().int().min(1).max(1000)]).optional(),
  /** Reverse proxies in front of the server (hop count); 0 = none, the socket's peer is the client. */
  TRUST_PROXY: int(0, 10).default(0),
  /** Requests per minute per client address on /api; 0 turns rate limiting off (benchmarks). */
  RATE_LIMIT_PER_MIN: int(0, 1_000_000).default(600),
  CORS_ORIGINS: originList,
  /** How long a public hot read may be served from memory at most (decision 017); 0 turns it off. */
  RESPONSE_CACHE_MS: int(0, 10_000).default(1000),
  /**
   * How long a wallet's own read may be served from memory at most (decision 032): its events drop it
   * at once; this is the backstop. 0 turns the wallet read cache off.
   */
  WALLET_READ_CACHE_MS: int(0, 3_600_000).default(60_000),
  /** The memory the wallet read cache may hold, all wallets together (decision 032). */
  WALLET_READ_CACHE_MB: int(1, 1024).default(32),
  WS_MAX_CONNECTIONS: int(1, 1_000_000).default(5000),
  WS_MAX_CONNECTIONS_PER_IP: int(1, 10_000).default(20),
  PAYMENT_WAIT_MS: int(0, 300_000).default(15_000),
  PENDING_PAYMENT_EXPIRY_S: int(60, 7 * 86_400).default(DEFAULT_PENDING_PAYMENT_EXPIRY_S),
  // Ceiling for an operator transaction's maxFeePerGas, replacements included: no fee spike drains it.
  // BSC runs at about 0.1 gwei.
  OPERATOR_MAX_FEE_PER_GAS_GWEI: z
    .string()
    .regex(/^[0-9]+(\.[0-9]{1,9})?$/, 'must be a decimal number of gwei, e.g. 10 or 0.5')
    .default('10')
    .transform((v) => parseGwei(v))
    .refine((v) => v > 0n, 'must be more than 0'),
  // The operator key's transactions (docs/architecture.md "Operator transactions"): one not mined
  // this long is sent again as it is (a node may have dropped it), and this long after it was signed
  // it is replaced at its nonce with higher fees (or cancelled, if its effect already holds).
  OPERATOR_TX_RESEND_AFTER_MS: int(1000, 3_600_000).default(15_000),
  OPERATOR_TX_REPLACE_AFTER_MS: int(1000, 86_400_000).default(60_000),
  DATABASE_URL: optionalText,
  DATA_DIR: z.string().default('.data'),
  PRICE_FEED: z.enum(['chainlink', 'ticker', 'simulated']).default('simulated'),
  // BNB's aggregator; the other coins' default to Chainlink's BSC mainnet
  // proxies (chainlink-bsc-mainnet-usd-feeds.ts), each overridable in CHAINLINK_FEED_ADDRESSES.
  CHAINLINK_FEED_ADDRESS: address.default('0x0567f2323251f0aab15c8dfb1967e4e8a7d42aee'),
  CHAINLINK_FEED_ADDRESSES: feedAddressList,
  /** The Chainlink feeds' own RPC, so payment traffic cannot starve price reads: required off the local chain, else RPC_URL. */
  CHAINLINK_RPC_URL: z.url().optional(),
  /** Local chain only: the key that publishes the dev feeds' rounds (prices/dev-feed-writer.ts). */
  DEV_FEED_WRITER_KEY: privateKey.optional(),
  // A ticker URL per coin: `{symbol}` is replaced by the coin's pair (BTCUSDT…); without
  // it, the URL's `symbol` query parameter is set to the pair, so the old BNBUSDT URL still works.
  TICKER_URL: z.url().default('https://api.binance.com/api/v3/ticker/price?symbol={symbol}'),
  ORACLE_MAX_AGE_S: int(1, 86_400).default(120),
  // How long a round or price market whose price the samples missed waits for a price feed that
  // cannot be asked (its RPC down) before it is cancelled or voided: no job waits forever.
  ORACLE_FEED_WAIT_S: int(1, 86_400).default(1800),
  AI_BASE_URL: optionalText,
  AI_API_KEY: optionalText,
  AI_MODEL: z.string().default('gpt-4o-mini'),
  AI_MIN_CONFIDENCE: int(MIN_AI_CONFIDENCE_FLOOR, 100).default(DEFAULT_AI_MIN_CONFIDENCE),
  AI_TIMEOUT_MS: int(1000, 600_000).default(60_000),
  AI_MAX_ATTEMPTS: int(1, 50).default(5),
  MARKET_RESOLUTION_TIMEOUT_S: int(3600, 90 * 86_400).default(DEFAULT_MARKET_RESOLUTION_TIMEOUT_S),
  // Decision 011: seconds a proposed AI verdict stays open to flags; 0 settles at once.
  RESOLUTION_REVIEW_WINDOW_S: int(0, 30 * 86_400).default(3600),
  // Decision 019: the judge's second opinion and the evidence it reads.
  AI_MODELS: commaList,
  SEARCH_PROVIDER: z.enum(['searxng', 'brave', 'tavily']).optional(),
  SEARCH_URL: z.url().optional(),
  SEARCH_API_KEY: optionalText,
  EVIDENCE_ALLOW_HOSTS: commaList.pipe(
    z.array(z.string().regex(/^[^\s:/]+:[0-9]{1,5}$/, 'must be host:port entries, comma-separated')),
  ),
  EVIDENCE_MAX_PAGES: int(1, 100).default(25),
  // The creator's URLs read per attempt, so search results always have room (an independent source).
  EVIDENCE_MAX_CREATOR_PAGES: int(0, 20).default(5),
  EVIDENCE_MIN_SOURCES: int(1, 10).default(2),
  // One page's reading in a reader thread (docs/decisions/027); over it the thread is ended, the page unread.
  EVIDENCE_PAGE_PARSE_MS: int(100, 60_000).default(2_000),
  ANALYZE_DAILY_LIMIT: int(0, 1_000_000).default(200),
  OPERATOR_ADDRESSES: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const list = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const item of list) {
        if (!isAddress(item, { strict: false }))
          ctx.addIssue({ code: 'custom', message: `'${item}' is not an address` });
      }
      return list.map((item) => item.toLowerCase() as `0x${string}`);
    }),
  ROUND_INTERVAL_S: int(10, 86_400).default(DEFAULT_ROUND_INTERVAL_S),
  BETTING_WINDOW_S: int(5, 86_400).default(DEFAULT_BETTING_WINDOW_S),
  MARKET_FEE_BPS: int(0, 1000).default(0),
  // Below 10 %: a round settles on the escrow with its fee and the rounding dust, and the contract
  // keeps at most 10 % of a pool in all (MAX_FEE_BPS); at 1000 the dust would leave no room (decision 026).
  ORACLE_FEE_BPS: int(0, 999).default(0),
  CLOCK: z.enum(['system', 'chain']).optional(),
  JOBS: bool.default(true),
  DEMO_DATA: bool.default(false),
  WEB_DIST: optionalText,
});

export type Config = ReturnType<typeof toConfig>;

/** Settings of the retired EOA vault (docs/decisions/028: every stake is on the escrow contract), and what replaces each. */
const RETIRED_SETTINGS: Record<string, string> = {
  VAULT_ADDRESS: 'retired: stakes are deposited into the escrow contract (ESCROW_ADDRESS)',
  VAULT_PRIVATE_KEY: "retired: set OPERATOR_PRIVATE_KEY, the operator key (gas only, never bettors' money)",
  PAYOUT_MAX_FEE_PER_GAS_GWEI: 'renamed OPERATOR_MAX_FEE_PER_GAS_GWEI',
  REFUND_MIN_WEI: 'retired: refunds are paid by the escrow contract, never from a server key',
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError whose message names every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  // Empty strings count as unset, so `FOO= npm start` falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  // A setting of the retired vault is refused, not ignored (docs/decisions/028): a deployment that still sets
  // one expects something of it.
  const retired = Object.entries(RETIRED_SETTINGS).filter(([name]) => cleaned[name] !== undefined);
  if (retired.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${retired.map(([name, why]) => `  ${name}: ${why}`).join('\n')}`,
    );
  }
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return toConfig(parsed.data);
}

function toConfig(env: z.infer<typeof EnvSchema>) {
  const isLocalChain = env.CHAIN_ID === CHAIN_ID.local;
  if (env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_PORT: must differ from PORT (metrics have a listener of their own; 0 turns it off)',
    );
  }
  if (env.BETTING_WINDOW_S >= env.ROUND_INTERVAL_S) {
    throw new ConfigError(
      'Invalid configuration:\n  BETTING_WINDOW_S: must be shorter than ROUND_INTERVAL_S',
    );
  }
  if (env.OPERATOR_TX_RESEND_AFTER_MS >= env.OPERATOR_TX_REPLACE_AFTER_MS) {
    throw new ConfigError(
      'Invalid configuration:\n  OPERATOR_TX_RESEND_AFTER_MS: must be shorter than OPERATOR_TX_REPLACE_AFTER_MS',
    );
  }
  if (env.ESCROW_ADDRESS && env.ESCROW_DEPLOY_BLOCK === undefined && !isLocalChain) {
    throw new ConfigError(
      'Invalid configuration:\n  ESCROW_DEPLOY_BLOCK: required with ESCROW_ADDRESS off the local chain (the block vault:deploy printed): reconciliation starts there',
    );
  }
  if (env.MARKET_ESCROW_ADDRESS && env.MARKET_ESCROW_DEPLOY_BLOCK === undefined && !isLocalChain) {
    throw new ConfigError(
      'Invalid configuration:\n  MARKET_ESCROW_DEPLOY_BLOCK: required with MARKET_ESCROW_ADDRESS off the local chain (the block vault:deploy printed): reading its events starts there',
    );
  }
  const evidence = evidenceSettings(env);
  const unsafe = unsafeProductionSettings(env);
  if (unsafe.length > 0) throw new ConfigError(`Invalid configuration:\n${unsafe.join('\n')}`);
  return {
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    /** The Prometheus listener (docs/operations.md "Metrics"); port 0 = none. */
    metrics: { host: env.METRICS_HOST, port: env.METRICS_PORT, token: env.METRICS_TOKEN },
    chain: {
      id: env.CHAIN_ID,
      rpcUrl: env.RPC_URL,
      rpcBatchSize: env.RPC_BATCH_SIZE,
      // Published to browsers by /api/config; never a URL that carries a key (refused above).
      publicRpcUrl: env.PUBLIC_RPC_URL ?? env.RPC_URL,
      isLocal: isLocalChain,
      // BSC has fast finality; the local chain mines on demand, so one block is final there.
      confirmations: env.CONFIRMATIONS ?? (isLocalChain ? 1 : 'finalized'),
      paymentWaitMs: env.PAYMENT_WAIT_MS,
      /** A 202'd payment whose transaction has not mined and become final by then is forgotten. */
      pendingPaymentExpiryS: env.PENDING_PAYMENT_EXPIRY_S,
    },
    /**
     * The operator key (hot, gas only): the public dev key is a default only on the local chain;
     * anywhere else it would be anybody's.
     */
    operator: {
      privateKey: env.OPERATOR_PRIVATE_KEY ?? (isLocalChain ? DEV_OPERATOR.privateKey : undefined),
    },
    escrow: {
      /** PredictionEscrow's address; unset: no escrow checks, metrics or ops defaults. */
      address: env.ESCROW_ADDRESS,
      /**
       * Where a first scan of the escrow's events starts: its deployment block (required off the local
       * chain); the local chain's whole history otherwise.
       */
      deployBlock: env.ESCROW_DEPLOY_BLOCK ?? 0n,
      /** Whether ESCROW_DEPLOY_BLOCK was set (doctor checks it then). */
      deployBlockSet: env.ESCROW_DEPLOY_BLOCK !== undefined,
      /** For `vault:deploy` and `vault:unpause` (ops); the dev admin's on the local chain. */
      adminPrivateKey:
        env.ESCROW_ADMIN_PRIVATE_KEY ?? (isLocalChain ? DEV_ESCROW_ROLES.admin.privateKey : undefined),
      /** For `vault:pause` and `vault:veto` (ops); the dev guardian's on the local chain. */
      guardianPrivateKey:
        env.ESCROW_GUARDIAN_PRIVATE_KEY ?? (isLocalChain ? DEV_ESCROW_ROLES.guardian.privateKey : undefined),
    },
    /** MarketEscrow's address and deployment block (docs/decisions/034); unset: no MarketEscrow checks and no guardian's watcher. */
    marketEscrow: env.MARKET_ESCROW_ADDRESS
      ? {
          address: env.MARKET_ESCROW_ADDRESS,
          /** Where a first scan of its events starts, as for the escrow's deployBlock. */
          deployBlock: env.MARKET_ESCROW_DEPLOY_BLOCK ?? 0n,
          /** Whether MARKET_ESCROW_DEPLOY_BLOCK was set (doctor checks it then). */
          deployBlockSet: env.MARKET_ESCROW_DEPLOY_BLOCK !== undefined,
        }
      : undefined,
    /** The operator key's sender: its fee ceiling, and when a transaction is sent again or replaced. */
    operatorTransactions: {
      maxFeePerGas: env.OPERATOR_MAX_FEE_PER_GAS_GWEI,
      resendAfterMs: env.OPERATOR_TX_RESEND_AFTER_MS,
      replaceAfterMs: env.OPERATOR_TX_REPLACE_AFTER_MS,
    },
    database: { url: env.DATABASE_URL, dataDir: env.DATA_DIR },
    http: {
      trustProxy: env.TRUST_PROXY,
      rateLimitPerMinute: env.RATE_LIMIT_PER_MIN,
      corsOrigins: env.CORS_ORIGINS,
      responseCacheMs: env.RESPONSE_CACHE_MS,
      walletReadCacheMs: env.WALLET_READ_CACHE_MS,
      walletReadCacheMb: env.WALLET_READ_CACHE_MB,
    },
    realtime: {
      maxConnections: env.WS_MAX_CONNECTIONS,
      maxConnectionsPerIp: env.WS_MAX_CONNECTIONS_PER_IP,
    },
    prices: {
      feed: env.PRICE_FEED,
      chainlinkAddress: env.CHAINLINK_FEED_ADDRESS,
      /** Every coin's aggregator: Chainlink's BSC mainnet proxies, BNB's from CHAINLINK_FEED_ADDRESS, then the overrides. */
      chainlinkAddresses: {
        ...CHAINLINK_BSC_MAINNET_USD_FEEDS,
        BNB: env.CHAINLINK_FEED_ADDRESS,
        ...env.CHAINLINK_FEED_ADDRESSES,
      } as Readonly<Record<PriceSymbol, `0x${string}`>>,
      chainlinkRpcUrl: env.CHAINLINK_RPC_URL ?? env.RPC_URL,
      tickerUrl: env.TICKER_URL,
      maxAgeS: env.ORACLE_MAX_AGE_S,
      /** After a missed instant, how long a feed that cannot be asked is waited for. */
      feedWaitS: env.ORACLE_FEED_WAIT_S,
      /** Local chain with its dev feeds: the key that publishes their rounds, as a Chainlink node would. */
      devFeedWriterKey: env.DEV_FEED_WRITER_KEY,
    },
    ai: {
      baseUrl: env.AI_BASE_URL,
      apiKey: env.AI_API_KEY,
      model: env.AI_MODEL,
      minConfidence: env.AI_MIN_CONFIDENCE,
      timeoutMs: env.AI_TIMEOUT_MS,
      maxAttempts: env.AI_MAX_ATTEMPTS,
      resolutionTimeoutS: env.MARKET_RESOLUTION_TIMEOUT_S,
      reviewWindowS: env.RESOLUTION_REVIEW_WINDOW_S,
      /** Every model judges the same evidence; a market settles only when they agree (decision 019). */
      models: env.AI_MODELS.length > 0 ? env.AI_MODELS : [env.AI_MODEL],
      /** Model calls per day for POST /api/markets/analyze on this instance. */
      analyzeDailyLimit: env.ANALYZE_DAILY_LIMIT,
    },
    evidence,
    operators: env.OPERATOR_ADDRESSES,
    rounds: { intervalS: env.ROUND_INTERVAL_S, bettingWindowS: env.BETTING_WINDOW_S },
    fees: { marketBps: env.MARKET_FEE_BPS, oracleBps: env.ORACLE_FEE_BPS },
    // In dev the server follows the local chain's clock, so tests can move time with evm_increaseTime.
    clock: env.CLOCK ?? (isLocalChain ? 'chain' : 'system'),
    jobs: env.JOBS,
    demoData: env.DEMO_DATA,
    webDist: env.WEB_DIST,
  } as const;
}

/**
 * What the evidence gatherer reads (decision 019). SEARCH_URL is searxng's base URL;
 * brave and tavily need SEARCH_API_KEY. EVIDENCE_ALLOW_HOSTS lets the gatherer read loopback pages
 * (tests, a local SearXNG) and is refused off the local chain: it opens the SSRF guard.
 */
function evidenceSettings(env: z.infer<typeof EnvSchema>) {
  const problems: string[] = [];
  if (env.SEARCH_PROVIDER === 'searxng' && !env.SEARCH_URL) {
    problems.push('  SEARCH_URL: required when SEARCH_PROVIDER is searxng (its base URL)');
  }
  if ((env.SEARCH_PROVIDER === 'brave' || env.SEARCH_PROVIDER === 'tavily') && !env.SEARCH_API_KEY) {
    problems.push(`  SEARCH_API_KEY: required when SEARCH_PROVIDER is ${env.SEARCH_PROVIDER}`);
  }
  if (env.EVIDENCE_ALLOW_HOSTS.length > 0 && env.CHAIN_ID !== CHAIN_ID.local) {
    problems.push(
      `  EVIDENCE_ALLOW_HOSTS: only allowed when CHAIN_ID is ${CHAIN_ID.local} (it lets the judge read private addresses)`,
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    searchProvider: env.SEARCH_PROVIDER ?? null,
    searchUrl: env.SEARCH_URL,
    searchApiKey: env.SEARCH_API_KEY,
    allowHosts: env.EVIDENCE_ALLOW_HOSTS,
    maxPages: env.EVIDENCE_MAX_PAGES,
    maxCreatorPages: env.EVIDENCE_MAX_CREATOR_PAGES,
    minSources: env.EVIDENCE_MIN_SOURCES,
    pageParseMs: env.EVIDENCE_PAGE_PARSE_MS,
  };
}

/** Below this many blocks a payment on a chain without `finalized` could still be reorged out. */
const MIN_SAFE_CONFIRMATIONS = 64;

/**
 * Settings that are fine on the local chain but lose real money anywhere else (docs/operations.md):
 * a simulated price anyone can replay, a shallow confirmation depth, an RPC key published to
 * every browser. Each line names the variable. One runs the other way: the local chain's dev stack
 * served beyond loopback (public-dev-host.ts).
 */
function unsafeProductionSettings(env: z.infer<typeof EnvSchema>): string[] {
  const problems: string[] = [];
  // /api/config hands PUBLIC_RPC_URL (else RPC_URL) to every browser, so a key in RPC_URL leaks.
  if (!env.PUBLIC_RPC_URL && urlCarriesSecret(env.RPC_URL)) {
    problems.push(
      '  PUBLIC_RPC_URL: required when RPC_URL carries a key (a path, a query or user info): browsers get PUBLIC_RPC_URL',
    );
  }
  const publicDev = publicDevHostRefusal({
    host: env.HOST,
    chainId: env.CHAIN_ID,
    allowPublicDev: env.ALLOW_PUBLIC_DEV,
  });
  if (publicDev) problems.push(publicDev);
  if (env.DEV_FEED_WRITER_KEY && env.PRICE_FEED !== 'chainlink') {
    problems.push(
      "  DEV_FEED_WRITER_KEY: writes the local chain's Chainlink-compatible feeds, so PRICE_FEED must be chainlink",
    );
  }
  if (env.CHAIN_ID === CHAIN_ID.local) return problems;
  if (env.DEV_FEED_WRITER_KEY) {
    problems.push(
      `  DEV_FEED_WRITER_KEY: for the local chain's dev feeds only, not CHAIN_ID ${env.CHAIN_ID}`,
    );
  }
  if (env.PRICE_FEED === 'simulated') {
    problems.push(
      `  PRICE_FEED: must be chainlink or ticker when CHAIN_ID is ${env.CHAIN_ID} (simulated is for the local chain only)`,
    );
  }
  // Payment traffic on RPC_URL must not be able to starve the price reads.
  if (env.PRICE_FEED === 'chainlink' && !env.CHAINLINK_RPC_URL) {
    problems.push(
      `  CHAINLINK_RPC_URL: required when PRICE_FEED is chainlink and CHAIN_ID is ${env.CHAIN_ID}: the price feeds need an RPC of their own, apart from the payments' RPC_URL`,
    );
  }
  // 0 pays an AI verdict the moment it is proposed, before any bettor can flag it.
  if (env.RESOLUTION_REVIEW_WINDOW_S === 0) {
    problems.push(
      `  RESOLUTION_REVIEW_WINDOW_S: must be more than 0 when CHAIN_ID is ${env.CHAIN_ID} (0 pays an AI verdict before anyone can flag it)`,
    );
  }
  const bscChain = env.CHAIN_ID === CHAIN_ID.bscMainnet || env.CHAIN_ID === CHAIN_ID.bscTestnet;
  const confirmations = env.CONFIRMATIONS ?? 'finalized';
  if (bscChain && confirmations !== 'finalized') {
    problems.push(`  CONFIRMATIONS: must be finalized on chain ${env.CHAIN_ID} (BSC fast finality)`);
  } else if (confirmations !== 'finalized' && confirmations < MIN_SAFE_CONFIRMATIONS) {
    problems.push(
      `  CONFIRMATIONS: must be finalized or at least ${MIN_SAFE_CONFIRMATIONS} blocks off the local chain`,
    );
  }
  return problems;
}

/** Paid RPC providers put the key in the path (NodeReal `/v1/<key>`), the query or the user info. */
function urlCarriesSecret(raw: string): boolean {
  const url = new URL(raw);
  return (
    url.pathname.replace(/\/+$/, '') !== '' || url.search !== '' || url.username !== '' || url.password !== ''
  );
}

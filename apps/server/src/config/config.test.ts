import { DEFAULT_MARKET_RESOLUTION_TIMEOUT_S, MIN_AI_CONFIDENCE_FLOOR } from '@pm/core/constants';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { DEV_ESCROW_ROLES } from './dev-accounts.ts';

// Production defaults (docs/security.md): settings that are harmless on the local chain
// but lose money on BSC stop the server at start, naming the variable.

const mainnet = (env: Record<string, string> = {}) =>
  loadConfig({
    CHAIN_ID: '56',
    RPC_URL: 'https://bsc-dataseed.bnbchain.org',
    PRICE_FEED: 'chainlink',
    CHAINLINK_RPC_URL: 'https://bsc-prices.example',
    ...env,
  });

const refusal = (load: () => unknown): string => {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('the operator key and the retired vault', () => {
  test('the dev operator key is a default on the local chain only', () => {
    expect(loadConfig({}).operator.privateKey).toBeDefined();
    expect(mainnet().operator.privateKey).toBeUndefined();
    const key = `0x${'11'.repeat(32)}`;
    expect(mainnet({ OPERATOR_PRIVATE_KEY: key }).operator.privateKey).toBe(key);
  });

  test('a setting of the retired vault is refused, naming what replaces it', () => {
    const message = refusal(() =>
      loadConfig({ VAULT_ADDRESS: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', REFUND_MIN_WEI: '1' }),
    );
    expect(message).toContain(
      'VAULT_ADDRESS: retired: stakes are deposited into the escrow contract (ESCROW_ADDRESS)',
    );
    expect(message).toContain('REFUND_MIN_WEI: retired');
    expect(refusal(() => loadConfig({ PAYOUT_MAX_FEE_PER_GAS_GWEI: '10' }))).toMatch(
      /PAYOUT_MAX_FEE_PER_GAS_GWEI: renamed OPERATOR_MAX_FEE_PER_GAS_GWEI/,
    );
  });

  test('the operator fee ceiling is read from OPERATOR_MAX_FEE_PER_GAS_GWEI', () => {
    expect(loadConfig({}).operatorTransactions.maxFeePerGas).toBe(10_000_000_000n);
    expect(loadConfig({ OPERATOR_MAX_FEE_PER_GAS_GWEI: '0.5' }).operatorTransactions.maxFeePerGas).toBe(
      500_000_000n,
    );
    expect(refusal(() => loadConfig({ OPERATOR_MAX_FEE_PER_GAS_GWEI: 'lots' }))).toMatch(
      /OPERATOR_MAX_FEE_PER_GAS_GWEI/,
    );
  });
});

describe('configuration off the local chain', () => {
  test('a mainnet configuration with chainlink, finalized and a keyless RPC URL is accepted', () => {
    const config = mainnet();
    expect(config.prices.feed).toBe('chainlink');
    expect(config.chain.confirmations).toBe('finalized');
  });

  test('the simulated price feed is refused on mainnet, also when PRICE_FEED is left unset', () => {
    expect(refusal(() => mainnet({ PRICE_FEED: 'simulated' }))).toMatch(
      /PRICE_FEED: must be chainlink or ticker/,
    );
    expect(refusal(() => loadConfig({ CHAIN_ID: '97', RPC_URL: 'https://rpc.example' }))).toMatch(
      /PRICE_FEED/,
    );
  });

  test('the Chainlink feeds need an RPC of their own off the local chain', () => {
    for (const CHAIN_ID of ['56', '97', '1']) {
      expect(refusal(() => mainnet({ CHAIN_ID, CHAINLINK_RPC_URL: '' }))).toMatch(
        /CHAINLINK_RPC_URL: required when PRICE_FEED is chainlink and CHAIN_ID is \d+: the price feeds need an RPC of their own/,
      );
    }
    expect(mainnet().prices.chainlinkRpcUrl).toBe('https://bsc-prices.example');
    // A ticker reads no RPC.
    expect(mainnet({ PRICE_FEED: 'ticker', CHAINLINK_RPC_URL: '' }).prices.feed).toBe('ticker');
    // On the local chain it defaults to RPC_URL (read through a client of its own all the same).
    expect(loadConfig({ PRICE_FEED: 'chainlink' }).prices.chainlinkRpcUrl).toBe('http://127.0.0.1:8545');
  });

  test('a block count for CONFIRMATIONS is refused on BSC mainnet and testnet: only finalized', () => {
    expect(refusal(() => mainnet({ CONFIRMATIONS: '3' }))).toMatch(/CONFIRMATIONS: must be finalized/);
    expect(refusal(() => mainnet({ CHAIN_ID: '97', CONFIRMATIONS: '1000' }))).toMatch(/CONFIRMATIONS/);
    expect(mainnet({ CONFIRMATIONS: 'finalized' }).chain.confirmations).toBe('finalized');
  });

  test('another chain accepts finalized or a deep block count, never a shallow one', () => {
    expect(refusal(() => mainnet({ CHAIN_ID: '1', CONFIRMATIONS: '2' }))).toMatch(/CONFIRMATIONS/);
    expect(mainnet({ CHAIN_ID: '1', CONFIRMATIONS: '64' }).chain.confirmations).toBe(64);
  });

  test('an RPC URL with a key in its path, query or user info needs a separate PUBLIC_RPC_URL', () => {
    for (const RPC_URL of [
      'https://bsc-mainnet.nodereal.io/v1/SECRETKEY',
      'https://rpc.example/?apikey=SECRETKEY',
      'https://user:SECRETKEY@rpc.example',
    ]) {
      expect(refusal(() => mainnet({ RPC_URL }))).toMatch(
        /PUBLIC_RPC_URL: required when RPC_URL carries a key/,
      );
    }
    const config = mainnet({
      RPC_URL: 'https://bsc-mainnet.nodereal.io/v1/SECRETKEY',
      PUBLIC_RPC_URL: 'https://bsc-dataseed.bnbchain.org',
    });
    expect(config.chain.publicRpcUrl).toBe('https://bsc-dataseed.bnbchain.org');
  });

  test('the local chain keeps its offline defaults', () => {
    const config = loadConfig({});
    expect(config.prices.feed).toBe('simulated');
    expect(config.chain.confirmations).toBe(1);
    expect(config.chain.publicRpcUrl).toBe('http://127.0.0.1:8545');
  });

  test('even on the local chain, a keyed RPC_URL is never published without PUBLIC_RPC_URL', () => {
    expect(refusal(() => loadConfig({ RPC_URL: 'http://127.0.0.1:8545/SECRETKEY' }))).toMatch(
      /PUBLIC_RPC_URL/,
    );
  });
});

describe('escrow settings (decision 026)', () => {
  const ESCROW = '0x6D8da4B12D658a36909ec1C75F81E54B8DB4eBf9';
  const KEY = `0x${'ab'.repeat(32)}`;

  test('ESCROW_ADDRESS is optional and an address; the role keys default to the dev ones on 31337 only', () => {
    expect(loadConfig({}).escrow.address).toBeUndefined();
    expect(loadConfig({ ESCROW_ADDRESS: ESCROW }).escrow.address).toBe(ESCROW.toLowerCase());
    expect(refusal(() => loadConfig({ ESCROW_ADDRESS: '0x1234' }))).toMatch(
      /ESCROW_ADDRESS: must be a 0x-prefixed 20-byte address/,
    );
    const local = loadConfig({});
    expect(local.escrow.adminPrivateKey).toBe(DEV_ESCROW_ROLES.admin.privateKey);
    expect(local.escrow.guardianPrivateKey).toBe(DEV_ESCROW_ROLES.guardian.privateKey);
    expect(mainnet().escrow).toEqual({
      address: undefined,
      deployBlock: 0n,
      deployBlockSet: false,
      adminPrivateKey: undefined,
      guardianPrivateKey: undefined,
    });
    const keyed = mainnet({ ESCROW_ADMIN_PRIVATE_KEY: KEY, ESCROW_GUARDIAN_PRIVATE_KEY: KEY });
    expect(keyed.escrow).toMatchObject({ adminPrivateKey: KEY, guardianPrivateKey: KEY });
    expect(refusal(() => mainnet({ ESCROW_GUARDIAN_PRIVATE_KEY: '0xabc' }))).toMatch(
      /ESCROW_GUARDIAN_PRIVATE_KEY: must be a 0x-prefixed 32-byte hex key/,
    );
  });
});

describe('ESCROW_DEPLOY_BLOCK', () => {
  const ESCROW = '0x6D8da4B12D658a36909ec1C75F81E54B8DB4eBf9';

  test('is where the escrow scans start: required with ESCROW_ADDRESS off the local chain', () => {
    expect(refusal(() => mainnet({ ESCROW_ADDRESS: ESCROW }))).toMatch(
      /ESCROW_DEPLOY_BLOCK: required with ESCROW_ADDRESS off the local chain/,
    );
    expect(mainnet({ ESCROW_ADDRESS: ESCROW, ESCROW_DEPLOY_BLOCK: '41000000' }).escrow.deployBlock).toBe(
      41_000_000n,
    );
  });

  test('defaults to the local chain’s first block, and must be a block number', () => {
    expect(loadConfig({ ESCROW_ADDRESS: ESCROW }).escrow.deployBlock).toBe(0n);
    for (const value of ['-1', '1.5', 'latest', '0x10']) {
      expect(refusal(() => loadConfig({ ESCROW_DEPLOY_BLOCK: value }))).toMatch(
        /ESCROW_DEPLOY_BLOCK: must be a block number/,
      );
    }
  });
});

describe('MARKET_ESCROW_ADDRESS and MARKET_ESCROW_DEPLOY_BLOCK', () => {
  const MARKET_ESCROW = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

  test('unset: no MarketEscrow', () => {
    expect(loadConfig({}).marketEscrow).toBeUndefined();
    expect(loadConfig({ MARKET_ESCROW_DEPLOY_BLOCK: '7' }).marketEscrow).toBeUndefined();
  });

  test('the block is required with the address off the local chain: where its scans start', () => {
    expect(refusal(() => mainnet({ MARKET_ESCROW_ADDRESS: MARKET_ESCROW }))).toMatch(
      /^Invalid configuration:\n {2}MARKET_ESCROW_DEPLOY_BLOCK: required with MARKET_ESCROW_ADDRESS off the local chain \(the block vault:deploy printed\)/,
    );
    expect(
      mainnet({ MARKET_ESCROW_ADDRESS: MARKET_ESCROW, MARKET_ESCROW_DEPLOY_BLOCK: '41000000' }).marketEscrow,
    ).toEqual({ address: MARKET_ESCROW.toLowerCase(), deployBlock: 41_000_000n, deployBlockSet: true });
  });

  test('on the local chain it defaults to the first block; it must be a block number, the address an address', () => {
    expect(loadConfig({ MARKET_ESCROW_ADDRESS: MARKET_ESCROW }).marketEscrow).toEqual({
      address: MARKET_ESCROW.toLowerCase(),
      deployBlock: 0n,
      deployBlockSet: false,
    });
    for (const value of ['-1', '1.5', 'latest', '0x10']) {
      expect(refusal(() => loadConfig({ MARKET_ESCROW_DEPLOY_BLOCK: value }))).toMatch(
        /MARKET_ESCROW_DEPLOY_BLOCK: must be a block number/,
      );
    }
    expect(refusal(() => loadConfig({ MARKET_ESCROW_ADDRESS: '0x1234' }))).toMatch(
      /MARKET_ESCROW_ADDRESS: must be a 0x-prefixed 20-byte address/,
    );
  });
});

describe('HTTP settings', () => {
  test('no proxy is trusted, rate limiting is on and answers are cached for a second unless configured', () => {
    const config = loadConfig({});
    expect(config.http).toEqual({
      trustProxy: 0,
      rateLimitPerMinute: 600,
      corsOrigins: [],
      responseCacheMs: 1000,
      // A wallet's own reads until its events drop them, a minute at most, in 32 MB (decision 032).
      walletReadCacheMs: 60_000,
      walletReadCacheMb: 32,
    });
  });

  test('CORS_ORIGINS takes a list of origins and refuses anything else', () => {
    expect(
      loadConfig({ CORS_ORIGINS: 'https://a.example, https://b.example:8443' }).http.corsOrigins,
    ).toEqual(['https://a.example', 'https://b.example:8443']);
    expect(refusal(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' }))).toMatch(/CORS_ORIGINS/);
    expect(refusal(() => loadConfig({ CORS_ORIGINS: '*' }))).toMatch(/CORS_ORIGINS/);
  });
});

describe('AI judge settings', () => {
  test('AI_MIN_CONFIDENCE below the floor stops start-up, naming the variable', () => {
    for (const value of ['0', '49']) {
      expect(() => loadConfig({ AI_MIN_CONFIDENCE: value })).toThrow(ConfigError);
      expect(() => loadConfig({ AI_MIN_CONFIDENCE: value })).toThrow(/AI_MIN_CONFIDENCE/);
    }
    expect(loadConfig({ AI_MIN_CONFIDENCE: String(MIN_AI_CONFIDENCE_FLOOR) }).ai.minConfidence).toBe(50);
  });

  test('markets wait at most MARKET_RESOLUTION_TIMEOUT_S for a verdict, three days unless set', () => {
    expect(loadConfig({}).ai.resolutionTimeoutS).toBe(DEFAULT_MARKET_RESOLUTION_TIMEOUT_S);
    expect(loadConfig({ MARKET_RESOLUTION_TIMEOUT_S: '7200' }).ai.resolutionTimeoutS).toBe(7200);
    expect(() => loadConfig({ MARKET_RESOLUTION_TIMEOUT_S: '60' })).toThrow(/MARKET_RESOLUTION_TIMEOUT_S/);
  });

  test('the round fee stays below the escrow’s 10 % cap, which must hold the rounding dust too', () => {
    expect(loadConfig({ ORACLE_FEE_BPS: '999' }).fees.oracleBps).toBe(999);
    expect(() => loadConfig({ ORACLE_FEE_BPS: '1000' })).toThrow(/ORACLE_FEE_BPS/);
  });
});

describe('evidence and second-opinion settings (decision 019)', () => {
  test('by default: AI_MODEL alone, no search, 25 pages, 2 sites, 200 analyses a day', () => {
    const config = loadConfig({ AI_MODEL: 'm1' });
    expect(config.ai.models).toEqual(['m1']);
    expect(config.ai.analyzeDailyLimit).toBe(200);
    expect(config.evidence).toEqual({
      searchProvider: null,
      searchUrl: undefined,
      searchApiKey: undefined,
      allowHosts: [],
      maxPages: 25,
      maxCreatorPages: 5,
      minSources: 2,
      pageParseMs: 2_000,
    });
  });

  test('AI_MODELS lists every judge, trimmed', () => {
    expect(loadConfig({ AI_MODEL: 'm1', AI_MODELS: ' a , b,,c ' }).ai.models).toEqual(['a', 'b', 'c']);
  });

  test('searxng needs SEARCH_URL, brave and tavily need SEARCH_API_KEY, naming the variable', () => {
    expect(refusal(() => loadConfig({ SEARCH_PROVIDER: 'searxng' }))).toMatch(/SEARCH_URL/);
    expect(refusal(() => loadConfig({ SEARCH_PROVIDER: 'brave' }))).toMatch(/SEARCH_API_KEY/);
    expect(refusal(() => loadConfig({ SEARCH_PROVIDER: 'tavily' }))).toMatch(/SEARCH_API_KEY/);
    expect(refusal(() => loadConfig({ SEARCH_PROVIDER: 'google' }))).toMatch(/SEARCH_PROVIDER/);
    expect(
      loadConfig({ SEARCH_PROVIDER: 'searxng', SEARCH_URL: 'http://127.0.0.1:8888' }).evidence.searchProvider,
    ).toBe('searxng');
  });

  test('EVIDENCE_ALLOW_HOSTS takes host:port entries and is refused off the local chain', () => {
    expect(
      loadConfig({ EVIDENCE_ALLOW_HOSTS: '127.0.0.1:8080, localhost:9000' }).evidence.allowHosts,
    ).toEqual(['127.0.0.1:8080', 'localhost:9000']);
    expect(refusal(() => loadConfig({ EVIDENCE_ALLOW_HOSTS: 'http://127.0.0.1:8080' }))).toMatch(
      /EVIDENCE_ALLOW_HOSTS/,
    );
    const offLocal = refusal(() =>
      loadConfig({
        CHAIN_ID: '97',
        PRICE_FEED: 'chainlink',
        EVIDENCE_ALLOW_HOSTS: '127.0.0.1:8080',
      }),
    );
    expect(offLocal).toMatch(/EVIDENCE_ALLOW_HOSTS: only allowed when CHAIN_ID is 31337/);
  });

  test('EVIDENCE_PAGE_PARSE_MS is a page budget of 100 ms to a minute', () => {
    expect(loadConfig({ EVIDENCE_PAGE_PARSE_MS: '500' }).evidence.pageParseMs).toBe(500);
    expect(refusal(() => loadConfig({ EVIDENCE_PAGE_PARSE_MS: '0' }))).toMatch(/EVIDENCE_PAGE_PARSE_MS/);
    expect(refusal(() => loadConfig({ EVIDENCE_PAGE_PARSE_MS: '600000' }))).toMatch(/EVIDENCE_PAGE_PARSE_MS/);
  });

  test('EVIDENCE_MIN_SOURCES, EVIDENCE_MAX_PAGES and EVIDENCE_MAX_CREATOR_PAGES are bounded', () => {
    expect(refusal(() => loadConfig({ EVIDENCE_MIN_SOURCES: '0' }))).toMatch(/EVIDENCE_MIN_SOURCES/);
    expect(refusal(() => loadConfig({ EVIDENCE_MAX_PAGES: '1000' }))).toMatch(/EVIDENCE_MAX_PAGES/);
    expect(refusal(() => loadConfig({ EVIDENCE_MAX_CREATOR_PAGES: '30' }))).toMatch(
      /EVIDENCE_MAX_CREATOR_PAGES/,
    );
  });
});

describe('price feeds per coin', () => {
  test("every coin has Chainlink's BSC mainnet aggregator by default, BNB's from CHAINLINK_FEED_ADDRESS", () => {
    const config = mainnet({ CHAINLINK_FEED_ADDRESS: '0x00000000000000000000000000000000000000bb' });
    expect(config.prices.chainlinkAddresses).toMatchObject({
      BNB: '0x00000000000000000000000000000000000000bb',
      BTC: '0x264990fbd0a4796a3e3d8e37c4d5f87a3aca5ebf',
      DOGE: '0x3ab0a0d137d4f946fbb19eecc6e92e64660231c8',
    });
  });

  test('CHAINLINK_FEED_ADDRESSES overrides single coins, and names what it cannot read', () => {
    const config = mainnet({
      CHAINLINK_FEED_ADDRESSES:
        ' BTC=0x00000000000000000000000000000000000000AA , ETH=0x00000000000000000000000000000000000000cc',
    });
    expect(config.prices.chainlinkAddresses.BTC).toBe('0x00000000000000000000000000000000000000aa');
    expect(config.prices.chainlinkAddresses.ETH).toBe('0x00000000000000000000000000000000000000cc');
    expect(
      refusal(() => mainnet({ CHAINLINK_FEED_ADDRESSES: 'SHIB=0x00000000000000000000000000000000000000aa' })),
    ).toMatch(/CHAINLINK_FEED_ADDRESSES.*'SHIB' is not one of/);
    expect(refusal(() => mainnet({ CHAINLINK_FEED_ADDRESSES: 'BTC=0x12' }))).toMatch(
      /BTC: '0x12' is not an address/,
    );
  });

  test('ORACLE_FEED_WAIT_S bounds the wait for a feed that cannot be asked: 30 minutes unless set, never 0 or less', () => {
    expect(loadConfig({}).prices.feedWaitS).toBe(1800);
    expect(loadConfig({ ORACLE_FEED_WAIT_S: '600' }).prices.feedWaitS).toBe(600);
    for (const value of ['0', '-60', '1.5', 'forever']) {
      expect(
        refusal(() => loadConfig({ ORACLE_FEED_WAIT_S: value })),
        value,
      ).toMatch(/ORACLE_FEED_WAIT_S/);
    }
  });

  test('TICKER_URL defaults to a template with {symbol}', () => {
    expect(mainnet({ PRICE_FEED: 'ticker' }).prices.tickerUrl).toBe(
      'https://api.binance.com/api/v3/ticker/price?symbol={symbol}',
    );
  });
});

describe('operator transactions', () => {
  test('are sent again after 15 s and replaced after 60 s unless set; the resend must come first', () => {
    expect(loadConfig({}).operatorTransactions).toEqual({
      maxFeePerGas: 10_000_000_000n,
      resendAfterMs: 15_000,
      replaceAfterMs: 60_000,
    });
    expect(
      loadConfig({ OPERATOR_TX_RESEND_AFTER_MS: '5000', OPERATOR_TX_REPLACE_AFTER_MS: '30000' })
        .operatorTransactions,
    ).toMatchObject({ resendAfterMs: 5000, replaceAfterMs: 30_000 });
    expect(refusal(() => loadConfig({ OPERATOR_TX_RESEND_AFTER_MS: '60000' }))).toMatch(
      /OPERATOR_TX_RESEND_AFTER_MS: must be shorter than OPERATOR_TX_REPLACE_AFTER_MS/,
    );
    expect(refusal(() => loadConfig({ OPERATOR_TX_REPLACE_AFTER_MS: '10' }))).toMatch(
      /OPERATOR_TX_REPLACE_AFTER_MS/,
    );
  });
});

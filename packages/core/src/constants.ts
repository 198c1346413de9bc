// Business constants of the product. Each one cites where it comes from: the product spec
// (docs/product.md, cited "docs/product.md §n") or the design (docs/architecture.md).

/** docs/product.md §9: mainnet 56 and testnet 97; docs/architecture.md "Chosen parts": a local Hardhat chain, 31337. */
export const CHAIN_ID = { bscMainnet: 56, bscTestnet: 97, local: 31337 } as const;

export const SUPPORTED_CHAIN_IDS = [CHAIN_ID.bscMainnet, CHAIN_ID.bscTestnet, CHAIN_ID.local] as const;

/**
 * The EIP-712 domain every signed request of this app names: operator actions (contract/operator.ts)
 * and bettors' flags (contract/review.ts); decision 007. Bump the version when a signed structure
 * changes: old signatures then stop verifying.
 */
export const OPERATOR_DOMAIN_NAME = 'BNB Predict';
export const OPERATOR_DOMAIN_VERSION = '1';

export type SupportedChainId = (typeof SUPPORTED_CHAIN_IDS)[number];

export function isSupportedChainId(chainId: number): chainId is SupportedChainId {
  return SUPPORTED_CHAIN_IDS.some((supported) => supported === chainId);
}

export type ChainInfo = { name: string; symbol: string; explorerUrl: string | null; decimals: 18 };

/** docs/product.md §3 (Wallet account): names, symbols and 18 decimals; docs/product.md §2 for the explorers. */
export const CHAINS: Record<SupportedChainId, ChainInfo> = {
  56: { name: 'BNB Smart Chain', symbol: 'BNB', explorerUrl: 'https://bscscan.com', decimals: 18 },
  97: {
    name: 'BNB Smart Chain Testnet',
    symbol: 'tBNB',
    explorerUrl: 'https://testnet.bscscan.com',
    decimals: 18,
  },
  31337: { name: 'Local Hardhat', symbol: 'BNB', explorerUrl: null, decimals: 18 },
};

const MAINNET_EXPLORER_URL = 'https://bscscan.com';
const TESTNET_EXPLORER_URL = 'https://testnet.bscscan.com';

/** docs/product.md §2 "View on Explorer": the mainnet explorer for chain 56, otherwise the testnet explorer. */
export function explorerAddressUrl(chainId: number, address: string): string {
  const base = chainId === CHAIN_ID.bscMainnet ? MAINNET_EXPLORER_URL : TESTNET_EXPLORER_URL;
  return `${base}/address/${address}`;
}

/**
 * The largest row id the database stores (`serial` is a 32-bit integer). Ids from outside — route
 * parameters, request bodies, payment intents — are bounded by it before any query, so a bigger one
 * is "not found", never a database error.
 */
export const MAX_ROW_ID = 2_147_483_647;

/** docs/product.md §5/§9: minimum market bet 0.005 BNB, input step 0.001. */
export const MIN_MARKET_BET_WEI = 5_000_000_000_000_000n;
export const MARKET_BET_STEP = '0.001';

/** docs/product.md §5/§9: minimum oracle bet 0.01 BNB, step 0.01, default 0.01. */
export const MIN_ORACLE_BET_WEI = 10_000_000_000_000_000n;
export const ORACLE_BET_STEP = '0.01';
export const ORACLE_BET_DEFAULT = '0.01';

/** docs/product.md §4/§9: hourly 1 h, daily 24 h. */
export const MARKET_DURATIONS = ['hourly', 'daily'] as const;
export type MarketDuration = (typeof MARKET_DURATIONS)[number];
export const MARKET_DURATION_S: Record<MarketDuration, number> = { hourly: 3600, daily: 86_400 };

/** docs/product.md §3 (Market.category) and §2 (category chips). */
export const MARKET_CATEGORIES = ['crypto', 'social_media', 'gaming', 'politics', 'sports'] as const;
export type MarketCategory = (typeof MARKET_CATEGORIES)[number];

/** docs/product.md §9: the option set is fixed to YES and NO. */
export const PREDICTIONS = ['YES', 'NO'] as const;
export type Prediction = (typeof PREDICTIONS)[number];

/** docs/product.md §2 create dialog: the coins of a Price Oracle market (decision 020). */
export const PRICE_SYMBOLS = ['BTC', 'ETH', 'BNB', 'SOL', 'XRP', 'ADA', 'AVAX', 'DOGE'] as const;
export type PriceSymbol = (typeof PRICE_SYMBOLS)[number];

/** A price market asks whether the coin ends strictly above or strictly below its target. */
export const COMPARISON_TYPES = ['above', 'below'] as const;
export type ComparisonType = (typeof COMPARISON_TYPES)[number];

/** Who settles a price market on its timeline (decision 020): the feed, not a model or an operator. */
export const PRICE_FEED_ACTOR = 'price-feed';

/** docs/product.md §2: a Price Oracle target is in USD with at most 2 decimals (input step 0.01). */
export const TARGET_PRICE_DECIMALS = 2;

/** docs/product.md §3 (Oracle bet.position). */
export const POSITIONS = ['bull', 'bear'] as const;
export type Position = (typeof POSITIONS)[number];

/** docs/product.md §4/§9: rounds start every 10 minutes; docs/architecture.md "Oracle rounds": betting window 300 s by default. */
export const DEFAULT_ROUND_INTERVAL_S = 600;
export const DEFAULT_BETTING_WINDOW_S = 300;

/** docs/product.md §4/§9: the upcoming round is shown only if it starts within 900 s. */
export const NEXT_ROUND_WINDOW_S = 900;

/** docs/product.md §7/§9: 5 live-ish and 5 ended rounds are read. */
export const ORACLE_RECENT_ROUNDS = 5;

/** docs/product.md §7/§9: Previous Rounds shows the last 10 settled markets. */
export const SETTLED_MARKETS_LIMIT = 10;

/** docs/product.md §7/§9: leaderboard top 100. */
export const LEADERBOARD_LIMIT = 100;

/** docs/product.md §9 refresh intervals, in milliseconds (realtime pushes come first; these are the fallback). */
export const REFRESH_MS = {
  markets: 30_000,
  settledMarkets: 30_000,
  claimableMarkets: 10_000,
  oracleRounds: 1_000,
  claimableOracle: 5_000,
  vaultBalance: 10_000,
  price: 3_000,
  roundProgression: 30_000,
  leaderboard: 30_000,
  /** The landing page's proof of reserves (docs/architecture.md "Proof of reserves"). */
  reserves: 30_000,
} as const;

/** docs/product.md §2/§9: the landing background has 50 particles. */
export const PARTICLE_COUNT = 50;

/** docs/product.md §2/§9: tooltip open delay. */
export const TOOLTIP_DELAY_MS = 700;

/** docs/product.md §7/§9: prices are scaled by 1e8 (the Chainlink BNB/USD feed's 8 decimals, docs/architecture.md). */
export const PRICE_DECIMALS = 8;

/** docs/architecture.md "Markets": description 1–2000 chars, title ≤ 120, resolution instructions ≤ 2000. */
export const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_TITLE_LENGTH = 120;
export const MAX_INSTRUCTIONS_LENGTH = 2000;
/** An operator's reason for resolving or voiding a market: shown as its analysis, so as long as one. */
export const MAX_OPERATOR_REASON_LENGTH = 2000;

/** docs/architecture.md "Markets": a verdict at or above this confidence (percent) settles the market. */
export const DEFAULT_AI_MIN_CONFIDENCE = 70;
/**
 * AI_MIN_CONFIDENCE may not be set lower: below 50 the model itself rates its verdict more likely
 * wrong than right, and 0 would let any YES or NO settle (docs/security.md "The AI judge").
 */
export const MIN_AI_CONFIDENCE_FLOOR = 50;

/**
 * How long after its deadline a market may wait for a verdict before it is voided and every stake
 * refunded (MARKET_RESOLUTION_TIMEOUT_S): a market judged by an operator nobody answers, or by a
 * prompt version or model this server no longer runs, must not lock stakes forever (decision 009).
 */
export const DEFAULT_MARKET_RESOLUTION_TIMEOUT_S = 3 * 24 * 3600;

// Payment rules for money the server could not record at once (docs/decisions/010).

/**
 * A payment answered 202 (valid, not final yet) is forgotten when its transaction has not mined and
 * become final this long after the request (PENDING_PAYMENT_EXPIRY_S); reconciliation still records
 * it from the stored request if it mines later.
 */
export const DEFAULT_PENDING_PAYMENT_EXPIRY_S = 1800;

/** Payments one sender may have waiting to confirm at once: unmined transactions cost nothing to make. */
export const MAX_PENDING_PAYMENTS_PER_SENDER = 20;

/**
 * How long an escrow deposit the server cannot record from its event alone waits for its request (a
 * creation's text is off chain, a flag's signed reason too, a round or market may not be known yet)
 * before it is refused and given back.
 */
export const UNMATCHED_DEPOSIT_GRACE_S = 600;

import * as z from 'zod/mini';
import { AddressSchema, IsoTimeSchema, WeiSchema } from './primitives.ts';

// A part of the config every page loads, so it lives here, not with the evidence schemas.
/** The resolution settings bettors are shown in "How resolution works" (GET /api/config). */
export const ResolutionSettingsSchema = z.object({
  /** The models that judge new markets (more than one: they must agree); empty without AI. */
  models: z.array(z.string()),
  /** searxng | brave | tavily, or null: only the URLs the creator named are read. */
  searchProvider: z.nullable(z.enum(['searxng', 'brave', 'tavily'])),
  /** At most this many pages are read per attempt (EVIDENCE_MAX_PAGES). */
  maxPages: z.int(),
  /** Of those, at most this many of the URLs the creator named (docs/security.md "Reading the web"). */
  maxCreatorPages: z.int(),
  /** Verified quotes must come from at least this many distinct sites (EVIDENCE_MIN_SOURCES). */
  minSources: z.int(),
  /** A YES/NO below this confidence does not settle (AI_MIN_CONFIDENCE). */
  minConfidence: z.int(),
});
export type ResolutionSettings = z.infer<typeof ResolutionSettingsSchema>;

/** What the web needs to know about this deployment; one build serves any chain. */
export const ConfigResponseSchema = z.object({
  chainId: z.int(),
  chainName: z.string(),
  rpcUrl: z.string(),
  explorerUrl: z.nullable(z.string()),
  /**
   * The escrow contract (decision 026; described whole by GET /api/vault) every stake is
   * deposited into, on this chain, checksummed; null when this server has none configured (every paid
   * request is then refused, ESCROW_NOT_CONFIGURED).
   */
  escrow: z.nullable(z.object({ address: AddressSchema, chainId: z.int() })),
  minMarketBetWei: WeiSchema,
  minOracleBetWei: WeiSchema,
  marketFeeBps: z.int(),
  oracleFeeBps: z.int(),
  /**
   * Decision 026: a flag's bond is max(flagBondMinWei, flagBondBps × the market's pool on the
   * escrow / 10000), the escrow's own `disputeBondMin` and `disputeBondBps`; null without an escrow
   * (or while it cannot be read).
   */
  flagBondMinWei: z.nullable(WeiSchema),
  flagBondBps: z.nullable(z.int()),
  roundIntervalS: z.int(),
  bettingWindowS: z.int(),
  priceFeed: z.enum(['chainlink', 'ticker', 'simulated']),
  aiConfigured: z.boolean(),
  /** What judges custom markets and how (decisions 018 and 019): shown in "How resolution works". */
  resolution: ResolutionSettingsSchema,
  /** The server relays claims (its operator key and the escrow are configured); else a wallet claims itself. */
  claimsEnabled: z.boolean(),
  operatorAddresses: z.array(AddressSchema),
  serverTime: IsoTimeSchema,
});
export type ConfigResponse = z.infer<typeof ConfigResponseSchema>;

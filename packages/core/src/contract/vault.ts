import * as z from 'zod/mini';
import { AddressSchema, IsoTimeSchema, PriceSymbolSchema, UsdPriceSchema, WeiSchema } from './primitives.ts';

/** A non-negative whole number as a decimal string (a block number, a uint256 the contract answers). */
const UintSchema = z.string().check(z.regex(/^(0|[1-9][0-9]{0,77})$/, 'must be a whole number'));

/** 32 bytes as 0x-hex. */
const Bytes32Schema = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32 bytes of 0x-hex'));

/** One entry of a Solidity JSON ABI (a function, event, error, constructor, receive or fallback). */
const AbiItemSchema = z.looseObject({ type: z.string() });

/**
 * GET /api/vault (decisions 025 and 026): the escrow contract `PredictionEscrow` that holds
 * the stakes, as the chain says it is, every figure read at `blockNumber`. Public: anyone can check
 * each figure with any node (`eth_call` at that block) and call the contract with `abi`.
 */
export const VaultResponseSchema = z.object({
  /** The escrow contract's address. */
  address: AddressSchema,
  chainId: z.int(),
  /** The block every figure below was read at. */
  blockNumber: UintSchema,
  /** The contract's ABI (JSON), as this server's build compiled it. */
  abi: z.array(AbiItemSchema),
  /** runtime code hash with its immutables zeroed: the same for every deployment of one build. */
  codeHash: Bytes32Schema,
  roles: z.object({
    /** The admin (Ownable2Step's owner; a multisig in production). */
    owner: AddressSchema,
    /** The address a two-step transfer of the admin role waits on; null when none. */
    pendingOwner: z.nullable(AddressSchema),
    /** Posts settlements and refunds refused deposits; holds gas money only. */
    operator: AddressSchema,
    /** Pauses and vetoes pending settlements, nothing else. */
    guardian: AddressSchema,
    /** Receives fees and swept excess; fixed at deploy. */
    treasury: AddressSchema,
  }),
  /** Deposits and settlements stop; claims, refunds, withdrawals, fee collection and vetoes go on. */
  paused: z.boolean(),
  /** The contract's BNB. */
  balanceWei: WeiSchema,
  /**
   * Everything it owes: open and refunding pools, unclaimed payouts, credits, and the fees of settled
   * markets not yet collected (the contract counts fees inside its liabilities, not apart).
   */
  liabilitiesWei: WeiSchema,
  /** balance − liabilities: BNB forced in, nobody's stake (`sweepExcess` sends it to the treasury). */
  excessWei: WeiSchema,
  /** The settlements' rate limit: payout wei a settlement draws from a bucket. */
  settlement: z.object({
    capacityWei: WeiSchema,
    refillPerHourWei: WeiSchema,
    /** What a settlement can draw now. */
    allowanceWei: WeiSchema,
  }),
  /** Seconds from a settlement to its first payout at least (the guardian's window). */
  minPayoutDelayS: z.int(),
  /** A dispute's bond: max(minWei, pool × bps / 10000), fixed at deploy. */
  disputeBond: z.object({ minWei: WeiSchema, bps: z.int() }),
  /** The id the next deposit gets (stakes are numbered from 1). */
  nextStakeId: UintSchema,
  /** The contract's public constants by their Solidity names, as decimal strings. */
  constants: z.object({
    /** A settlement's fee cap, in bps of the pool. */
    MAX_FEE_BPS: UintSchema,
    /** Seconds after a market's close with no settlement before anyone may turn it to refunds. */
    ESCAPE_DELAY: UintSchema,
    /** Seconds ahead of now a deposit's close may be at most. */
    MAX_BETTING_PERIOD: UintSchema,
    /** Gas a payout's push forwards; a failed push becomes a credit to withdraw. */
    PAYOUT_GAS_CAP: UintSchema,
    MIN_PAYOUT_DELAY: UintSchema,
    MAX_PAYOUT_DELAY: UintSchema,
    MIN_SETTLEMENT_CAPACITY: UintSchema,
    MAX_SETTLEMENT_CAPACITY: UintSchema,
    /** Disputes a market's settlement may take at most. */
    MAX_DISPUTES: UintSchema,
    MIN_DISPUTE_BOND_MIN: UintSchema,
    MAX_DISPUTE_BOND_MIN: UintSchema,
    MAX_DISPUTE_BOND_BPS: UintSchema,
  }),
});
export type VaultResponse = z.infer<typeof VaultResponseSchema>;

/** GET /api/prices/:symbol and /api/prices/:symbol/history: which coin. */
export const PriceParamsSchema = z.strictObject({ symbol: PriceSymbolSchema });
export type PriceParams = z.infer<typeof PriceParamsSchema>;

export const PriceResponseSchema = z.object({
  symbol: PriceSymbolSchema,
  usd: UsdPriceSchema,
  source: z.enum(['chainlink', 'ticker', 'simulated']),
  /** When the feed says the price was last updated. */
  updatedAt: IsoTimeSchema,
  /** The feed has not answered for a while: this is the last good value (still within ORACLE_MAX_AGE_S). */
  stale: z.boolean(),
});
export type PriceResponse = z.infer<typeof PriceResponseSchema>;

/** GET /api/prices: the latest price of every coin, for the board and the create dialog. */
export const PricesResponseSchema = z.object({ prices: z.array(PriceResponseSchema) });
export type PricesResponse = z.infer<typeof PricesResponseSchema>;

/** GET /api/prices/:symbol/history: samples since this time (at most 24 h back; default the last hour). */
export const PriceHistoryQuerySchema = z.strictObject({ since: z.optional(IsoTimeSchema) });
export type PriceHistoryQuery = z.infer<typeof PriceHistoryQuerySchema>;

export const PriceHistoryResponseSchema = z.object({
  symbol: PriceSymbolSchema,
  points: z.array(z.object({ usd: UsdPriceSchema, at: IsoTimeSchema })),
});
export type PriceHistoryResponse = z.infer<typeof PriceHistoryResponseSchema>;

/** Dev only (local chain): POST /api/dev/price sets the simulated feed's price of one coin. */
export const DevSetPriceBodySchema = z.strictObject({
  /** Which coin; BNB when left out. */
  symbol: z.optional(PriceSymbolSchema),
  usd: UsdPriceSchema,
  /** true (default): the price stays there until the next call; false: the random walk continues from it. */
  hold: z.optional(z.boolean()),
});
export type DevSetPriceBody = z.infer<typeof DevSetPriceBodySchema>;

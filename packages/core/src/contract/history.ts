import * as z from 'zod/mini';
import { betReturnShape } from './bet-return.ts';
import {
  AddressSchema,
  ComparisonTypeSchema,
  IsoTimeSchema,
  SignedWeiSchema,
  TxHashSchema,
  UsdPriceSchema,
  WeiSchema,
} from './primitives.ts';

// A wallet's bets across both games, one row per bet, and its P&L summary (decision 012).
// Definitions (docs/decisions/012-history-and-pnl.md; the words of every bet, docs/api.md "Money words"):
//   return = everything the bet returns (stake included); null while pending, 0 when lost
//   profit = return − stake: null when pending, −stake when lost, 0 when refunded, return − stake when won
//   net    = the summary's sum of profits
//   win rate = won / (won + lost): refunds and pending bets are not decided bets
// Each flag bond the wallet paid is an entry of its own (kind "bond", game "markets"),
// read the same way: the bond is its stake, what came back its return (decision 011).

export const HistoryGameSchema = z.enum(['markets', 'oracle']);
export type HistoryGame = z.infer<typeof HistoryGameSchema>;

/** pending: not decided yet (market open or being judged, round not ended). */
export const HistoryResultSchema = z.enum(['pending', 'won', 'lost', 'refunded']);
export type HistoryResult = z.infer<typeof HistoryResultSchema>;

/** none: nothing to claim (pending or lost); claimable: won or refunded, not claimed; claimed: paid. */
export const ClaimStateSchema = z.enum(['none', 'claimable', 'claimed']);
export type ClaimState = z.infer<typeof ClaimStateSchema>;

/** bet: a stake in a market or a round; bond: a flag's bond on a market's proposed verdict (decision 011). */
export const HistoryEntryKindSchema = z.enum(['bet', 'bond']);
export type HistoryEntryKind = z.infer<typeof HistoryEntryKindSchema>;

/**
 * What became of a flag's bond (decision 011): held while its market is in review; then returned
 * (the verdict was overturned: the bond and a reward out of the fee), forfeited (confirmed: it went
 * to the winners) or returned_void (the market refunded every stake: the bond alone).
 */
export const BondFateSchema = z.enum(['held', 'returned', 'forfeited', 'returned_void']);
export type HistoryBondFate = z.infer<typeof BondFateSchema>;

/**
 * A bond's fate read as a bet's result, so the status filters and the P&L treat both alike: held is
 * pending, returned is won (profit = the reward, ≥ 0), forfeited is lost (profit = −bond), returned_void
 * is refunded (profit 0). The history's SQL is built from this table.
 */
export const BOND_FATE_RESULTS = {
  held: 'pending',
  returned: 'won',
  forfeited: 'lost',
  returned_void: 'refunded',
} as const satisfies Record<HistoryBondFate, HistoryResult>;

/**
 * Whether a bond came back: refunded once the escrow paid its stake (final on chain), none otherwise
 * (held or forfeited: nothing owed; returned: not paid by the contract yet, its claimState says
 * claimable).
 */
export const BondRefundStateSchema = z.enum(['none', 'refunded']);
export type BondRefundState = z.infer<typeof BondRefundStateSchema>;

export const HistoryBondSchema = z.object({
  fate: BondFateSchema,
  /** The reward out of the market's fee within returnWei (returned); "0" otherwise; null while held. */
  rewardWei: z.nullable(WeiSchema),
  refundState: BondRefundStateSchema,
});
export type HistoryBond = z.infer<typeof HistoryBondSchema>;

/**
 * A price market's terms: what its title is made of, so a page can say it in the reader's
 * language; the stored English `title` stays for API clients.
 */
export const HistoryPriceTermsSchema = z.object({
  targetSymbol: z.string(),
  comparisonType: ComparisonTypeSchema,
  /** USD, as the market's `targetPrice`. */
  targetPrice: UsdPriceSchema,
  deadline: IsoTimeSchema,
});
export type HistoryPriceTerms = z.infer<typeof HistoryPriceTermsSchema>;

export const HistoryEntrySchema = z.object({
  /** A bet, or a flag's bond (then `bond` says what became of it). */
  kind: HistoryEntryKindSchema,
  /** A bond is of the markets game. */
  game: HistoryGameSchema,
  /**
   * The bet's id within its game (market bets and round bets are numbered apart); for a bond, the
   * flag's id (flags are numbered apart too: key entries by kind, game and id).
   */
  betId: z.int(),
  /** Markets: the market id and title. Oracle: null id, the round epoch. */
  marketId: z.nullable(z.int()),
  title: z.nullable(z.string()),
  /** A price market's terms (bets and bonds on one); null for custom markets and rounds. */
  priceTerms: z.optional(z.nullable(HistoryPriceTermsSchema)),
  epoch: z.nullable(z.int()),
  /**
   * YES / NO for markets, bull / bear for rounds. A bond: the side of the flagger's (first) bet in
   * the market, since only a bettor of a market may flag it.
   */
  side: z.enum(['YES', 'NO', 'bull', 'bear']),
  /** The stake; for a bond, the bond. */
  stakeWei: z.string().check(z.regex(/^[1-9][0-9]{0,77}$/)),
  /** For a bond, its fate read as a result (BOND_FATE_RESULTS). */
  result: HistoryResultSchema,
  /** As on every bet (bet-return.ts). A bond: what came back (bond + reward, "0", or the bond on a void). */
  ...betReturnShape,
  /**
   * A returned bond is a stake on the escrow (decision 026), claimed like a bet: claimable until the
   * contract paid it (POST /api/claims scope markets), then claimed.
   */
  claimState: ClaimStateSchema,
  /** When the bet was placed; for a bond, when the flag was recorded. */
  placedAt: IsoTimeSchema,
  /** When the market was settled or the round closed; null while pending. */
  settledAt: z.nullable(IsoTimeSchema),
  /** The payment's transaction: the bet's, or the bond's. */
  txHash: TxHashSchema,
  /** What became of a bond; null on a bet. */
  bond: z.nullable(HistoryBondSchema),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** Bonds are filtered by their result and claim state like bets (BOND_FATE_RESULTS). */
export const HISTORY_STATUSES = ['all', 'active', 'won', 'lost', 'refunded', 'claimable', 'claimed'] as const;
export const HistoryStatusFilterSchema = z.enum(HISTORY_STATUSES);
export type HistoryStatusFilter = z.infer<typeof HistoryStatusFilterSchema>;
/** markets includes the wallet's flag bonds; oracle has none. */
export const HistoryGameFilterSchema = z.enum(['all', 'markets', 'oracle']);
export type HistoryGameFilter = z.infer<typeof HistoryGameFilterSchema>;

export const HistoryResponseSchema = z.object({
  entries: z.array(HistoryEntrySchema),
  /** Pass as `cursor` for the next page (older bets); null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type HistoryResponse = z.infer<typeof HistoryResponseSchema>;

/**
 * Counts, win rate, best win and total wagered are of bets; the net adds every settled bond's profit
 * (−bond when forfeited, the reward when returned, 0 on a void).
 */
export const HistorySummarySchema = z.object({
  address: AddressSchema,
  /** Sum of profitWei over decided bets (won, lost, refunded) and settled bonds. */
  netWei: z.clone(SignedWeiSchema),
  /** Sum of every stake, pending bets included. */
  totalWageredWei: z.string().check(z.regex(/^(0|[1-9][0-9]{0,77})$/)),
  /** The largest profitWei of a won bet; null without a win. */
  bestWinWei: z.nullable(SignedWeiSchema),
  /** won / (won + lost), 0..1; null when no bet is decided yet. */
  winRate: z.nullable(z.number().check(z.minimum(0), z.maximum(1))),
  counts: z.object({
    total: z.int(),
    pending: z.int(),
    won: z.int(),
    lost: z.int(),
    refunded: z.int(),
  }),
});
export type HistorySummary = z.infer<typeof HistorySummarySchema>;

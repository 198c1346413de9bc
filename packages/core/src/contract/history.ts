import * as z from 'zod/mini';
import { AddressSchema, IsoTimeSchema, TxHashSchema } from './primitives.ts';

// A wallet's bets across both games, one row per bet, and its P&L summary (issue 11, decision 012).
// Definitions (docs/decisions/012-history-and-pnl.md):
//   payout = everything the bet returns (stake included); null while pending, 0 when lost
//   net    = payout − stake: null when pending, −stake when lost, 0 when refunded, payout − stake when won
//   win rate = won / (won + lost): refunds and pending bets are not decided bets

export const HistoryGameSchema = z.enum(['markets', 'oracle']);
export type HistoryGame = z.infer<typeof HistoryGameSchema>;

/** pending: not decided yet (market open or being judged, round not ended). */
export const HistoryResultSchema = z.enum(['pending', 'won', 'lost', 'refunded']);
export type HistoryResult = z.infer<typeof HistoryResultSchema>;

/**
 * none: nothing to claim (pending or lost); claimable: won or refunded, not claimed; paying: in a
 * vault payout not final yet; claimed: paid.
 */
export const ClaimStateSchema = z.enum(['none', 'claimable', 'paying', 'claimed']);
export type ClaimState = z.infer<typeof ClaimStateSchema>;

/** A signed wei amount as a decimal-integer string (net can be negative). */
export const SignedWeiSchema = z
  .string()
  .check(z.regex(/^(0|-?[1-9][0-9]{0,77})$/, 'must be a whole number of wei as a decimal string'));

export const HistoryEntrySchema = z.object({
  game: HistoryGameSchema,
  /** The bet's id within its game (market bets and round bets are numbered apart). */
  betId: z.int(),
  /** Markets: the market id and title. Oracle: null id, the round epoch. */
  marketId: z.nullable(z.int()),
  title: z.nullable(z.string()),
  epoch: z.nullable(z.int()),
  /** YES / NO for markets, bull / bear for rounds. */
  side: z.enum(['YES', 'NO', 'bull', 'bear']),
  stakeWei: z.string().check(z.regex(/^[1-9][0-9]{0,77}$/)),
  result: HistoryResultSchema,
  /** The full return (stake included); null while pending, "0" when lost. */
  payoutWei: z.nullable(z.string().check(z.regex(/^(0|[1-9][0-9]{0,77})$/))),
  /** payout − stake; null while pending. */
  netWei: z.nullable(SignedWeiSchema),
  claimState: ClaimStateSchema,
  placedAt: IsoTimeSchema,
  /** When the market was settled or the round closed; null while pending. */
  settledAt: z.nullable(IsoTimeSchema),
  txHash: TxHashSchema,
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const HISTORY_STATUSES = ['all', 'active', 'won', 'lost', 'refunded', 'claimable', 'claimed'] as const;
export const HistoryStatusFilterSchema = z.enum(HISTORY_STATUSES);
export type HistoryStatusFilter = z.infer<typeof HistoryStatusFilterSchema>;
export const HistoryGameFilterSchema = z.enum(['all', 'markets', 'oracle']);
export type HistoryGameFilter = z.infer<typeof HistoryGameFilterSchema>;

export const HistoryResponseSchema = z.object({
  entries: z.array(HistoryEntrySchema),
  /** Pass as `cursor` for the next page (older bets); null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type HistoryResponse = z.infer<typeof HistoryResponseSchema>;

export const HistorySummarySchema = z.object({
  address: AddressSchema,
  /** Sum of net over decided bets (won, lost, refunded). */
  netWei: SignedWeiSchema,
  /** Sum of every stake, pending bets included. */
  totalWageredWei: z.string().check(z.regex(/^(0|[1-9][0-9]{0,77})$/)),
  /** The largest net of a won bet; null without a win. */
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

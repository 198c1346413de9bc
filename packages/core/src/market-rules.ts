import { MARKET_DURATION_S, MAX_TITLE_LENGTH, type MarketDuration, type Prediction } from './constants.ts';
import { marketWinReturnWei } from './payouts.ts';

// Rules of AI-judged YES/NO markets as the product shows them (docs/product.md §4, docs/architecture.md "Markets").
// Time is always a parameter: the server's clock decides, never the browser's (docs/architecture.md).

export type MarketStatus = 'active' | 'settling' | 'settled';

/** docs/product.md §4: deadline at creation is now + 1 hour (hourly) or + 24 hours (daily). */
export function marketDeadline(now: Date, duration: MarketDuration): Date {
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) throw new RangeError('now is not a valid date');
  return new Date(nowMs + MARKET_DURATION_S[duration] * 1000);
}

/** decision 026: how much earlier than the duration a creation's close may be (a wallet's confirmation). */
export const CREATION_CLOSE_EARLY_S = 10 * 60;
/** decision 026: how much later than the duration a creation's close may be (clocks a little apart). */
export const CREATION_CLOSE_LATE_S = 60;

/**
 * decision 026: the close a creation's deposit names (`closesAtS`, unix seconds) is the market's deadline,
 * accepted when it lies a duration from the deposit's block (`blockTimeS`), less up to 10 minutes for a
 * wallet's confirmation, or up to 1 minute more: `closesAt − blockTime ∈ [duration − 10 min, duration + 1 min]`.
 */
export function creationCloseAccepted(
  duration: MarketDuration,
  blockTimeS: number,
  closesAtS: number,
): boolean {
  if (!Number.isSafeInteger(blockTimeS) || !Number.isSafeInteger(closesAtS)) return false;
  const span = closesAtS - blockTimeS;
  const durationS = MARKET_DURATION_S[duration];
  return span >= durationS - CREATION_CLOSE_EARLY_S && span <= durationS + CREATION_CLOSE_LATE_S;
}

/** The close a creator asks for at `nowS` (unix seconds, the server's clock): now + the duration. */
export function creationCloseAt(duration: MarketDuration, nowS: number): number {
  return Math.floor(nowS) + MARKET_DURATION_S[duration];
}

function deadlinePassed(deadline: Date, now: Date): boolean {
  return now.getTime() >= deadline.getTime();
}

export type MarketDisplayStatus = 'live' | 'closed' | 'completed';

/**
 * docs/product.md §4: Live if active and the deadline has not passed; Closed once it has; Completed when
 * settled. A settling market is Closed whatever the time: it no longer takes bets and has no
 * result yet (settling starts at the deadline, docs/architecture.md "Markets").
 */
export function marketDisplayStatus(
  market: { status: MarketStatus; deadline: Date },
  now: Date,
): MarketDisplayStatus {
  if (market.status === 'settled') return 'completed';
  if (market.status === 'active' && !deadlinePassed(market.deadline, now)) return 'live';
  return 'closed';
}

/** docs/product.md §2/§5: Join Bet only while live and before the deadline. */
export function canJoinMarket(market: { status: MarketStatus; deadline: Date }, now: Date): boolean {
  return market.status === 'active' && !deadlinePassed(market.deadline, now);
}

/**
 * docs/decisions/011-resolution-review-window.md: true while the market has a proposed verdict that
 * has not settled. Read by the market's page, the settlement room and the escrow's settlement plans.
 */
export function isInReview(market: {
  status: string;
  proposedAt: Date | null;
  proposedResult: string | null;
}): boolean {
  return market.status === 'settling' && market.proposedAt !== null && market.proposedResult !== null;
}

/**
 * docs/product.md §2 (YES and NO panels): favourability percent of each side's pool. Whole percents summing
 * to 100, rounded half up from exact bigint ratios; a side with any stake shows at least 1% and
 * an empty side 0%, so the bar never contradicts the pool. 50/50 when nothing is staked.
 */
export function favourability(yesWei: bigint, noWei: bigint): { yesPercent: number; noPercent: number } {
  if (yesWei < 0n || noWei < 0n) throw new RangeError('pools cannot be negative');
  const total = yesWei + noWei;
  if (total === 0n) return { yesPercent: 50, noPercent: 50 };
  let yesPercent = Number((yesWei * 200n + total) / (total * 2n));
  if (yesWei > 0n && noWei > 0n) yesPercent = Math.min(99, Math.max(1, yesPercent));
  return { yesPercent, noPercent: 100 - yesPercent };
}

/** docs/product.md §7/§9: the bet record's potential_payout is twice the stake (kept for the record only). */
export function potentialPayoutRecordWei(amountWei: bigint): bigint {
  return 2n * amountWei;
}

/**
 * docs/architecture.md "Markets" deviation: the UI shows a live pool-based estimate instead of 2 × stake. What
 * this stake would return if it joined now and its side won, by the same rule as settlement.
 */
export function estimateMarketWinWei(input: {
  stakeWei: bigint;
  side: Prediction;
  totalYesWei: bigint;
  totalNoWei: bigint;
  feeBps: number;
}): bigint {
  const { stakeWei, side, totalYesWei, totalNoWei, feeBps } = input;
  if (stakeWei < 0n || totalYesWei < 0n || totalNoWei < 0n)
    throw new RangeError('amounts cannot be negative');
  if (stakeWei === 0n) return 0n;
  const winningPoolWei = (side === 'YES' ? totalYesWei : totalNoWei) + stakeWei;
  const losingPoolWei = side === 'YES' ? totalNoWei : totalYesWei;
  return marketWinReturnWei(stakeWei, winningPoolWei, losingPoolWei, feeBps);
}

const ELLIPSIS = '…';

function cutToLength(text: string, max: number): string {
  // By code points, so an emoji is never split in half.
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}${ELLIPSIS}`;
}

/**
 * docs/architecture.md "Markets": the title is optional; without one it is the description's first non-empty
 * line, cut to 120 characters with '…'.
 */
export function deriveMarketTitle(description: string, title?: string | null): string {
  const givenTitle = title?.trim() ?? '';
  if (givenTitle !== '') return cutToLength(givenTitle, MAX_TITLE_LENGTH);
  const firstLine = description
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .find((line) => line !== '');
  return cutToLength(firstLine ?? '', MAX_TITLE_LENGTH);
}

import { MARKET_DURATION_S, MAX_TITLE_LENGTH, type MarketDuration, type Prediction } from './constants.ts';
import { marketWinReturnWei } from './payouts.ts';

// Rules of AI-judged YES/NO markets as the product shows them (spec §4, DESIGN "Markets").
// Time is always a parameter: the server's clock decides, never the browser's (DESIGN).

export type MarketStatus = 'active' | 'settling' | 'settled';
export type MarketResult = 'YES' | 'NO';
/** Spec §3 has pending | won | claimed; 'lost' and 'refunded' are recorded by our settlement. */
export type BetStatus = 'pending' | 'won' | 'claimed' | 'lost' | 'refunded';

/** Spec §4: deadline at creation is now + 1 hour (hourly) or + 24 hours (daily). */
export function marketDeadline(now: Date, duration: MarketDuration): Date {
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) throw new RangeError('now is not a valid date');
  return new Date(nowMs + MARKET_DURATION_S[duration] * 1000);
}

function deadlinePassed(deadline: Date, now: Date): boolean {
  return now.getTime() >= deadline.getTime();
}

export type MarketDisplayStatus = 'live' | 'closed' | 'completed';

/**
 * Spec §4: Live if active and the deadline has not passed; Closed once it has; Completed when
 * settled. A settling market is Closed whatever the time: it no longer takes bets and has no
 * result yet (settling starts at the deadline, DESIGN "Markets").
 */
export function marketDisplayStatus(
  market: { status: MarketStatus; deadline: Date },
  now: Date,
): MarketDisplayStatus {
  if (market.status === 'settled') return 'completed';
  if (market.status === 'active' && !deadlinePassed(market.deadline, now)) return 'live';
  return 'closed';
}

/** Spec §2/§5: Join Bet only while live and before the deadline. */
export function canJoinMarket(market: { status: MarketStatus; deadline: Date }, now: Date): boolean {
  return market.status === 'active' && !deadlinePassed(market.deadline, now);
}

export type MyBetDisplayStatus = 'claimed' | 'won' | 'lost' | 'active' | 'refunded' | BetStatus;

/**
 * Spec §4 (My Bets): Claimed; else Won/Lost when the market is settled (result equal to the
 * prediction means Won); Active when the market is active; else the raw status. A refunded bet
 * shows Refunded before Won/Lost: its market was voided or had no winning bets, so "Lost" would
 * be untrue.
 */
export function myBetDisplayStatus(
  bet: { status: BetStatus; prediction: Prediction },
  market: { status: MarketStatus; result: MarketResult | null },
): MyBetDisplayStatus {
  if (bet.status === 'claimed') return 'claimed';
  if (bet.status === 'refunded') return 'refunded';
  if (market.status === 'settled' && market.result !== null) {
    return market.result === bet.prediction ? 'won' : 'lost';
  }
  if (market.status === 'active') return 'active';
  return bet.status;
}

/**
 * Spec §4 Claim Prize, as our settlement records it (DESIGN "Markets"): a winning bet is stored
 * 'won' with payout_amount = profit, a refund is stored 'refunded'; claiming sets 'claimed'.
 * Claimable iff the market is settled and either the bet won (prediction = result, status 'won',
 * payout computed) or it is refunded. A won bet whose profit rounded to 0 wei is still claimable:
 * its stake is owed (deviation from spec §7's "payout_amount > 0" filter, which would strand it).
 */
export function isBetClaimable(
  bet: { status: BetStatus; prediction: Prediction; payoutWei: bigint | null },
  market: { status: MarketStatus; result: MarketResult | null },
): boolean {
  if (market.status !== 'settled') return false;
  if (bet.status === 'refunded') return true;
  return bet.status === 'won' && market.result === bet.prediction && bet.payoutWei !== null;
}

/** Spec §7: claimable total = payout_amount (profit) + amount; a refund is the stake alone. */
export function claimableAmountWei(bet: {
  amountWei: bigint;
  payoutWei: bigint | null;
  status: BetStatus;
}): bigint {
  if (bet.status === 'refunded') return bet.amountWei;
  if (bet.status === 'won' && bet.payoutWei !== null) return bet.amountWei + bet.payoutWei;
  return 0n;
}

/**
 * Spec §2 (YES and NO panels): favourability percent of each side's pool. Whole percents summing
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

/** Spec §7/§9: the bet record's potential_payout is twice the stake (kept for the record only). */
export function potentialPayoutRecordWei(amountWei: bigint): bigint {
  return 2n * amountWei;
}

/**
 * DESIGN "Markets" deviation: the UI shows a live pool-based estimate instead of 2 × stake. What
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
 * DESIGN "Markets": the title is optional; without one it is the description's first non-empty
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

import { PRICE_FEED_ACTOR, type PriceSymbol } from '@pm/core/constants';
import { priceMarketFeedWaitMs } from '@pm/core/feed-wait';
import { formatUsdPrice } from '@pm/core/price';
import { priceMarketOutcome, priceReadingRelation } from '@pm/core/price-market';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import type { EscrowTarget } from '../escrow/escrow-target.ts';
import type { Job } from '../jobs/job-runner.ts';
import type { FeedWaitMetrics, Metrics } from '../metrics/metrics.ts';
import type { PriceFeed, PriceSource } from '../prices/price-feed.ts';
import { firstFreshSampleAfter } from '../prices/price-samples-repository.ts';
import { type SettlementVerdict, settleMarket } from '../settlement/settle-market.ts';
import {
  type DuePriceMarket,
  listSettlingPriceMarkets,
  recordSettlementReading,
} from './price-markets-repository.ts';

// Decision 020: a price market settles from the stored samples, with no AI and no review window.
// The settlement reading is the first sample taken at or after the deadline whose feed time is
// within ORACLE_MAX_AGE_S of the deadline; "above" is strictly greater, "below" strictly less, equal
// is NO (core's priceMarketOutcome). When no such reading can come any more, the coin's feed is
// asked for its own round at the deadline (the one the oracle game's rule picks: @pm/core/feed-rounds),
// so starving the sampler around a deadline cannot void a market its starver is losing
// (docs/security.md "Prices"). The market is void and every stake refunded only when the feed has no
// fresh round there either, or when the feed could not be asked for ORACLE_FEED_WAIT_S after the
// deadline. The markets settlement job moves it from active to settling at its deadline
// (closeExpiredMarkets) and never judges it; settleMarket pays it like every other market.

const MARKETS_PER_RUN = 20;
/** Room for a sample being written while we look: a sampler transaction still in flight. */
const IN_FLIGHT_SLACK_MS = 60_000;

export type PriceSettlementJobDeps = {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  source: PriceSource;
  /** ORACLE_MAX_AGE_S. */
  maxAgeS: number;
  /** MARKET_RESOLUTION_TIMEOUT_S: never wait longer than this after the deadline. */
  resolutionTimeoutS: number;
  feeBps: number;
  /**
   * Each coin's feed, asked for its round at a deadline no sample decided. Without one (a test of
   * the samples alone), a missing reading voids the market.
   */
  feeds?: ReadonlyMap<PriceSymbol, Pick<PriceFeed, 'roundAt'>>;
  /**
   * ORACLE_FEED_WAIT_S: how long after the deadline a feed that cannot be asked is waited for, at most
   * MARKET_RESOLUTION_TIMEOUT_S (@pm/core/feed-wait).
   */
  feedWaitS: number;
  /**
   * Counts each market settled (bnbpredict_resolutions_total), once committed, and the markets
   * waiting for an unreachable feed or voided for it (bnbpredict_price_feed_*).
   */
  metrics?: Pick<Metrics, 'countResolution'> & FeedWaitMetrics;
  /** The server's escrow: markets whose stakes are on it settle there too (none: no escrow). */
  escrow?: EscrowTarget | null;
};

/** The reading that settles a market: a stored sample, or the feed's own round at the deadline. */
type SettlementReading = {
  price: bigint;
  updatedAt: Date;
  roundId: string | null;
  from: 'sample' | 'feed';
};

/** Why a market is void: no fresh price at the deadline, or a feed that could not be asked in time. */
type VoidReason = 'price_missing' | 'price_feed_unreachable';

/**
 * How long after its deadline a market waits for its settlement reading. A sample taken later than
 * deadline + 2 × ORACLE_MAX_AGE_S cannot qualify (its feed time would be more than ORACLE_MAX_AGE_S
 * past the deadline, or the feed refuses it as stale), so waiting longer cannot help; and
 * MARKET_RESOLUTION_TIMEOUT_S bounds every market's wait.
 */
export function priceSettlementGiveUpMs(maxAgeS: number, resolutionTimeoutS: number): number {
  return Math.min(2 * maxAgeS * 1000 + IN_FLIGHT_SLACK_MS, resolutionTimeoutS * 1000);
}

export function createPriceSettlementJob(deps: PriceSettlementJobDeps): Job {
  const warnings = { lastAt: 0 };
  return {
    name: 'price-market-settlement',
    intervalMs: 2_000,
    async run() {
      await settleDuePriceMarkets(deps, warnings);
    },
  };
}

/** A feed that cannot be asked is logged at most once a minute (the job runs every 2 s). */
const WARN_EVERY_MS = 60_000;

/** One run: settles (or voids) the due price markets; `warnings` keeps when the job last warned. */
export async function settleDuePriceMarkets(
  deps: PriceSettlementJobDeps,
  warnings: { lastAt: number },
): Promise<number[]> {
  const settled: number[] = [];
  // Coins whose feed could not be asked in this run: their other markets wait without asking again,
  // so a rate-limited RPC is not hit once per market.
  const unreachable = new Set<PriceSymbol>();
  let waiting = 0;
  for (const market of await listSettlingPriceMarkets(deps.db, MARKETS_PER_RUN)) {
    const now = deps.clock.now();
    const symbol = market.targetSymbol as PriceSymbol;
    const sample = await firstFreshSampleAfter(deps.db, {
      source: deps.source,
      symbol,
      deadline: market.deadline,
      maxAgeS: deps.maxAgeS,
    });
    if (sample) {
      const reading: SettlementReading = {
        price: sample.price,
        updatedAt: sample.updatedAt,
        roundId: sample.feedRoundId,
        from: 'sample',
      };
      if (await settleFromReading(deps, market, reading, now)) settled.push(market.id);
      continue;
    }
    const giveUpAt =
      market.deadline.getTime() + priceSettlementGiveUpMs(deps.maxAgeS, deps.resolutionTimeoutS);
    if (now.getTime() < giveUpAt) continue;
    // No sample can qualify any more: the feed's own round at the deadline decides, if it has one.
    const feed = deps.feeds?.get(symbol);
    const answer = !feed
      ? null
      : unreachable.has(symbol)
        ? undefined
        : await askFeedAt(deps, feed, market, warnings);
    if (answer) {
      if (await settleFromReading(deps, market, answer, now)) settled.push(market.id);
      continue;
    }
    if (answer === undefined) {
      unreachable.add(symbol);
      const waitUntil =
        market.deadline.getTime() + priceMarketFeedWaitMs(deps.feedWaitS, deps.resolutionTimeoutS);
      if (now.getTime() < waitUntil) {
        waiting += 1;
        continue;
      }
    }
    const reason: VoidReason = answer === undefined ? 'price_feed_unreachable' : 'price_missing';
    if (await voidMarket(deps, market, reason, now)) settled.push(market.id);
  }
  deps.metrics?.recordFeedWaiting('price_market', waiting);
  return settled;
}

/**
 * The feed's round covering the deadline (@pm/core/feed-rounds): a reading, null when the feed has
 * no fresh round there, undefined when it could not be asked (the market waits, bounded).
 */
async function askFeedAt(
  deps: PriceSettlementJobDeps,
  feed: Pick<PriceFeed, 'roundAt'>,
  market: DuePriceMarket,
  warnings: { lastAt: number },
): Promise<SettlementReading | null | undefined> {
  try {
    const answer = await feed.roundAt(market.deadline, deps.maxAgeS);
    if (!answer.found) {
      deps.logger.warn(
        { marketId: market.id, symbol: market.targetSymbol, reason: answer.reason },
        'the price feed has no fresh round at the deadline of a price market',
      );
      return null;
    }
    const { price, updatedAt, roundId } = answer.reading;
    return { price, updatedAt, roundId, from: 'feed' };
  } catch (error) {
    const nowMs = Date.now();
    if (nowMs - warnings.lastAt >= WARN_EVERY_MS) {
      warnings.lastAt = nowMs;
      deps.logger.warn(
        { err: error, marketId: market.id, symbol: market.targetSymbol },
        'the price feed could not be asked for the price at a price market’s deadline; retrying',
      );
    }
    return undefined;
  }
}

async function settleFromReading(
  deps: PriceSettlementJobDeps,
  market: DuePriceMarket,
  reading: SettlementReading,
  now: Date,
): Promise<boolean> {
  const symbol = market.targetSymbol;
  const outcome = priceMarketOutcome({
    comparisonType: market.comparisonType,
    targetScaled: market.targetScaled,
    settlementScaled: reading.price,
  });
  const relation = priceReadingRelation({
    targetScaled: market.targetScaled,
    settlementScaled: reading.price,
  });
  const analysis =
    `${symbol}/USD was ${formatUsdPrice(reading.price, 8)} (feed time ${reading.updatedAt.toISOString()}` +
    `${reading.roundId ? `, round ${reading.roundId}` : ''}` +
    `${reading.from === 'feed' ? ", read from the feed's own history: no sample was taken in time" : ''}` +
    `), ${relation === 'equal' ? 'equal to' : relation} the target ${formatUsdPrice(market.targetScaled, 2)}: ${outcome}.`;
  const summary = await deps.db.transaction(async (tx) => {
    const result = await settleMarket(tx, {
      marketId: market.id,
      outcome,
      verdict: { analysis, confidence: null, sources: [] },
      feeBps: deps.feeBps,
      now,
      from: ['settling'],
      actor: PRICE_FEED_ACTOR,
      escrow: deps.escrow ?? null,
    });
    if (result) {
      await recordSettlementReading(tx, {
        marketId: market.id,
        price: reading.price,
        roundId: reading.roundId,
        updatedAt: reading.updatedAt,
      });
    }
    return result;
  });
  if (!summary) return false;
  deps.metrics?.countResolution(summary.outcome);
  deps.logger.info(
    { marketId: market.id, outcome, price: String(reading.price), from: reading.from },
    'price market settled',
  );
  return true;
}

async function voidMarket(
  deps: PriceSettlementJobDeps,
  market: DuePriceMarket,
  reason: VoidReason,
  now: Date,
): Promise<boolean> {
  const symbol = market.targetSymbol;
  const verdict: SettlementVerdict = {
    analysis:
      reason === 'price_feed_unreachable'
        ? `No ${symbol}/USD reading within ${deps.maxAgeS} s of the deadline was sampled, and the price feed could not be reached for ${priceMarketFeedWaitMs(deps.feedWaitS, deps.resolutionTimeoutS) / 1000} s after it, so the market is void and every stake is refunded.`
        : `No ${symbol}/USD reading within ${deps.maxAgeS} s of the deadline was sampled or is in the feed's own history, so the market is void and every stake is refunded.`,
    confidence: null,
    sources: [],
  };
  const summary = await deps.db.transaction((tx) =>
    settleMarket(tx, {
      marketId: market.id,
      outcome: 'VOID',
      verdict,
      feeBps: deps.feeBps,
      now,
      from: ['settling'],
      actor: PRICE_FEED_ACTOR,
      escrow: deps.escrow ?? null,
    }),
  );
  if (!summary) return false;
  deps.metrics?.countResolution('VOID');
  if (reason === 'price_feed_unreachable') {
    deps.metrics?.countFeedUnreachable('price_market');
    deps.logger.error(
      { marketId: market.id, symbol, reason, refundedBets: summary.refundedBets },
      'price market voided: the price feed could not be asked for ORACLE_FEED_WAIT_S after its deadline',
    );
  } else {
    deps.logger.warn(
      { marketId: market.id, symbol, reason, refundedBets: summary.refundedBets },
      'price market voided: no fresh reading',
    );
  }
  return true;
}

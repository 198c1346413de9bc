import { PRICE_FEED_ACTOR, type PriceSymbol } from '@pm/core/constants';
import { formatUsdPrice } from '@pm/core/price';
import { priceMarketOutcome, priceReadingRelation } from '@pm/core/price-market';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import type { Job } from '../jobs/job-runner.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { PriceSource } from '../prices/price-feed.ts';
import { firstFreshSampleAfter } from '../prices/price-samples-repository.ts';
import { settleMarket } from '../settlement/settle-market.ts';
import { listSettlingPriceMarkets, recordSettlementReading } from './price-markets-repository.ts';

// Decision 020: a price market settles from the stored samples, with no AI and no review window.
// The settlement reading is the first sample taken at or after the deadline whose feed time is
// within ORACLE_MAX_AGE_S of the deadline; "above" is strictly greater, "below" strictly less, equal
// is NO (core's priceMarketOutcome). When no such reading can come any more the market is void and
// every stake refunded. The markets settlement job moves it from active to settling at its deadline
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
  /** Counts each market settled (bnbpredict_resolutions_total), once committed. */
  metrics?: Pick<Metrics, 'countResolution'>;
};

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
  return {
    name: 'price-market-settlement',
    intervalMs: 2_000,
    async run() {
      await settleDuePriceMarkets(deps);
    },
  };
}

export async function settleDuePriceMarkets(deps: PriceSettlementJobDeps): Promise<number[]> {
  const settled: number[] = [];
  for (const market of await listSettlingPriceMarkets(deps.db, MARKETS_PER_RUN)) {
    const now = deps.clock.now();
    const symbol = market.targetSymbol as PriceSymbol;
    const reading = await firstFreshSampleAfter(deps.db, {
      source: deps.source,
      symbol,
      deadline: market.deadline,
      maxAgeS: deps.maxAgeS,
    });
    if (reading) {
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
        `${reading.feedRoundId ? `, round ${reading.feedRoundId}` : ''}), ${relation === 'equal' ? 'equal to' : relation} the target ` +
        `${formatUsdPrice(market.targetScaled, 2)}: ${outcome}.`;
      const summary = await deps.db.transaction(async (tx) => {
        const result = await settleMarket(tx, {
          marketId: market.id,
          outcome,
          verdict: { analysis, confidence: null, sources: [] },
          feeBps: deps.feeBps,
          now,
          from: ['settling'],
          actor: PRICE_FEED_ACTOR,
        });
        if (result) {
          await recordSettlementReading(tx, {
            marketId: market.id,
            price: reading.price,
            roundId: reading.feedRoundId,
            updatedAt: reading.updatedAt,
          });
        }
        return result;
      });
      if (summary) {
        settled.push(market.id);
        deps.metrics?.countResolution(summary.outcome);
        deps.logger.info(
          { marketId: market.id, outcome, price: String(reading.price) },
          'price market settled',
        );
      }
      continue;
    }
    const giveUpAt =
      market.deadline.getTime() + priceSettlementGiveUpMs(deps.maxAgeS, deps.resolutionTimeoutS);
    if (now.getTime() < giveUpAt) continue;
    const summary = await deps.db.transaction((tx) =>
      settleMarket(tx, {
        marketId: market.id,
        outcome: 'VOID',
        verdict: {
          analysis: `No ${symbol}/USD reading within ${deps.maxAgeS} s of the deadline was sampled, so the market is void and every stake is refunded.`,
          confidence: null,
          sources: [],
        },
        feeBps: deps.feeBps,
        now,
        from: ['settling'],
        actor: PRICE_FEED_ACTOR,
      }),
    );
    if (summary) {
      settled.push(market.id);
      deps.metrics?.countResolution('VOID');
      deps.logger.warn(
        { marketId: market.id, refundedBets: summary.refundedBets },
        'price market voided: no fresh reading',
      );
    }
  }
  return settled;
}

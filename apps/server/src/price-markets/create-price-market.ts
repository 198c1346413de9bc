import type { CreatePriceMarketBody } from '@pm/core/contract/markets';
import { formatUsdPrice } from '@pm/core/price';
import { priceMarketContentHash, priceMarketTitle, targetPriceScaled } from '@pm/core/price-market';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import {
  type CreatedMarket,
  creationEscrowTerms,
  creationPaymentInput,
  insertMarketWithCreatorBet,
} from '../markets/create-market.ts';
import { refuseAmount } from '../markets/market-validation.ts';
import { findBetByPayment } from '../markets/markets-repository.ts';
import { type AcceptPaymentResult, acceptPayment, type PaymentContext } from '../payments/accept-payment.ts';
import { refusePayment } from '../payments/refuse-payment.ts';
import type { PriceSource } from '../prices/price-feed.ts';
import { latestPriceSample, type PriceSample } from '../prices/price-samples-repository.ts';

/** What judges a price market: the feed, never a model (the AI settlement job does not claim these). */
export const PRICE_RESOLVER = { model: 'price-feed', promptVersion: 'price-rule-1' } as const;

export type PriceMarketsDeps = {
  db: Db;
  payments: PaymentContext;
  clock: Clock;
  prices: {
    source: PriceSource;
    /** The aggregator address, ticker host or "simulated" that decides a coin (MarketSchema.priceFeed). */
    feedLabel: (symbol: CreatePriceMarketBody['targetSymbol']) => string;
    /** ORACLE_MAX_AGE_S: an older reading is no price. */
    maxAgeS: number;
  };
};

/**
 * POST /api/markets with `betType: "price_prediction"` (docs/decisions/020): the creator's
 * payment, whose intent commits to priceMarketContentHash(terms), becomes a market whose title the
 * server writes and whose start price is the coin's latest fresh sample. Without one the creation is
 * refused with PRICE_UNAVAILABLE, and a deposit behind it is kept as owed back by the escrow
 * (refusePayment). The deadline is the close the creation's deposit named (decision 026, as custom
 * markets'); `stakeId`: the one stake reconciliation records.
 */
export async function createPriceMarket(
  deps: PriceMarketsDeps,
  body: CreatePriceMarketBody,
  options: { stakeId?: bigint } = {},
): Promise<AcceptPaymentResult<CreatedMarket>> {
  const terms = {
    targetSymbol: body.targetSymbol,
    comparisonType: body.comparisonType,
    targetPrice: body.targetPrice,
    duration: body.duration,
  };
  const contentHash = priceMarketContentHash(terms);
  const input = creationPaymentInput(deps.payments, body, contentHash, options);
  const amountRefusal = refuseAmount(BigInt(body.amountWei));
  if (amountRefusal) return refusePayment(deps.payments, input, amountRefusal);
  const start = await freshPrice(deps, body.targetSymbol);
  if (!start) {
    return refusePayment(
      deps.payments,
      input,
      new AppError(
        'PRICE_UNAVAILABLE',
        `No fresh ${body.targetSymbol}/USD price right now; try again shortly`,
      ),
    );
  }
  return acceptPayment(deps.payments, {
    ...input,
    record: (tx, payment) => {
      const now = deps.clock.now();
      const escrowTerms = creationEscrowTerms(body, payment, now);
      const deadline = escrowTerms.deadline;
      const feed = deps.prices.feedLabel(body.targetSymbol);
      return insertMarketWithCreatorBet(tx, {
        values: {
          title: priceMarketTitle({ ...terms, deadline }),
          description: priceMarketDescription({ ...terms, deadline, feed }),
          resolutionInstructions: null,
          betType: 'price_prediction',
          category: 'crypto',
          duration: body.duration,
          ...escrowTerms,
          targetSymbol: body.targetSymbol,
          targetPrice: targetPriceScaled(body.targetPrice),
          comparisonType: body.comparisonType,
          startPrice: start.price,
          priceFeed: feed,
          resolverModel: PRICE_RESOLVER.model,
          resolverPromptVersion: PRICE_RESOLVER.promptVersion,
          contentHash,
        },
        prediction: body.prediction,
        payment,
        now,
      });
    },
    findRecorded: findBetByPayment,
  });
}

/** The coin's latest sample, if the feed updated it within ORACLE_MAX_AGE_S (else: missing or stale). */
async function freshPrice(deps: PriceMarketsDeps, symbol: CreatePriceMarketBody['targetSymbol']) {
  const sample: PriceSample | undefined = await latestPriceSample(deps.db, deps.prices.source, symbol);
  if (!sample || sample.price <= 0n) return null;
  const oldestMs = deps.clock.now().getTime() - deps.prices.maxAgeS * 1000;
  if (sample.updatedAt.getTime() < oldestMs || sample.sampledAt.getTime() < oldestMs) return null;
  return sample;
}

/** The rule in words, stored as the market's description (decision 020); the web shows its own, localised. */
function priceMarketDescription(input: {
  targetSymbol: string;
  comparisonType: 'above' | 'below';
  targetPrice: string;
  deadline: Date;
  feed: string;
}): string {
  const target = formatUsdPrice(targetPriceScaled(input.targetPrice), 2);
  const strictly = input.comparisonType === 'above' ? 'strictly above' : 'strictly below';
  return (
    `Settled by the ${input.targetSymbol}/USD price feed (${input.feed}), with no AI and no review window: ` +
    `YES if the first reading sampled at or after ${input.deadline.toISOString()} is ${strictly} ${target} USD; ` +
    `a price equal to the target is NO. No reading sampled in time: the feed's own round at the deadline decides; ` +
    `none fresh there, or the feed unreachable for ORACLE_FEED_WAIT_S: void, every stake refunded.`
  );
}

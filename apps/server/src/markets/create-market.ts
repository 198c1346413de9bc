import { normalizeAddress } from '@pm/core/address';
import type {
  CreateCustomMarketBody,
  CreateMarketBody,
  CreatePriceMarketBody,
} from '@pm/core/contract/markets';
import { marketContentHash, type PaymentIntent } from '@pm/core/intent';
import { deriveMarketTitle, marketDeadline, potentialPayoutRecordWei } from '@pm/core/market-rules';
import type { Clock } from '../chain/clock.ts';
import { parseHex } from '../chain/parse-hex.ts';
import type { Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { recordBetPlaced } from '../leaderboard/user-stats-repository.ts';
import { type AcceptPaymentResult, acceptPayment, type PaymentContext } from '../payments/accept-payment.ts';
import { refusePayment } from '../payments/refuse-payment.ts';
import type { VerifiedPayment } from '../payments/verify-payment.ts';
import { publish } from '../realtime/outbox-repository.ts';
import { refuseCreateMarket } from './market-validation.ts';
import {
  type BetRow,
  findBetByPayment,
  insertBet,
  insertMarket,
  type MarketRow,
  type NewMarketRow,
} from './markets-repository.ts';

/** What will judge a market, fixed when it is created (docs/architecture.md "Markets"). */
export type ResolverIdentity = { model: string; promptVersion: string };

export type MarketsServiceDeps = {
  payments: PaymentContext;
  clock: Clock;
  resolver: ResolverIdentity;
  /** Price Oracle markets (issue 19), created by apps/server/src/price-markets; absent: refused. */
  createPriceMarket?: (body: CreatePriceMarketBody) => Promise<AcceptPaymentResult<CreatedMarket>>;
};

export type CreatedMarket = { market: MarketRow; bet: BetRow };

/**
 * The payment claimed by a market creation, of either kind (a custom market, or a price market:
 * issue 19): the creator's transfer, whose intent commits to the market's content hash and side.
 */
export function creationPaymentInput(
  body: Pick<CreateMarketBody, 'txHash' | 'creatorAddress' | 'amountWei' | 'prediction'>,
  contentHash: `0x${string}`,
) {
  const intent: PaymentIntent = { kind: 'create', contentHash, prediction: body.prediction };
  return {
    claim: {
      txHash: parseHex(body.txHash, { bytes: 32 }),
      from: normalizeAddress(body.creatorAddress),
      amountWei: BigInt(body.amountWei),
      intent,
    },
    purpose: 'market_create' as const,
    request: { body },
  };
}

/**
 * POST /api/markets: the creator's payment, verified on chain, becomes the market and its first
 * bet in one transaction (docs/product.md §7 "Create market", docs/architecture.md "Payment verification").
 */
export async function createMarket(
  deps: MarketsServiceDeps,
  body: CreateMarketBody,
): Promise<AcceptPaymentResult<CreatedMarket>> {
  // Issue 19: a price market's terms, hash and start price are its own module's (price-markets/).
  if (body.betType === 'price_prediction') {
    if (!deps.createPriceMarket) throw new AppError('VALIDATION_FAILED', 'Price markets are not open');
    return deps.createPriceMarket(body);
  }
  // docs/api.md: the payment commits to the body's strings exactly as sent.
  const contentHash = marketContentHash(body);
  const input = creationPaymentInput(body, contentHash);
  const refusal = refuseCreateMarket(body);
  if (refusal) return refusePayment(deps.payments, input, refusal);
  return acceptPayment(deps.payments, {
    ...input,
    record: (tx, payment) => recordNewMarket(deps, tx, body, contentHash, payment),
    findRecorded: findBetByPayment,
  });
}

async function recordNewMarket(
  deps: MarketsServiceDeps,
  tx: Tx,
  body: CreateCustomMarketBody,
  contentHash: string,
  payment: VerifiedPayment & { paymentId: number },
): Promise<CreatedMarket> {
  const now = deps.clock.now();
  return insertMarketWithCreatorBet(tx, {
    values: {
      title: deriveMarketTitle(body.description, body.title),
      description: body.description,
      resolutionInstructions: body.resolutionInstructions ?? null,
      betType: 'custom_bet',
      category: body.category,
      duration: body.duration,
      // docs/product.md §4: server now + 1 h or 24 h; never the browser's clock.
      deadline: marketDeadline(now, body.duration),
      resolverModel: deps.resolver.model,
      resolverPromptVersion: deps.resolver.promptVersion,
      contentHash,
    },
    prediction: body.prediction,
    payment,
    now,
  });
}

type MarketTerms = Omit<
  NewMarketRow,
  | 'creatorAddress'
  | 'startTime'
  | 'status'
  | 'totalYesAmount'
  | 'totalNoAmount'
  | 'yesCount'
  | 'noCount'
  | 'createdAt'
  | 'updatedAt'
>;

/**
 * A paid creation's rows, inside acceptPayment's transaction: the market with the creator's stake
 * in its totals, the creator's bet, the leaderboard count and the realtime events. Custom and
 * price markets (issue 19) share it; only their terms differ.
 */
export async function insertMarketWithCreatorBet(
  tx: Tx,
  input: {
    values: MarketTerms;
    prediction: 'YES' | 'NO';
    payment: VerifiedPayment & { paymentId: number };
    now: Date;
  },
): Promise<CreatedMarket> {
  const { payment, now } = input;
  const creator = normalizeAddress(payment.from);
  const amountWei = payment.amountWei;
  const yes = input.prediction === 'YES';
  const market = await insertMarket(tx, {
    ...input.values,
    creatorAddress: creator,
    startTime: now,
    status: 'active',
    totalYesAmount: yes ? amountWei : 0n,
    totalNoAmount: yes ? 0n : amountWei,
    yesCount: yes ? 1 : 0,
    noCount: yes ? 0 : 1,
    createdAt: now,
    updatedAt: now,
  });
  const bet = await insertBet(tx, {
    marketId: market.id,
    userAddress: creator,
    prediction: input.prediction,
    amount: amountWei,
    potentialPayout: potentialPayoutRecordWei(amountWei),
    status: 'pending',
    // docs/product.md §6: the creator must take part and is labelled Creator.
    isCreator: true,
    paymentId: payment.paymentId,
    txHash: payment.txHash.toLowerCase(),
    createdAt: now,
  });
  await recordBetPlaced(tx, creator);
  await publish(tx, { topic: 'markets', id: market.id });
  await publish(tx, { topic: 'bets', id: bet.id, marketId: market.id });
  await publish(tx, { topic: 'vault' });
  return { market, bet };
}

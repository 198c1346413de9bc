import { normalizeAddress } from '@pm/core/address';
import type {
  CreateCustomMarketBody,
  CreateMarketBody,
  CreatePriceMarketBody,
} from '@pm/core/contract/markets';
import { marketContentHash, type PaymentIntent } from '@pm/core/intent';
import { creationCloseAccepted, deriveMarketTitle, potentialPayoutRecordWei } from '@pm/core/market-rules';
import { marketCreateTerms } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import type { Clock } from '../chain/clock.ts';
import { parseHex } from '../chain/parse-hex.ts';
import type { Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import type { VerifiedPayment } from '../escrow/deposits/verified-payment.ts';
import { recordBetPlaced } from '../leaderboard/user-stats-repository.ts';
import { type AcceptPaymentResult, acceptPayment, type PaymentContext } from '../payments/accept-payment.ts';
import { refusePayment } from '../payments/refuse-payment.ts';
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
  /** Price Oracle markets (docs/decisions/020), created by price-markets/; absent: refused. */
  createPriceMarket?: (
    body: CreatePriceMarketBody,
    options?: { stakeId?: bigint },
  ) => Promise<AcceptPaymentResult<CreatedMarket>>;
};

export type CreatedMarket = { market: MarketRow; bet: BetRow };

/**
 * The payment claimed by a market creation, of either kind (a custom market, or a price market):
 * the creator's deposit into the escrow (decision 026) under the fresh id it picked and the close it
 * asked for, kind create, its side and the market's content hash as its terms. `stakeId`:
 * reconciliation records that one stake, from its own event.
 */
export function creationPaymentInput(
  payments: PaymentContext,
  body: Pick<
    CreateMarketBody,
    'txHash' | 'creatorAddress' | 'amountWei' | 'prediction' | 'escrowId' | 'closesAt'
  >,
  contentHash: `0x${string}`,
  options: { stakeId?: bigint } = {},
) {
  const escrow = payments.escrow;
  if (!escrow) {
    throw new AppError(
      'ESCROW_NOT_CONFIGURED',
      'Markets are unavailable: no escrow contract is configured on this server.',
    );
  }
  const intent: PaymentIntent = { kind: 'create', contentHash, prediction: body.prediction };
  const terms = marketCreateTerms({
    escrowId: parseHex(body.escrowId, { bytes: 32 }),
    closesAt: body.closesAt,
    contentHash,
    prediction: body.prediction,
  });
  return {
    claim: {
      txHash: parseHex(body.txHash, { bytes: 32 }),
      from: normalizeAddress(body.creatorAddress),
      amountWei: BigInt(body.amountWei),
      intent,
    },
    deposit: { escrow, terms, ...options },
    purpose: 'market_create' as const,
    request: { body },
  };
}

/**
 * Decision 026: a creation's deadline is exactly the close its deposit named, accepted when it lies the
 * market's duration from the deposit's block (core's creationCloseAccepted) and still ahead of the
 * server's now; the market's escrow id and key are the deposit's. Throws (the deposit is kept as owed
 * back by the escrow) otherwise. An escrow id another market holds is refused by insertMarket
 * (ESCROW_ID_TAKEN), in the same transaction: the same request sent again is answered from its payment
 * before it gets here.
 */
export function creationEscrowTerms(
  body: Pick<CreateMarketBody, 'escrowId' | 'closesAt' | 'duration'>,
  payment: VerifiedPayment,
  now: Date,
): { deadline: Date; escrowId: string; escrowKey: string } {
  const blockTimeS = Math.floor(payment.blockTime.getTime() / 1000);
  if (!creationCloseAccepted(body.duration, blockTimeS, body.closesAt)) {
    throw new AppError('CLOSE_OUT_OF_RANGE');
  }
  const deadline = new Date(body.closesAt * 1000);
  if (deadline.getTime() <= now.getTime()) throw new AppError('MARKET_CLOSED');
  const escrowId = body.escrowId.toLowerCase() as `0x${string}`;
  return { deadline, escrowId, escrowKey: marketKey(escrowId, body.closesAt).toLowerCase() };
}

/**
 * POST /api/markets: the creator's deposit, verified on chain, becomes the market and its first
 * bet in one transaction (docs/product.md §7 "Create market", docs/architecture.md "Payment verification").
 * `stakeId`: the one stake reconciliation records.
 */
export async function createMarket(
  deps: MarketsServiceDeps,
  body: CreateMarketBody,
  options: { stakeId?: bigint } = {},
): Promise<AcceptPaymentResult<CreatedMarket>> {
  // A price market's terms, hash and start price are its own module's (price-markets/).
  if (body.betType === 'price_prediction') {
    if (!deps.createPriceMarket) throw new AppError('VALIDATION_FAILED', 'Price markets are not open');
    return deps.createPriceMarket(body, options);
  }
  // docs/api.md: the payment commits to the body's strings exactly as sent.
  const contentHash = marketContentHash(body);
  const input = creationPaymentInput(deps.payments, body, contentHash, options);
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
      // Decision 026: the close the deposit named, within the duration of its block (never the browser's clock).
      ...creationEscrowTerms(body, payment, now),
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
 * price markets share it; only their terms differ.
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
    stakeId: payment.deposit.stakeId,
    createdAt: now,
  });
  await recordBetPlaced(tx, creator);
  await publish(tx, { topic: 'markets', id: market.id });
  await publish(tx, { topic: 'bets', id: bet.id, marketId: market.id });
  await publish(tx, { topic: 'vault' });
  return { market, bet };
}

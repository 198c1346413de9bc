import type { Prediction } from '@pm/core/constants';
import { creationCloseAt } from '@pm/core/market-rules';
import { marketCreateTerms, newMarketId } from '@pm/escrow/deposit-terms';
import type { Address, Hash, Hex } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import { type MarketTerms, marketTermsHash } from './market-intent.ts';
import { type PayAndPostClients, type PayAndPostOptions, type Posted, payThenPost } from './pay-and-post.ts';
import type { Payer } from './payer.ts';
import { depositPaymentCall, type PaymentOverrides } from './payment-call.ts';

/**
 * A new market and its creator's first bet (docs/api.md POST /api/markets). `escrowId` (default a fresh
 * `newMarketId()`) and `closesAt` (unix seconds; default the payer's chain time + the duration) are
 * what the creation's deposit names (decision 026): the market's id on the escrow and its deadline.
 */
export type MarketOrder = {
  terms: MarketTerms;
  prediction: Prediction;
  amountWei: bigint;
  escrowId?: Hex;
  closesAt?: number;
};

/** An order with its escrow id and close chosen: what is deposited and what is posted. */
export type PlacedMarketOrder = MarketOrder & { escrowId: Hex; closesAt: number };

/** Picks the order's escrow id and close where it does not name them. */
export async function placeMarketOrder(payer: Payer, order: MarketOrder): Promise<PlacedMarketOrder> {
  const nowS = order.closesAt === undefined ? await chainNowS(payer) : 0;
  return {
    ...order,
    escrowId: order.escrowId ?? newMarketId(),
    closesAt: order.closesAt ?? creationCloseAt(order.terms.duration, nowS),
  };
}

/** Deposits the creator's stake into the escrow for the new market (decision 026); the hash once sent. */
export function payForMarket(
  payer: Payer,
  escrow: Address | undefined,
  order: PlacedMarketOrder,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  if (!escrow)
    throw new Error('a market is created by a deposit into the escrow: give its address (GET /api/config)');
  const terms = marketCreateTerms({
    escrowId: order.escrowId,
    closesAt: order.closesAt,
    contentHash: marketTermsHash(order.terms),
    prediction: order.prediction,
  });
  return payer.send(depositPaymentCall({ escrow, terms, amountWei: order.amountWei }, overrides));
}

export async function postMarket<Answer>(
  api: ApiTransport<Answer>,
  order: PlacedMarketOrder & { creatorAddress: Address; txHash: Hash },
  extraBody: Record<string, unknown> = {},
) {
  const body = {
    ...order.terms,
    txHash: order.txHash,
    creatorAddress: order.creatorAddress,
    prediction: order.prediction,
    amountWei: order.amountWei.toString(),
    escrowId: order.escrowId,
    closesAt: order.closesAt,
    ...extraBody,
  };
  return { response: await api({ path: '/api/markets', body }), body };
}

export async function payAndPostMarket<Answer>(
  clients: PayAndPostClients<Answer>,
  order: MarketOrder,
  options: PayAndPostOptions = {},
): Promise<Posted<Answer>> {
  const placed = await placeMarketOrder(clients.payer, order);
  return payThenPost(
    (overrides) => payForMarket(clients.payer, clients.escrow, placed, overrides),
    (txHash) =>
      postMarket(clients.api, { ...placed, creatorAddress: clients.payer.address, txHash }, options.body),
    options,
  );
}

/** The payer's chain time (its latest block), else this machine's clock, in unix seconds. */
async function chainNowS(payer: Payer): Promise<number> {
  return payer.nowS ? await payer.nowS() : Math.floor(Date.now() / 1000);
}

import type { Prediction } from '@pm/core/constants';
import type { Address, Hash } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import { type MarketTerms, marketIntent } from './market-intent.ts';
import { type PayAndPostClients, type PayAndPostOptions, type Posted, payThenPost } from './pay-and-post.ts';
import { payVault } from './pay-vault.ts';
import type { Payer } from './payer.ts';
import type { PaymentOverrides } from './payment-call.ts';

/** A new market and its creator's first bet (docs/api.md POST /api/markets). */
export type MarketOrder = { terms: MarketTerms; prediction: Prediction; amountWei: bigint };

export function payForMarket(
  payer: Payer,
  vault: Address,
  order: MarketOrder,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  const intent = marketIntent(order.terms, order.prediction);
  return payVault(payer, { vault, intent, amountWei: order.amountWei }, overrides);
}

export async function postMarket<Answer>(
  api: ApiTransport<Answer>,
  order: MarketOrder & { creatorAddress: Address; txHash: Hash },
  extraBody: Record<string, unknown> = {},
) {
  const body = {
    ...order.terms,
    txHash: order.txHash,
    creatorAddress: order.creatorAddress,
    prediction: order.prediction,
    amountWei: order.amountWei.toString(),
    ...extraBody,
  };
  return { response: await api({ path: '/api/markets', body }), body };
}

export function payAndPostMarket<Answer>(
  clients: PayAndPostClients<Answer>,
  order: MarketOrder,
  options: PayAndPostOptions = {},
): Promise<Posted<Answer>> {
  return payThenPost(
    (overrides) => payForMarket(clients.payer, clients.vault, order, overrides),
    (txHash) =>
      postMarket(clients.api, { ...order, creatorAddress: clients.payer.address, txHash }, options.body),
    options,
  );
}

import type { Prediction } from '@pm/core/constants';
import type { Address, Hash } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import { type PayAndPostClients, type PayAndPostOptions, type Posted, payThenPost } from './pay-and-post.ts';
import { payVault } from './pay-vault.ts';
import type { Payer } from './payer.ts';
import type { PaymentOverrides } from './payment-call.ts';

/** A bet on a market (docs/api.md POST /api/markets/:id/bets). */
export type BetOrder = { marketId: number; prediction: Prediction; amountWei: bigint };

export function payForBet(
  payer: Payer,
  vault: Address,
  bet: BetOrder,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  const intent = { kind: 'bet', marketId: bet.marketId, prediction: bet.prediction } as const;
  return payVault(payer, { vault, intent, amountWei: bet.amountWei }, overrides);
}

export async function postBet<Answer>(
  api: ApiTransport<Answer>,
  bet: BetOrder & { userAddress: Address; txHash: Hash },
  extraBody: Record<string, unknown> = {},
) {
  const body = {
    txHash: bet.txHash,
    userAddress: bet.userAddress,
    prediction: bet.prediction,
    amountWei: bet.amountWei.toString(),
    ...extraBody,
  };
  return { response: await api({ path: `/api/markets/${bet.marketId}/bets`, body }), body };
}

export function payAndPostBet<Answer>(
  clients: PayAndPostClients<Answer>,
  bet: BetOrder,
  options: PayAndPostOptions = {},
): Promise<Posted<Answer>> {
  return payThenPost(
    (overrides) => payForBet(clients.payer, clients.vault, bet, overrides),
    (txHash) => postBet(clients.api, { ...bet, userAddress: clients.payer.address, txHash }, options.body),
    options,
  );
}

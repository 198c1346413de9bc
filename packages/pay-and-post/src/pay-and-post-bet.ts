import type { Prediction } from '@pm/core/constants';
import { marketBetTerms } from '@pm/escrow/deposit-terms';
import type { Address, Hash, Hex } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import { type PayAndPostClients, type PayAndPostOptions, type Posted, payThenPost } from './pay-and-post.ts';
import type { Payer } from './payer.ts';
import { depositPaymentCall, type PaymentOverrides } from './payment-call.ts';

/**
 * A bet on a market (docs/api.md POST /api/markets/:id/bets). `escrowId` and `closesAt` are the
 * market's (GET /api/markets/:id): with them the deposit names the market's escrow key (decision 026).
 */
export type BetOrder = {
  marketId: number;
  escrowId: Hex;
  closesAt: number;
  prediction: Prediction;
  amountWei: bigint;
};

/** Deposits the stake into the escrow under the market's key, for the side; the hash once sent. */
export function payForBet(
  payer: Payer,
  escrow: Address | undefined,
  bet: BetOrder,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  if (!escrow)
    throw new Error('a market bet is a deposit into the escrow: give its address (GET /api/config)');
  const terms = marketBetTerms(bet, bet.prediction);
  return payer.send(depositPaymentCall({ escrow, terms, amountWei: bet.amountWei }, overrides));
}

export async function postBet<Answer>(
  api: ApiTransport<Answer>,
  bet: Pick<BetOrder, 'marketId' | 'prediction' | 'amountWei'> & { userAddress: Address; txHash: Hash },
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
    (overrides) => payForBet(clients.payer, clients.escrow, bet, overrides),
    (txHash) => postBet(clients.api, { ...bet, userAddress: clients.payer.address, txHash }, options.body),
    options,
  );
}

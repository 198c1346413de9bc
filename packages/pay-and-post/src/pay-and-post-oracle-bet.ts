import type { Position } from '@pm/core/constants';
import type { Address, Hash } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import { type PayAndPostClients, type PayAndPostOptions, type Posted, payThenPost } from './pay-and-post.ts';
import { payVault } from './pay-vault.ts';
import type { Payer } from './payer.ts';
import type { PaymentOverrides } from './payment-call.ts';

/** A bet on an oracle round (docs/api.md POST /api/oracle/bets). */
export type OracleBetOrder = { epoch: number; position: Position; amountWei: bigint };

export function payForOracleBet(
  payer: Payer,
  vault: Address,
  bet: OracleBetOrder,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  const intent = { kind: 'round', epoch: bet.epoch, position: bet.position } as const;
  return payVault(payer, { vault, intent, amountWei: bet.amountWei }, overrides);
}

export async function postOracleBet<Answer>(
  api: ApiTransport<Answer>,
  bet: OracleBetOrder & { userAddress: Address; txHash: Hash },
  extraBody: Record<string, unknown> = {},
) {
  const body = {
    epoch: bet.epoch,
    position: bet.position,
    amountWei: bet.amountWei.toString(),
    userAddress: bet.userAddress,
    txHash: bet.txHash,
    ...extraBody,
  };
  return { response: await api({ path: '/api/oracle/bets', body }), body };
}

export function payAndPostOracleBet<Answer>(
  clients: PayAndPostClients<Answer>,
  bet: OracleBetOrder,
  options: PayAndPostOptions = {},
): Promise<Posted<Answer>> {
  return payThenPost(
    (overrides) => payForOracleBet(clients.payer, clients.vault, bet, overrides),
    (txHash) =>
      postOracleBet(clients.api, { ...bet, userAddress: clients.payer.address, txHash }, options.body),
    options,
  );
}

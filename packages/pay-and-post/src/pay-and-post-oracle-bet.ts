import type { Position } from '@pm/core/constants';
import { roundDepositTerms } from '@pm/escrow/deposit-terms';
import type { Address, Hash } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import { type PayAndPostClients, type PayAndPostOptions, type Posted, payThenPost } from './pay-and-post.ts';
import type { Payer } from './payer.ts';
import { depositPaymentCall, type PaymentOverrides } from './payment-call.ts';

/**
 * A bet on an oracle round (docs/api.md POST /api/oracle/bets). `lockTime` is the round's lock in unix
 * seconds (GET /api/oracle/rounds' `lockTime`): with the epoch it names the round's escrow key.
 */
export type OracleBetOrder = { epoch: number; lockTime: number; position: Position; amountWei: bigint };

/** Deposits the stake into the escrow for the round and side (decision 026); the hash once sent. */
export function payForOracleBet(
  payer: Payer,
  escrow: Address | undefined,
  bet: OracleBetOrder,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  if (!escrow)
    throw new Error('a round bet is a deposit into the escrow: give its address (GET /api/config)');
  const terms = roundDepositTerms(bet.epoch, bet.lockTime, bet.position);
  return payer.send(depositPaymentCall({ escrow, terms, amountWei: bet.amountWei }, overrides));
}

export async function postOracleBet<Answer>(
  api: ApiTransport<Answer>,
  bet: Omit<OracleBetOrder, 'lockTime'> & { userAddress: Address; txHash: Hash },
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
    (overrides) => payForOracleBet(clients.payer, clients.escrow, bet, overrides),
    (txHash) =>
      postOracleBet(clients.api, { ...bet, userAddress: clients.payer.address, txHash }, options.body),
    options,
  );
}

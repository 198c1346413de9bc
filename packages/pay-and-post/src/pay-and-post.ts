import type { Address, Hash } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import type { Payer } from './payer.ts';
import type { PaymentOverrides } from './payment-call.ts';

// "Pay, then post the request": what a browser does for every paid action, and what
// every test tool does through payAndPostMarket, payAndPostBet, payAndPostOracleBet and
// payAndPostFlag (or their halves, payForX and postX, when a tool does something between them).

/**
 * Who pays, whom, and how the request reaches the API. `escrow` (GET /api/config `escrow.address`)
 * takes every stake (decision 026: creations, bets, round stakes, flag bonds), and any of them without it
 * throws.
 */
export type PayAndPostClients<Answer> = {
  payer: Payer;
  escrow?: Address;
  api: ApiTransport<Answer>;
};

/** What a test may change to break one thing at a time. */
export type PayAndPostOptions = {
  /** Overrides of the payment (another payee, amount or intent, raw data). */
  pay?: PaymentOverrides;
  /** Post this hash instead of paying (a payment made earlier, or one that does not exist). */
  txHash?: Hash;
  /** Fields added to (or replacing) the request body, sent as they are. */
  body?: Record<string, unknown>;
};

export type Posted<Answer> = { response: Answer; txHash: Hash; body: Record<string, unknown> };

/** Pays with `pay` (unless `options.txHash` names the payment), then posts with `post`. */
export async function payThenPost<Answer>(
  pay: (overrides: PaymentOverrides | undefined) => Promise<Hash>,
  post: (txHash: Hash) => Promise<{ response: Answer; body: Record<string, unknown> }>,
  options: PayAndPostOptions,
): Promise<Posted<Answer>> {
  const txHash = options.txHash ?? (await pay(options.pay));
  const { response, body } = await post(txHash);
  return { response, body, txHash };
}

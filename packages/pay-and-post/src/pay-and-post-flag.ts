import { flagBondTerms } from '@pm/escrow/deposit-terms';
import type { Address, Hash, Hex } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import { type PayAndPostClients, type PayAndPostOptions, type Posted, payThenPost } from './pay-and-post.ts';
import type { Payer } from './payer.ts';
import { depositPaymentCall, type PaymentOverrides } from './payment-call.ts';

// A flag on a proposed verdict carries a bond (docs/decisions/011): a dispute deposit into
// the escrow under the market's own key while its settlement is pending (decision 026, "Flag bonds";
// flagBondTerms). The flag itself is signed by the bettor (flagTypedData), which the caller does.

/**
 * The bond of a flag: the market's id, its escrow id and close (GET /api/markets/:id's `escrowId` and
 * `closesAt`) and the bond (its review.bondWei: the contract's disputeBond at least).
 */
export type FlagBondOrder = { marketId: number; escrowId: Hex; closesAt: number; amountWei: bigint };

/** The signed part of a flag (docs/api.md POST /api/markets/:id/flags). */
export type SignedFlag = { address: Address; reason: string; expiry: number; signature: Hex };

/** Deposits the bond into the escrow under the market's key, kind flag (the one encoder's call). */
export function payForFlagBond(
  payer: Payer,
  escrow: Address | undefined,
  bond: FlagBondOrder,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  if (!escrow)
    throw new Error('a flag bond is a deposit into the escrow: give its address (GET /api/config)');
  const terms = flagBondTerms({ escrowId: bond.escrowId, closesAt: bond.closesAt });
  return payer.send(depositPaymentCall({ escrow, terms, amountWei: bond.amountWei }, overrides));
}

export async function postFlag<Answer>(
  api: ApiTransport<Answer>,
  flag: Pick<FlagBondOrder, 'marketId' | 'amountWei'> & { flag: SignedFlag; txHash: Hash },
  extraBody: Record<string, unknown> = {},
) {
  const body = { ...flag.flag, txHash: flag.txHash, amountWei: flag.amountWei.toString(), ...extraBody };
  return { response: await api({ path: `/api/markets/${flag.marketId}/flags`, body }), body };
}

export function payAndPostFlag<Answer>(
  clients: PayAndPostClients<Answer>,
  flag: FlagBondOrder & { flag: SignedFlag },
  options: PayAndPostOptions = {},
): Promise<Posted<Answer>> {
  return payThenPost(
    (overrides) => payForFlagBond(clients.payer, clients.escrow, flag, overrides),
    (txHash) => postFlag(clients.api, { ...flag, txHash }, options.body),
    options,
  );
}

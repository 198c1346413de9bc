import type { Address, Hash, Hex } from 'viem';
import type { ApiTransport } from './api-transport.ts';
import { type PayAndPostClients, type PayAndPostOptions, type Posted, payThenPost } from './pay-and-post.ts';
import { payVault } from './pay-vault.ts';
import type { Payer } from './payer.ts';
import type { PaymentOverrides } from './payment-call.ts';

// A flag on a proposed verdict carries a bond paid to the vault (issue 22, docs/decisions/011);
// the flag itself is signed by the bettor (flagTypedData), which the caller does.

/** The bond of a flag: the market's review.bondWei, for that market. */
export type FlagBondOrder = { marketId: number; amountWei: bigint };

/** The signed part of a flag (docs/api.md POST /api/markets/:id/flags). */
export type SignedFlag = { address: Address; reason: string; expiry: number; signature: Hex };

export function payForFlagBond(
  payer: Payer,
  vault: Address,
  bond: FlagBondOrder,
  overrides?: PaymentOverrides,
): Promise<Hash> {
  const intent = { kind: 'flag', marketId: bond.marketId } as const;
  return payVault(payer, { vault, intent, amountWei: bond.amountWei }, overrides);
}

export async function postFlag<Answer>(
  api: ApiTransport<Answer>,
  flag: FlagBondOrder & { flag: SignedFlag; txHash: Hash },
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
    (overrides) => payForFlagBond(clients.payer, clients.vault, flag, overrides),
    (txHash) => postFlag(clients.api, { ...flag, txHash }, options.body),
    options,
  );
}

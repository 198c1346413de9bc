import { PendingPaymentResponseSchema } from '@pm/core/contract/markets';
import { type FlagMarketBody, FlagMarketResponseSchema, flagTypedData } from '@pm/core/contract/review';
import * as z from 'zod/mini';
import { apiPost } from '#lib/api-client.ts';
import type { TypedDataSigner } from '#wallet/hooks/use-signed-action.ts';

/** How long the signature of a flag stays valid: well inside the server's 15-minute limit. */
const FLAG_SIGNATURE_TTL_S = 10 * 60;

export type SignedFlag = Omit<FlagMarketBody, 'txHash' | 'amountWei'>;

/**
 * Signs a flag of a proposed verdict (decision 011): the bettor's wallet signs the
 * EIP-712 typed data of the market, the reason and an expiry on the deployment's chain. The expiry
 * is counted from the server's clock (`nowS`). Signed before the bond is paid, so the reason is
 * fixed and a retry after the payment posts the same flag.
 */
export async function signFlag(
  signer: TypedDataSigner,
  input: { marketId: number; reason: string; nowS: number },
): Promise<SignedFlag> {
  const expiry = Math.floor(input.nowS) + FLAG_SIGNATURE_TTL_S;
  const signature = await signer.signTypedData(
    flagTypedData({ chainId: signer.chainId, marketId: input.marketId, reason: input.reason, expiry }),
  );
  return { address: signer.address, reason: input.reason, expiry, signature };
}

const FlagAnswerSchema = z.union([FlagMarketResponseSchema, PendingPaymentResponseSchema]);

/**
 * Posts the signed flag with its paid bond: recorded (201) or pending (202, the server
 * records it once the bond is final).
 */
export async function postFlag(marketId: number, body: FlagMarketBody): Promise<'recorded' | 'pending'> {
  const answer = await apiPost(`/api/markets/${marketId}/flags`, body, FlagAnswerSchema);
  return 'status' in answer ? 'pending' : 'recorded';
}

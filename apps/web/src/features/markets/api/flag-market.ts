import { type FlagMarketResponse, FlagMarketResponseSchema, flagTypedData } from '@pm/core/contract/review';
import { apiPost } from '../../../lib/api-client.ts';
import type { TypedDataSigner } from '../../../wallet/hooks/use-signed-action.ts';

/** How long the signature of a flag stays valid: well inside the server's 15-minute limit. */
const FLAG_SIGNATURE_TTL_S = 10 * 60;

/**
 * Flag a proposed verdict (issue 11, decision 011): the bettor's wallet signs the EIP-712 typed
 * data of the market, the reason and an expiry on the deployment's chain; the server checks the
 * signer bet on the market. The expiry is counted from the server's clock (`nowS`).
 */
export async function flagMarket(
  signer: TypedDataSigner,
  input: { marketId: number; reason: string; nowS: number },
): Promise<FlagMarketResponse> {
  const expiry = Math.floor(input.nowS) + FLAG_SIGNATURE_TTL_S;
  const signature = await signer.signTypedData(
    flagTypedData({ chainId: signer.chainId, marketId: input.marketId, reason: input.reason, expiry }),
  );
  return apiPost(
    `/api/markets/${input.marketId}/flags`,
    { address: signer.address, reason: input.reason, expiry, signature },
    FlagMarketResponseSchema,
  );
}

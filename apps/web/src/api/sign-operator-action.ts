import {
  OperatorNonceResponseSchema,
  type OperatorRequest,
  operatorTypedData,
} from '@pm/core/contract/operator';
import { apiGet } from '#lib/api-client.ts';
import type { TypedDataSigner } from '#wallet/hooks/use-signed-action.ts';

/**
 * docs/architecture.md "Operators", docs/decisions/007: fetch a single-use nonce, have the operator's wallet sign
 * the EIP-712 typed data of `request` on the deployment's chain, and return the fields every admin
 * endpoint takes. The server rebuilds the same typed data from the body and checks the signer.
 */
export async function signOperatorAction(
  signer: TypedDataSigner,
  request: OperatorRequest,
): Promise<{ address: string; nonce: string; expiry: number; signature: string }> {
  const { nonce, expiry } = await apiGet('/api/admin/nonce', OperatorNonceResponseSchema);
  const signature = await signer.signTypedData(
    operatorTypedData({ ...request, chainId: signer.chainId, nonce, expiry }),
  );
  return { address: signer.address, nonce, expiry, signature };
}

import { type OperatorActionResponse, OperatorActionResponseSchema } from '@pm/core/contract/operator';
import { signOperatorAction } from '#api/sign-operator-action.ts';
import { apiPost } from '#lib/api-client.ts';
import type { TypedDataSigner } from '#wallet/hooks/use-signed-action.ts';

/** Start the genesis round or reset the rounds, signed by the operator's wallet (EIP-712). */
export async function runOperatorAction(
  signer: TypedDataSigner,
  action: 'genesis' | 'reset',
): Promise<OperatorActionResponse> {
  const signed = await signOperatorAction(signer, {
    action: action === 'genesis' ? 'oracle.genesis' : 'oracle.reset',
  });
  return apiPost(`/api/oracle/admin/${action}`, signed, OperatorActionResponseSchema);
}

import { type OperatorActionResponse, OperatorActionResponseSchema } from '@pm/core/contract/operator';
import { type OperatorTypedData, signOperatorAction } from '../../../api/sign-operator-action.ts';
import { apiPost } from '../../../lib/api-client.ts';

/** Start the genesis round or reset the rounds, signed by the operator's wallet (EIP-712). */
export async function runOperatorAction(input: {
  action: 'genesis' | 'reset';
  chainId: number;
  address: string;
  signTypedData: (typed: OperatorTypedData) => Promise<string>;
}): Promise<OperatorActionResponse> {
  const signed = await signOperatorAction({
    request: { action: input.action === 'genesis' ? 'oracle.genesis' : 'oracle.reset' },
    chainId: input.chainId,
    address: input.address,
    signTypedData: input.signTypedData,
  });
  return apiPost(`/api/oracle/admin/${input.action}`, signed, OperatorActionResponseSchema);
}

import {
  type OperatorAction,
  type OperatorActionResponse,
  OperatorActionResponseSchema,
  OperatorNonceResponseSchema,
  operatorMessage,
} from '@pm/core/contract/oracle';
import { apiGet, apiPost } from '../../../lib/api-client.ts';

/**
 * DESIGN "Operators": fetch a single-use nonce, have the operator's wallet sign the action's text
 * (EIP-191 personal_sign), and post the signature. The server checks the signer.
 */
export async function runOperatorAction(input: {
  action: OperatorAction;
  address: string;
  sign: (message: string) => Promise<string>;
}): Promise<OperatorActionResponse> {
  const { nonce } = await apiGet('/api/oracle/admin/nonce', OperatorNonceResponseSchema);
  const signature = await input.sign(operatorMessage(input.action, nonce));
  return apiPost(
    `/api/oracle/admin/${input.action}`,
    { address: input.address, nonce, signature },
    OperatorActionResponseSchema,
  );
}

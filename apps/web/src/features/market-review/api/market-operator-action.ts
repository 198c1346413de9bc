import { type MarketOperatorResponse, MarketOperatorResponseSchema } from '@pm/core/contract/operator';
import { signOperatorAction } from '#api/sign-operator-action.ts';
import { apiPost } from '#lib/api-client.ts';
import type { TypedDataSigner } from '#wallet/hooks/use-signed-action.ts';

export type MarketOperatorDecision = { kind: 'resolve'; result: 'YES' | 'NO' } | { kind: 'void' };

/**
 * Resolve a market YES/NO or void it, signed by the operator's wallet (EIP-712, docs/decisions/007):
 * the signature covers the market, the result and the reason, so none of them can be changed after.
 */
export async function runMarketOperatorAction(
  signer: TypedDataSigner,
  input: { marketId: number; decision: MarketOperatorDecision; reason: string },
): Promise<MarketOperatorResponse> {
  const { marketId, decision, reason } = input;
  const signed = await signOperatorAction(
    signer,
    decision.kind === 'resolve'
      ? { action: 'market.resolve', marketId, result: decision.result, reason }
      : { action: 'market.void', marketId, result: 'VOID', reason },
  );
  const body =
    decision.kind === 'resolve' ? { ...signed, result: decision.result, reason } : { ...signed, reason };
  return apiPost(`/api/markets/${marketId}/admin/${decision.kind}`, body, MarketOperatorResponseSchema);
}

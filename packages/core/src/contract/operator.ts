import * as z from 'zod/mini';
import { MAX_OPERATOR_REASON_LENGTH, OPERATOR_DOMAIN_NAME, OPERATOR_DOMAIN_VERSION } from '../constants.ts';
import { AddressSchema, IsoTimeSchema, PredictionSchema } from './primitives.ts';

// Operator actions from the API (docs/architecture.md "Operators", docs/decisions/007-operator-signatures.md):
// the operator's wallet signs EIP-712 typed data naming this app (domain name, version, chain id),
// the action and what it acts on, a single-use server nonce and an expiry. The web signs with
// wagmi's signTypedData from `operatorTypedData`, the server verifies the very same structure.

export const ORACLE_OPERATOR_ACTIONS = ['oracle.genesis', 'oracle.reset'] as const;
export const MARKET_OPERATOR_ACTIONS = ['market.resolve', 'market.void'] as const;
export const OPERATOR_ACTIONS = [...ORACLE_OPERATOR_ACTIONS, ...MARKET_OPERATOR_ACTIONS] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/**
 * One struct for every action, so a wallet always shows the same fields. Oracle actions act on no
 * market: marketId 0, result and reason empty. A market action signs its market, its result
 * (YES, NO or VOID) and the reason shown to bettors, so none of them can be swapped after signing.
 */
export const OPERATOR_TYPES = {
  OperatorAction: [
    { name: 'action', type: 'string' },
    { name: 'marketId', type: 'uint256' },
    { name: 'result', type: 'string' },
    { name: 'reason', type: 'string' },
    { name: 'nonce', type: 'string' },
    { name: 'expiry', type: 'uint256' },
  ],
} as const;

export type OperatorRequest = {
  action: OperatorAction;
  marketId?: number;
  result?: 'YES' | 'NO' | 'VOID';
  reason?: string;
};

/** The EIP-712 typed data an operator signs for `request` with a server nonce expiring at `expiry` (unix s). */
export function operatorTypedData(
  input: OperatorRequest & { chainId: number; nonce: string; expiry: number },
) {
  return {
    domain: { name: OPERATOR_DOMAIN_NAME, version: OPERATOR_DOMAIN_VERSION, chainId: input.chainId },
    types: OPERATOR_TYPES,
    primaryType: 'OperatorAction',
    message: {
      action: input.action,
      marketId: BigInt(input.marketId ?? 0),
      result: input.result ?? '',
      reason: input.reason ?? '',
      nonce: input.nonce,
      expiry: BigInt(input.expiry),
    },
  } as const;
}

export const OperatorNonceResponseSchema = z.object({
  nonce: z.string(),
  expiresAt: IsoTimeSchema,
  /** expiresAt in unix seconds: the `expiry` to sign and to send back. */
  expiry: z.int(),
});
export type OperatorNonceResponse = z.infer<typeof OperatorNonceResponseSchema>;

const signatureFields = {
  address: AddressSchema,
  nonce: z.string().check(z.minLength(16), z.maxLength(128)),
  expiry: z.int().check(z.positive()),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 0x-prefixed 65-byte hex signature')),
};

/** Body of an oracle operator action: the signature and what was signed with it. */
export const OperatorActionBodySchema = z.strictObject(signatureFields);
export type OperatorActionBody = z.infer<typeof OperatorActionBodySchema>;

// Not trimmed: the server must verify exactly the text that was signed.
const ReasonSchema = z
  .string()
  .check(z.maxLength(MAX_OPERATOR_REASON_LENGTH), z.regex(/\S/, 'must not be blank'));

/** POST /api/markets/:id/admin/resolve: settle YES or NO with the operator's analysis. */
export const ResolveMarketBodySchema = z.strictObject({
  ...signatureFields,
  result: PredictionSchema,
  reason: ReasonSchema,
});
export type ResolveMarketBody = z.infer<typeof ResolveMarketBodySchema>;

/** POST /api/markets/:id/admin/void: void the market and refund every stake. */
export const VoidMarketBodySchema = z.strictObject({ ...signatureFields, reason: ReasonSchema });
export type VoidMarketBody = z.infer<typeof VoidMarketBodySchema>;

export const OperatorActionResponseSchema = z.object({
  action: z.enum(['genesis', 'reset']),
  /** Rounds created (genesis) or cancelled and refunded (reset). */
  epochs: z.array(z.int()),
  message: z.string(),
});
export type OperatorActionResponse = z.infer<typeof OperatorActionResponseSchema>;

export const MarketOperatorResponseSchema = z.object({
  action: z.enum(['resolve', 'void']),
  marketId: z.int(),
  result: z.enum(['YES', 'NO', 'VOID']),
  message: z.string(),
});
export type MarketOperatorResponse = z.infer<typeof MarketOperatorResponseSchema>;

import {
  OperatorNonceResponseSchema,
  type OperatorRequest,
  operatorTypedData,
} from '@pm/core/contract/operator';
import type { TestApp } from './test-app.ts';

// Signed operator actions (docs/decisions/007): fetch a nonce, sign the EIP-712 typed data with a
// dev wallet, and build the body the admin endpoints take.

export type Wallet = TestApp['chain']['players'][number];

let client = 0;
/**
 * A client address of its own for each nonce request: the nonce endpoint allows 10 a minute per
 * address, and these tests are not about that limit (operator-signatures.test.ts is).
 */
export function freshClientAddress(): string {
  client++;
  return `10.77.${client >> 8}.${client & 255}`;
}

export async function fetchNonce(t: TestApp, remoteAddress = freshClientAddress()) {
  const response = await t.app.inject({ method: 'GET', url: '/api/admin/nonce', remoteAddress });
  if (response.statusCode !== 200) throw new Error(`nonce: ${response.statusCode} ${response.body}`);
  return OperatorNonceResponseSchema.parse(response.json());
}

export function player(t: TestApp, index: number): Wallet {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
}

/**
 * The body of an admin request: `request` signed by `wallet` over a fresh nonce. `override` signs
 * something else than what is sent (another chain, another action, another nonce or expiry).
 */
export async function signOperatorAction(
  t: TestApp,
  wallet: Wallet,
  request: OperatorRequest,
  override: Partial<OperatorRequest & { chainId: number; nonce: string; expiry: number }> = {},
) {
  const issued = await fetchNonce(t);
  const nonce = override.nonce ?? issued.nonce;
  const expiry = override.expiry ?? issued.expiry;
  const signature = await wallet.signTypedData({
    account: wallet.account,
    ...operatorTypedData({ chainId: t.config.chain.id, ...request, nonce, expiry, ...override }),
  });
  return { address: wallet.account.address, nonce, expiry, signature };
}

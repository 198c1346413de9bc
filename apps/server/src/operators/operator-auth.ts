import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type OperatorRequest, operatorTypedData } from '@pm/core/contract/operator';
import { verifyTypedData } from 'viem';
import type { Clock } from '../chain/clock.ts';
import { parseHex } from '../chain/parse-hex.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { useOperatorNonce } from './operators-repository.ts';
import { createServerSecret } from './server-secret.ts';

// docs/architecture.md "Operators", docs/decisions/007-operator-signatures.md: an operator action from the API
// needs an EIP-712 signature, by an address in OPERATOR_ADDRESSES, of typed data naming this app
// and chain, the action and its target, a single-use server nonce and the nonce's expiry.

export const NONCE_TTL_MS = 5 * 60_000;
/**
 * How much instances' clocks may differ: a used nonce is kept this long past its expiry, so an
 * instance whose clock runs ahead never frees one that an instance behind still accepts
 * (security review 2, lows).
 */
export const NONCE_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Issuing a nonce writes nothing and has no shared cap, so requests from any number of client
 * addresses cannot lock the operators out (a table of outstanding nonces capped at 100 is filled by
 * ten addresses every five minutes). A nonce is 16 random bytes
 * and the HMAC-SHA256 of them and its expiry under the deployment's key, so only this deployment
 * can make one and its expiry cannot be changed; it is stored only once used, so a replay is
 * refused. The endpoint's per-address rate limit stays, for load only.
 */
const NONCE_KEY_NAME = 'operator-nonce-hmac';
const nonceKeys = new WeakMap<Db, () => Promise<Buffer>>();
function nonceKey(db: Db): Promise<Buffer> {
  let key = nonceKeys.get(db);
  if (!key) {
    key = createServerSecret(db, NONCE_KEY_NAME);
    nonceKeys.set(db, key);
  }
  return key();
}

const NONCE_FORMAT = /^([0-9a-f]{32})([0-9a-f]{64})$/;

function nonceMac(key: Buffer, random: string, expiry: number): Buffer {
  return createHmac('sha256', key).update(`${random}:${expiry}`).digest();
}

/** Whether `nonce` was issued by this deployment for exactly `expiry` (constant-time compare). */
async function isIssuedNonce(db: Db, nonce: string, expiry: number): Promise<boolean> {
  const parts = NONCE_FORMAT.exec(nonce);
  if (!parts?.[1] || !parts[2]) return false;
  const expected = nonceMac(await nonceKey(db), parts[1], expiry);
  return timingSafeEqual(expected, Buffer.from(parts[2], 'hex'));
}

export async function issueOperatorNonce(
  db: Db,
  clock: Clock,
): Promise<{ nonce: string; expiresAt: Date; expiry: number }> {
  const now = clock.now();
  // Whole seconds: the expiry is signed as unix seconds and bound into the nonce's MAC.
  const expiry = Math.floor((now.getTime() + NONCE_TTL_MS) / 1000);
  const random = randomBytes(16).toString('hex');
  const nonce = random + nonceMac(await nonceKey(db), random, expiry).toString('hex');
  return { nonce, expiresAt: new Date(expiry * 1000), expiry };
}

export type OperatorSignature = { address: string; nonce: string; expiry: number; signature: string };

/**
 * Throws UNAUTHORIZED unless `signed` is an EIP-712 signature of `request` on this chain by an
 * operator, over a nonce this server issued with that very expiry, unused and unexpired; then
 * uses the nonce up (one atomic insert of the used nonce, so two requests with one signature cannot
 * both pass).
 */
export async function authorizeOperator(
  deps: { db: Db; clock: Clock; operators: readonly string[]; chainId: number },
  request: OperatorRequest,
  signed: OperatorSignature,
): Promise<string> {
  const address = parseHex(signed.address.toLowerCase());
  if (!deps.operators.includes(address)) {
    throw new AppError('UNAUTHORIZED', 'This address is not an operator.');
  }
  const now = deps.clock.now();
  if (signed.expiry * 1000 <= now.getTime()) {
    throw new AppError('UNAUTHORIZED', 'The signature has expired.');
  }
  // Only ECDSA signatures (viem's pure verifyTypedData, no contract call): operators are EOAs.
  const valid = await verifyTypedData({
    address,
    ...operatorTypedData({ ...request, chainId: deps.chainId, nonce: signed.nonce, expiry: signed.expiry }),
    signature: parseHex(signed.signature),
  }).catch(() => false);
  if (!valid) {
    throw new AppError(
      'UNAUTHORIZED',
      'The signature does not match the operator address, this action or this chain.',
    );
  }
  if (!(await isIssuedNonce(deps.db, signed.nonce, signed.expiry))) {
    throw new AppError('UNAUTHORIZED', 'The nonce is unknown, used or expired.');
  }
  // Used nonces of the past are worth nothing once expired everywhere: kept past their expiry by the
  // clock-skew margin, as another instance's clock may still be before it.
  const used = await useOperatorNonce(deps.db, {
    nonce: signed.nonce,
    expiresAt: new Date(signed.expiry * 1000),
    now,
    forgetBefore: new Date(now.getTime() - NONCE_CLOCK_SKEW_MS),
  });
  if (!used) throw new AppError('UNAUTHORIZED', 'The nonce is unknown, used or expired.');
  return address;
}

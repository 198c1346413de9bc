import { randomBytes } from 'node:crypto';
import { type OperatorAction, type OperatorActionBody, operatorMessage } from '@pm/core/contract/oracle';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { verifyMessage } from 'viem';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import { operatorNonces } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import { toHex } from './hex.ts';

// DESIGN "Operators": operator actions from the API need an EIP-191 (personal_sign) signature, by an
// address in OPERATOR_ADDRESSES, of a text naming the action and a single-use server nonce.

const NONCE_TTL_MS = 5 * 60_000;

export async function issueOperatorNonce(db: Db, clock: Clock): Promise<{ nonce: string; expiresAt: Date }> {
  const now = clock.now();
  const nonce = randomBytes(24).toString('hex');
  const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
  // Expired nonces are worth nothing: clear them out while we are here.
  await db.delete(operatorNonces).where(lt(operatorNonces.expiresAt, new Date(now.getTime() - NONCE_TTL_MS)));
  await db.insert(operatorNonces).values({ nonce, expiresAt });
  return { nonce, expiresAt };
}

/**
 * Throws UNAUTHORIZED unless `body` is a valid signature of `operatorMessage(action, nonce)` by an
 * operator and the nonce is unused and unexpired; then uses the nonce up (atomically, so two
 * requests with one signature cannot both pass).
 */
export async function authorizeOperator(
  deps: { db: Db; clock: Clock; operators: readonly string[] },
  action: OperatorAction,
  body: OperatorActionBody,
): Promise<string> {
  const address = toHex(body.address.toLowerCase());
  if (!deps.operators.includes(address)) {
    throw new AppError('UNAUTHORIZED', 'This address is not an operator.');
  }
  const valid = await verifyMessage({
    address,
    message: operatorMessage(action, body.nonce),
    signature: toHex(body.signature),
  }).catch(() => false);
  if (!valid) throw new AppError('UNAUTHORIZED', 'The signature does not match the operator address.');
  const used = await deps.db
    .update(operatorNonces)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(operatorNonces.nonce, body.nonce),
        isNull(operatorNonces.usedAt),
        gt(operatorNonces.expiresAt, deps.clock.now()),
      ),
    )
    .returning({ nonce: operatorNonces.nonce });
  if (used.length === 0) throw new AppError('UNAUTHORIZED', 'The nonce is unknown, used or expired.');
  return address;
}

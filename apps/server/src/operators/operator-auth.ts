import { randomBytes } from 'node:crypto';
import { type OperatorRequest, operatorTypedData } from '@pm/core/contract/operator';
import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { verifyTypedData } from 'viem';
import { z } from 'zod';
import type { Clock } from '../chain/clock.ts';
import { parseHex } from '../chain/parse-hex.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/query-rows.ts';
import { operatorNonces } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';

// docs/architecture.md "Operators", docs/decisions/007-operator-signatures.md: an operator action from the API
// needs an EIP-712 signature, by an address in OPERATOR_ADDRESSES, of typed data naming this app
// and chain, the action and its target, a single-use server nonce and the nonce's expiry.

export const NONCE_TTL_MS = 5 * 60_000;
/**
 * Issuing is public (the operator's page asks before signing), so the table must stay bounded:
 * at most this many unused, unexpired nonces at once (security review F17). A handful of
 * operators needs a few; past the cap, issuing answers 429 until some expire (NONCE_TTL_MS).
 */
export const MAX_OUTSTANDING_NONCES = 100;

export async function issueOperatorNonce(
  db: Db,
  clock: Clock,
): Promise<{ nonce: string; expiresAt: Date; expiry: number }> {
  const now = clock.now();
  // Whole seconds: the expiry is signed as unix seconds and compared with this row exactly.
  const expiry = Math.floor((now.getTime() + NONCE_TTL_MS) / 1000);
  const expiresAt = new Date(expiry * 1000);
  const nonce = randomBytes(24).toString('hex');
  // Expired nonces, used or not, are worth nothing: a signature over one is refused anyway.
  await db.delete(operatorNonces).where(lte(operatorNonces.expiresAt, now));
  // Count and insert in one statement, so concurrent requests cannot all pass one stale count.
  const inserted = await queryRows(
    db,
    sql`insert into operator_nonces (nonce, expires_at)
        select ${nonce}, ${expiresAt}
        where (select count(*) from operator_nonces
               where used_at is null and expires_at > ${now}) < ${MAX_OUTSTANDING_NONCES}
        returning nonce`,
    z.object({ nonce: z.string() }),
  );
  if (inserted.length === 0) {
    throw new AppError(
      'RATE_LIMITED',
      'Too many operator nonces are waiting to be used. Try again in a few minutes.',
    );
  }
  return { nonce, expiresAt, expiry };
}

export type OperatorSignature = { address: string; nonce: string; expiry: number; signature: string };

/**
 * Throws UNAUTHORIZED unless `signed` is an EIP-712 signature of `request` on this chain by an
 * operator, over a nonce this server issued with that very expiry, unused and unexpired; then
 * uses the nonce up (one atomic UPDATE, so two requests with one signature cannot both pass).
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
  const used = await deps.db
    .update(operatorNonces)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(operatorNonces.nonce, signed.nonce),
        isNull(operatorNonces.usedAt),
        eq(operatorNonces.expiresAt, new Date(signed.expiry * 1000)),
        gt(operatorNonces.expiresAt, now),
      ),
    )
    .returning({ nonce: operatorNonces.nonce });
  if (used.length === 0) throw new AppError('UNAUTHORIZED', 'The nonce is unknown, used or expired.');
  return address;
}

import { operatorTypedData } from '@pm/core/contract/operator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Clock } from '../src/chain/clock.ts';
import { operatorNonces } from '../src/db/schema.ts';
import { AppError } from '../src/errors/app-error.ts';
import {
  authorizeOperator,
  issueOperatorNonce,
  NONCE_CLOCK_SKEW_MS,
  NONCE_TTL_MS,
} from '../src/operators/operator-auth.ts';
import { player } from './support/operator-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Security review 2 (lows): used operator nonces were deleted as soon as they expired by the local
// clock. Two instances on one database whose clocks differ: the one ahead deletes a used nonce that
// the one behind still accepts, and a captured signature works a second time there. Used nonces
// are now kept for their lifetime plus a clock-skew margin.

const OPERATOR = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ OPERATOR_ADDRESSES: OPERATOR });
});
afterAll(() => t?.close());

const shifted = (ms: number): Clock => ({ now: () => new Date(t.clock.now().getTime() + ms) });

async function signedVoid(clock: Clock, marketId: number) {
  const wallet = player(t, 0);
  const request = { action: 'market.void', marketId, result: 'VOID', reason: 'Test.' } as const;
  const { nonce, expiry } = await issueOperatorNonce(t.db, clock);
  const signature = await wallet.signTypedData({
    account: wallet.account,
    ...operatorTypedData({ chainId: t.config.chain.id, ...request, nonce, expiry }),
  });
  return { request, signed: { address: wallet.account.address, nonce, expiry, signature } };
}

const deps = (clock: Clock) => ({
  db: t.db,
  clock,
  operators: [OPERATOR.toLowerCase()],
  chainId: t.config.chain.id,
});

describe('used operator nonces and clock skew', () => {
  test('an instance whose clock runs ahead cannot free a used nonce that one behind still accepts', async () => {
    const behind = shifted(0);
    const first = await signedVoid(behind, 1);
    await authorizeOperator(deps(behind), first.request, first.signed);

    // An instance a few seconds past the first nonce's expiry uses a nonce of its own (and prunes).
    const ahead = shifted(NONCE_TTL_MS + 5_000);
    const second = await signedVoid(ahead, 2);
    await authorizeOperator(deps(ahead), second.request, second.signed);

    // The captured first signature, replayed on the instance behind, where it has not expired.
    const replay = await authorizeOperator(deps(behind), first.request, first.signed).then(
      () => 'accepted',
      (error: unknown) => (error instanceof AppError ? error.message : String(error)),
    );
    expect(replay).toBe('The nonce is unknown, used or expired.');
  });

  test('used nonces are pruned once past their lifetime and the skew margin', async () => {
    const count = () => t.db.$count(operatorNonces);
    const before = await count();
    const later = shifted(NONCE_TTL_MS * 2 + NONCE_CLOCK_SKEW_MS + 5_000);
    const third = await signedVoid(later, 3);
    await authorizeOperator(deps(later), third.request, third.signed);
    expect(before).toBeGreaterThan(0);
    expect(await count()).toBe(1);
  });
});

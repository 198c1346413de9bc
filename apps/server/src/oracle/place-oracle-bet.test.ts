import { describe, expect, test } from 'vitest';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import type { PaymentContext } from '../payments/accept-payment.ts';
import { lockSeconds, placeOracleBet } from './place-oracle-bet.ts';

// Decision 026: a round's stake is a deposit into the escrow; a server without one refuses round bets
// before reading anything, and says why.

const noDatabase = new Proxy(
  {},
  {
    get() {
      throw new Error('the database is not asked');
    },
  },
) as Db;

const withoutEscrow: PaymentContext = {
  db: noDatabase,
  clock: { now: () => new Date() },
};

describe('placeOracleBet', () => {
  test('without an escrow it is ESCROW_NOT_CONFIGURED (503), nothing read', async () => {
    const error = await placeOracleBet(withoutEscrow, {
      epoch: 3,
      position: 'bull',
      amountWei: '10000000000000000',
      userAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      txHash: `0x${'ab'.repeat(32)}`,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'ESCROW_NOT_CONFIGURED', status: 503 });
  });

  test("a round's escrow close is its lock in whole seconds", () => {
    expect(lockSeconds(new Date('2025-06-01T12:05:00.000Z'))).toBe(Date.parse('2025-06-01T12:05:00Z') / 1000);
  });
});

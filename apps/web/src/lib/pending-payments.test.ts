import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import * as z from 'zod/mini';
import { startTestApi, type TestApiAnswer } from '#testing/test-api.ts';
import { apiPost } from './api-client.ts';
import { createPendingPayments } from './pending-payments.ts';

// A paid bet stays in localStorage until the server has it.

const PaymentSchema = z.object({ txHash: z.string(), amountWei: z.string() });
type Payment = z.infer<typeof PaymentSchema>;

const payments = createPendingPayments({
  key: 'test:pendingPayments',
  schema: PaymentSchema,
  txHashOf: (payment: Payment) => payment.txHash,
  post: (payment: Payment) => apiPost('/api/oracle/bets', payment, z.unknown()),
});

const payment: Payment = { txHash: `0x${'12'.repeat(32)}`, amountWei: '10000000000000000' };
const other: Payment = { txHash: `0x${'34'.repeat(32)}`, amountWei: '20000000000000000' };

let api: Awaited<ReturnType<typeof startTestApi>> | null = null;
let next: TestApiAnswer = { body: {} };
let posted: string[] = [];

beforeEach(async () => {
  window.localStorage.clear();
  posted = [];
  next = { body: {} };
  api = await startTestApi((request) => {
    posted.push(request.url ?? '');
    return next;
  });
});

afterEach(async () => {
  await api?.close();
  api = null;
});

const unavailable: TestApiAnswer = {
  status: 503,
  body: { error: { code: 'CHAIN_UNAVAILABLE', message: 'The chain is unavailable' } },
};
const rateLimited: TestApiAnswer = {
  status: 429,
  body: { error: { code: 'RATE_LIMITED', message: 'Too many requests' } },
};
const pending: TestApiAnswer = { status: 202, body: { status: 'pending', txHash: payment.txHash } };

describe('pending payments', () => {
  test('A payment the server could not take (503) is kept, and retried on the next load until it is', async () => {
    payments.save(payment);
    next = unavailable;
    await expect(payments.record(payment)).rejects.toThrow();
    expect(payments.load()).toEqual([payment]);

    expect(await payments.retry()).toBe(0);
    expect(payments.load()).toEqual([payment]);

    next = pending;
    expect(await payments.retry()).toBe(1);
    expect(payments.load()).toEqual([]);
    expect(posted).toHaveLength(3);
  });

  test('A payment refused for good (its money becomes a refund) is forgotten; a rate limit is not final', async () => {
    payments.save(payment);
    next = rateLimited;
    await expect(payments.record(payment)).rejects.toThrow('Too many requests');
    expect(payments.load()).toEqual([payment]);

    next = {
      status: 400,
      body: { error: { code: 'ROUND_NOT_LIVE', message: 'You can only bet on live rounds' } },
    };
    await expect(payments.record(payment)).rejects.toThrow('You can only bet on live rounds');
    expect(payments.load()).toEqual([]);
  });

  test('Recording one payment forgets that one alone', async () => {
    payments.save(payment);
    payments.save(other);
    await payments.record(payment);
    expect(payments.load()).toEqual([other]);
  });

  test('The same payment saved twice is kept once; junk in storage is ignored', () => {
    payments.save(payment);
    payments.save(payment);
    expect(payments.load()).toEqual([payment]);
    window.localStorage.setItem('test:pendingPayments', JSON.stringify([{ txHash: 7 }, other]));
    expect(payments.load()).toEqual([other]);
    window.localStorage.setItem('test:pendingPayments', '{not json');
    expect(payments.load()).toEqual([]);
  });
});

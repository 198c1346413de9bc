import {
  type OperatorAction,
  OperatorActionResponseSchema,
  OperatorNonceResponseSchema,
  operatorMessage,
  RoundsResponseSchema,
} from '@pm/core/contract/oracle';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

// DESIGN "Operators": genesis and reset from the page need a personal_sign of a single-use server
// nonce by an address in OPERATOR_ADDRESSES.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ OPERATOR_ADDRESSES: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
  await t.runJobs();
});
afterAll(() => t?.close());

const operator = () => {
  const wallet = t.chain.players[0];
  if (!wallet) throw new Error('no player');
  return wallet;
};
const stranger = () => {
  const wallet = t.chain.players[1];
  if (!wallet) throw new Error('no player');
  return wallet;
};

async function nonce() {
  const response = await t.app.inject({ method: 'GET', url: '/api/oracle/admin/nonce' });
  return OperatorNonceResponseSchema.parse(response.json()).nonce;
}

async function signed(wallet: ReturnType<typeof operator>, action: OperatorAction, value?: string) {
  const fresh = value ?? (await nonce());
  const signature = await wallet.signMessage({
    account: wallet.account,
    message: operatorMessage(action, fresh),
  });
  return { address: wallet.account.address, nonce: fresh, signature };
}

const act = (action: OperatorAction, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/oracle/admin/${action}`, payload: body });

const rounds = async () =>
  RoundsResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/oracle/rounds' })).json());

describe('operator actions', () => {
  test('on the local chain the rounds started by themselves', async () => {
    expect((await rounds()).started).toBe(true);
  });

  test('genesis while rounds run is 409 ROUNDS_ALREADY_STARTED', async () => {
    const response = await act('genesis', await signed(operator(), 'genesis'));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('ROUNDS_ALREADY_STARTED');
  });

  test('an address that is not an operator is refused, even with a valid signature', async () => {
    const response = await act('reset', await signed(stranger(), 'reset'));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHORIZED');
  });

  test('a signature of another action or by another key is refused', async () => {
    const forGenesis = await signed(operator(), 'genesis');
    expect((await act('reset', forGenesis)).statusCode).toBe(401);
    const byStranger = await signed(stranger(), 'reset');
    expect((await act('reset', { ...byStranger, address: operator().account.address })).statusCode).toBe(401);
  });

  test('a nonce the server never issued is refused', async () => {
    const response = await act('reset', await signed(operator(), 'reset', 'f'.repeat(48)));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toBe('The nonce is unknown, used or expired.');
  });

  test('reset by the operator cancels the open rounds; its nonce cannot be used twice', async () => {
    const body = await signed(operator(), 'reset');
    const response = await act('reset', body);
    expect(response.statusCode).toBe(200);
    const result = OperatorActionResponseSchema.parse(response.json());
    expect(result.action).toBe('reset');
    expect(result.epochs.length).toBeGreaterThan(0);
    expect((await rounds()).started).toBe(false);
    expect((await act('reset', body)).statusCode).toBe(401);
  });

  test('after a reset the engine waits for genesis, which starts the rounds again', async () => {
    await t.runJobs();
    expect((await rounds()).started).toBe(false);
    const response = await act('genesis', await signed(operator(), 'genesis'));
    expect(response.statusCode).toBe(200);
    expect(OperatorActionResponseSchema.parse(response.json()).epochs.length).toBeGreaterThan(0);
    const after = await rounds();
    expect(after.started).toBe(true);
    expect(after.current ?? after.next).not.toBeNull();
  });
});

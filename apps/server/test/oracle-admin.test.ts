import { OperatorActionResponseSchema } from '@pm/core/contract/operator';
import { RoundsResponseSchema } from '@pm/core/contract/oracle';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { oracleCommands } from '../src/ops/oracle-commands.ts';
import { player, signOperatorAction } from './support/operator-helpers.ts';
import { runOps } from './support/ops-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// docs/architecture.md "Operators": genesis and reset from the page need an EIP-712 signature of the action and
// a single-use server nonce by an address in OPERATOR_ADDRESSES (docs/decisions/007). The refusals
// of every kind of bad signature are in operator-signatures.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ OPERATOR_ADDRESSES: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
  await t.runJobs();
});
afterAll(() => t?.close());

const operator = () => player(t, 0);
const stranger = () => player(t, 1);

const act = (action: 'genesis' | 'reset', body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/oracle/admin/${action}`, payload: body });

const rounds = async () =>
  RoundsResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/oracle/rounds' })).json());

describe('operator actions', () => {
  test('on the local chain the rounds started by themselves', async () => {
    expect((await rounds()).started).toBe(true);
  });

  test('genesis while rounds run is 409 ROUNDS_ALREADY_STARTED', async () => {
    const response = await act(
      'genesis',
      await signOperatorAction(t, operator(), { action: 'oracle.genesis' }),
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('ROUNDS_ALREADY_STARTED');
  });

  test('an address that is not an operator is refused, even with a valid signature', async () => {
    const response = await act('reset', await signOperatorAction(t, stranger(), { action: 'oracle.reset' }));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHORIZED');
  });

  test('a signature of another action or by another key is refused', async () => {
    const forGenesis = await signOperatorAction(t, operator(), { action: 'oracle.genesis' });
    expect((await act('reset', forGenesis)).statusCode).toBe(401);
    const byStranger = await signOperatorAction(t, stranger(), { action: 'oracle.reset' });
    expect((await act('reset', { ...byStranger, address: operator().account.address })).statusCode).toBe(401);
  });

  test('reset by the operator cancels the open rounds; its nonce cannot be used twice', async () => {
    const body = await signOperatorAction(t, operator(), { action: 'oracle.reset' });
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
    const response = await act(
      'genesis',
      await signOperatorAction(t, operator(), { action: 'oracle.genesis' }),
    );
    expect(response.statusCode).toBe(200);
    expect(OperatorActionResponseSchema.parse(response.json()).epochs.length).toBeGreaterThan(0);
    const after = await rounds();
    expect(after.started).toBe(true);
    expect(after.current ?? after.next).not.toBeNull();
  });
});

describe('ops CLI', () => {
  const ops = (...argv: string[]) => runOps(t, oracleCommands, ...argv);

  test('oracle:reset cancels the open rounds, and says so when there are none', async () => {
    const reset = await ops('oracle:reset');
    expect(reset.code).toBe(0);
    expect(reset.output).toMatch(/^Cancelled and refunded rounds \d+/);
    expect((await rounds()).started).toBe(false);
    expect(await ops('oracle:reset')).toEqual({ code: 0, output: 'No open rounds' });
  });

  test('oracle:genesis starts the rounds again, and is refused while they run', async () => {
    const genesis = await ops('oracle:genesis');
    expect(genesis.code).toBe(0);
    expect(genesis.output).toMatch(/^Started rounds \d+/);
    expect((await rounds()).started).toBe(true);
    const again = await ops('oracle:genesis');
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/^Refused: /);
  });
});

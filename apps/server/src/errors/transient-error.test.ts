import { HttpRequestError, LimitExceededRpcError, RpcRequestError, TimeoutError } from 'viem';
import { describe, expect, test } from 'vitest';
import { AppError } from './app-error.ts';
import { isTransientError, transientFault } from './transient-error.ts';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('isTransientError', () => {
  test('an unreachable or rate-limited RPC is transient', () => {
    expect(isTransientError(new HttpRequestError({ url: 'http://rpc.example/KEY', status: 503 }))).toBe(true);
    expect(isTransientError(new TimeoutError({ body: {}, url: 'http://rpc.example' }))).toBe(true);
    expect(isTransientError(new LimitExceededRpcError(new Error('limit')))).toBe(true);
    expect(
      isTransientError(
        new RpcRequestError({ body: {}, url: 'x', error: { code: -32005, message: 'slow down' } }),
      ),
    ).toBe(true);
    expect(isTransientError(new AppError('CHAIN_UNAVAILABLE'))).toBe(true);
  });

  test('a lost or restarting database is transient, even wrapped by the ORM', () => {
    for (const code of ['08006', '08001', '57P01', '57P03', '53300', '40001', '40P01', 'ECONNREFUSED']) {
      expect(isTransientError(new Error('query failed', { cause: pgError(code) })), code).toBe(true);
    }
    expect(isTransientError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  test('refusals and data errors are not transient: they are that row’s own problem', () => {
    expect(isTransientError(new AppError('MARKET_CLOSED'))).toBe(false);
    expect(isTransientError(new AppError('TX_NOT_FOUND'))).toBe(false);
    // 22003: numeric value out of range (an id past int4), 23514: check violation.
    expect(isTransientError(pgError('22003'))).toBe(false);
    expect(isTransientError(pgError('23514'))).toBe(false);
    expect(isTransientError(new TypeError('x is undefined'))).toBe(false);
    expect(isTransientError('a string')).toBe(false);
  });
});

test('a passing fault says whether the chain or the database failed', () => {
  expect(transientFault(new HttpRequestError({ url: 'http://rpc.example', status: 502 }))).toBe('chain');
  expect(transientFault(new Error('query failed', { cause: pgError('57P01') }))).toBe('database');
  expect(transientFault(new AppError('MARKET_CLOSED'))).toBeNull();
});

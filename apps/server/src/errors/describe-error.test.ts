import { HttpRequestError, RpcRequestError } from 'viem';
import { expect, test } from 'vitest';
import { AppError } from './app-error.ts';
import { describeError } from './describe-error.ts';

test('a URL with a key in it is redacted, wherever the error puts it', () => {
  const viem = describeError(
    new HttpRequestError({
      url: 'https://bsc.example/v1/SECRETKEY',
      status: 429,
      details: 'see https://bsc.example/v1/SECRETKEY',
    }),
  );
  expect(viem).not.toContain('SECRETKEY');
  expect(viem).toContain('<url>');
  const plain = describeError(new Error('fetch https://rpc.example/?apikey=SECRETKEY failed'));
  expect(plain).toBe('fetch <url> failed');
  expect(describeError('wss://node.example/ws/SECRETKEY closed')).toBe('<url> closed');
});

test("an error is one bounded line: an AppError its code, viem its short message and the node's words", () => {
  expect(describeError(new AppError('MARKET_CLOSED'))).toBe('MARKET_CLOSED');
  const node = new RpcRequestError({
    body: { method: 'eth_sendRawTransaction' },
    error: { code: -32000, message: 'nonce too low' },
    url: 'http://127.0.0.1:8545',
  });
  const text = describeError(node);
  expect(text).toContain('nonce too low');
  expect(text).not.toContain('\n');
  expect(text).not.toContain('127.0.0.1');
  expect(describeError(new Error('x'.repeat(2000))).length).toBeLessThanOrEqual(500);
});

test('the system error code along the causes is named', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
  expect(describeError(new TypeError('fetch failed', { cause: refused }))).toBe(
    'fetch failed (ECONNREFUSED)',
  );
  expect(describeError('plain')).toBe('plain');
});

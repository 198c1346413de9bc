import { createServer } from 'node:http';
import { http, MethodNotFoundRpcError } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lazyHttp } from './lazy-http.ts';

// A JSON-RPC node on loopback: eth_chainId answers, any other method is unknown (-32601).
let url = '';
const methods: string[] = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const { id, method } = JSON.parse(body) as { id: number; method: string };
    methods.push(method);
    const answer =
      method === 'eth_chainId'
        ? { jsonrpc: '2.0', id, result: '0x7a69' }
        : { jsonrpc: '2.0', id, error: { code: -32601, message: 'the method does not exist' } };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The test server has no port');
  url = `http://127.0.0.1:${address.port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('lazyHttp', () => {
  test.each([{}, { retryCount: 0, timeout: 2_000 }])(
    'describes itself as http(url) does, for client settings %o',
    (params) => {
      const { config, value } = lazyHttp(url)(params);
      const viems = http(url)(params);
      const withoutRequest = ({ request: _request, ...rest }: typeof config) => rest;
      expect(withoutRequest(config)).toEqual(withoutRequest(viems.config));
      expect(value).toEqual(viems.value);
    },
  );

  test('sends requests through http(url): answers, and errors as viem reads them', async () => {
    const transport = lazyHttp(url)({ retryCount: 0 });
    methods.length = 0;
    await expect(transport.request({ method: 'eth_chainId' })).resolves.toBe('0x7a69');
    await expect(transport.config.request({ method: 'eth_chainId' })).resolves.toBe('0x7a69');
    await expect(transport.request({ method: 'eth_blockNumber' })).rejects.toBeInstanceOf(
      MethodNotFoundRpcError,
    );
    expect(methods).toEqual(['eth_chainId', 'eth_chainId', 'eth_blockNumber']);
  });
});

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainClient } from './chain-client.ts';

// RPC_BATCH_SIZE (decision 024): calls made together go out as one JSON-RPC batch, at most the
// batch size per HTTP request; 1 sends each alone. A JSON-RPC node on loopback records each
// request body it gets.

let server: Server;
let url: string;
const bodies: unknown[] = [];

const answer = (call: { id: number; method: string }) => ({
  jsonrpc: '2.0',
  id: call.id,
  result: call.method === 'eth_chainId' ? '0x7a69' : '0x10',
});

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body: unknown = JSON.parse(text);
    bodies.push(body);
    const reply = Array.isArray(body) ? body.map(answer) : answer(body as { id: number; method: string });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createChainClient', () => {
  test('calls made at once go out as one batch request', async () => {
    bodies.length = 0;
    const client = createChainClient({ id: 31337, rpcUrl: url });
    const [chainId, height] = await Promise.all([
      client.getChainId(),
      client.getBlockNumber({ cacheTime: 0 }),
    ]);
    expect([chainId, height]).toEqual([31337, 16n]);
    expect(bodies).toHaveLength(1);
    expect((bodies[0] as Array<{ method: string }>).map((call) => call.method).sort()).toEqual([
      'eth_blockNumber',
      'eth_chainId',
    ]);
  });

  test('a batch holds at most RPC_BATCH_SIZE calls', async () => {
    bodies.length = 0;
    const client = createChainClient({ id: 31337, rpcUrl: url, rpcBatchSize: 2 });
    // Five different calls (viem answers identical calls in flight once).
    const addresses = Array.from({ length: 5 }, (_, i) => `0x${String(i + 1).padStart(40, '0')}` as const);
    await Promise.all(addresses.map((address) => client.getBalance({ address })));
    const sizes = bodies.map((body) => (Array.isArray(body) ? body.length : 1));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(5);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2);
  });

  test('RPC_BATCH_SIZE=1 sends each call alone', async () => {
    bodies.length = 0;
    const client = createChainClient({ id: 31337, rpcUrl: url, rpcBatchSize: 1 });
    await Promise.all([client.getChainId(), client.getBlockNumber({ cacheTime: 0 })]);
    expect(bodies).toHaveLength(2);
    expect(bodies.every((body) => !Array.isArray(body))).toBe(true);
  });
});

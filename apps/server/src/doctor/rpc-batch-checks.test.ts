import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestChain, type TestChain } from '../../test/support/test-chain.ts';
import { checkRpcBatch } from './rpc-batch-checks.ts';

// `doctor` sends one JSON-RPC batch of RPC_BATCH_SIZE calls: the real Hardhat node answers it;
// loopback stand-ins for providers that refuse batches or cap them lower are caught.

let chain: TestChain;
let provider: Server;
let providerUrl: string;
/** How the stand-in answers a batch (an array of calls). */
let answerBatch: (calls: Array<{ id: number }>) => unknown = () => [];

beforeAll(async () => {
  chain = await startTestChain();
  provider = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const calls = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<{ id: number }>;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answerBatch(calls)));
    });
  });
  provider.listen(0, '127.0.0.1');
  await once(provider, 'listening');
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(async () => {
  provider?.close();
  await chain?.stop();
});

describe('checkRpcBatch', () => {
  test('a node that answers batches passes with RPC_BATCH_SIZE calls in one', async () => {
    expect(await checkRpcBatch(chain.rpcUrl, 20, 5_000)).toEqual({
      ok: true,
      note: 'a batch of 20 calls was answered',
    });
  });

  test('a provider that refuses batches fails, naming RPC_BATCH_SIZE', async () => {
    answerBatch = () => ({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'batch not supported' },
    });
    const outcome = await checkRpcBatch(providerUrl, 20, 5_000);
    expect(outcome).toMatchObject({ ok: false });
    expect(!outcome.ok && outcome.reason).toMatch(/was not answered with a list: set RPC_BATCH_SIZE/);
  });

  test('a provider that caps batches lower fails, saying how many calls went unanswered and why', async () => {
    answerBatch = (calls) =>
      calls.map((call, index) =>
        index < 10
          ? { jsonrpc: '2.0', id: call.id, result: '0x7a69' }
          : { jsonrpc: '2.0', id: call.id, error: { code: -32005, message: 'batch size too large' } },
      );
    const outcome = await checkRpcBatch(providerUrl, 20, 5_000);
    expect(!outcome.ok && outcome.reason).toBe(
      '10 of 20 calls in one batch were not answered ("batch size too large"): set RPC_BATCH_SIZE to what the provider accepts, or 1 to send no batches',
    );
    expect(await checkRpcBatch(providerUrl, 10, 5_000)).toMatchObject({ ok: true });
  });

  test('RPC_BATCH_SIZE=1 sends no batch and passes', async () => {
    answerBatch = () => {
      throw new Error('no batch may be sent');
    };
    expect(await checkRpcBatch(providerUrl, 1, 5_000)).toEqual({
      ok: true,
      note: 'RPC_BATCH_SIZE is 1: calls go one at a time',
    });
  });
});

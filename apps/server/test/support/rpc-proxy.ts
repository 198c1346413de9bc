import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC endpoint on loopback in front of the test's Hardhat node, as a provider of its own
 * would be (CHAINLINK_RPC_URL): it forwards every request as it came, or, while failing, answers
 * each as a rate-limited provider does (JSON-RPC -32005). It keeps every request body, so a test
 * can tell what was asked and whether calls came batched (a JSON array) or one per request.
 */
export async function startRpcProxy(nodeUrl: string) {
  const bodies: unknown[] = [];
  let failing = false;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body: unknown = JSON.parse(text);
    bodies.push(body);
    response.setHeader('content-type', 'application/json');
    if (failing) {
      const refuse = (call: unknown) => ({
        jsonrpc: '2.0',
        id: (call as { id?: unknown }).id ?? null,
        error: { code: -32005, message: 'limit exceeded' },
      });
      response.end(JSON.stringify(Array.isArray(body) ? body.map(refuse) : refuse(body)));
      return;
    }
    const upstream = await fetch(nodeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    response.end(await upstream.text());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Every request from now on is refused as rate-limited, until `heal`. */
    fail() {
      failing = true;
    },
    heal() {
      failing = false;
    },
    /** Every request body received so far: a call object, or an array for a batch. */
    bodies: () => [...bodies],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type RpcProxy = Awaited<ReturnType<typeof startRpcProxy>>;

import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Random } from './prng.ts';

// A loopback JSON-RPC proxy between the server's RPC_URL and the Hardhat node. While a fault is
// on, each request is hit with the fault's probability; otherwise it is forwarded untouched.
// Public BSC endpoints do all of these: drop connections, stall, answer 500, rate-limit with
// -32005, and (behind a load balancer) answer from a node a few blocks behind.

export const RPC_FAULT_KINDS = ['drop', 'delay', 'http500', 'rateLimit', 'stale'] as const;
type RpcFaultKind = (typeof RPC_FAULT_KINDS)[number];

export type RpcFault = { kind: RpcFaultKind; probability: number };

const RpcRequestSchema = z.object({
  jsonrpc: z.string().optional(),
  id: z.union([z.number(), z.string(), z.null()]).optional(),
  method: z.string(),
  params: z.array(z.unknown()).optional(),
});
type RpcRequest = z.infer<typeof RpcRequestSchema>;

/** How many blocks behind a "stale" node answers. */
const STALE_BLOCKS = 3n;

export async function startRpcFaultProxy(options: { upstream: string; random: Random }) {
  let fault: RpcFault | null = null;
  const hits: Record<RpcFaultKind, number> = { drop: 0, delay: 0, http500: 0, rateLimit: 0, stale: 0 };
  let forwarded = 0;

  const forward = async (body: string): Promise<{ status: number; text: string }> => {
    const response = await fetch(options.upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    forwarded += 1;
    return { status: response.status, text: await response.text() };
  };

  const rpcError = (request: unknown, code: number, message: string) => {
    const id = RpcRequestSchema.safeParse(request).data?.id ?? null;
    return { jsonrpc: '2.0', id, error: { code, message } };
  };

  /** A lagging node: the head is a few blocks back, and what was mined since is not found. */
  const staleAnswer = async (request: RpcRequest): Promise<unknown | undefined> => {
    const head = async () => {
      const { text } = await forward(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }));
      const parsed = z.object({ result: z.string() }).parse(JSON.parse(text));
      const behind = BigInt(parsed.result) - STALE_BLOCKS;
      return behind < 0n ? 0n : behind;
    };
    const answer = (result: unknown) => ({ jsonrpc: '2.0', id: request.id ?? null, result });
    switch (request.method) {
      case 'eth_blockNumber':
        return answer(`0x${(await head()).toString(16)}`);
      case 'eth_getBlockByNumber': {
        const tag = request.params?.[0];
        if (tag !== 'latest' && tag !== 'finalized' && tag !== 'safe') return undefined;
        const { text } = await forward(
          JSON.stringify({ ...request, params: [`0x${(await head()).toString(16)}`, request.params?.[1]] }),
        );
        return JSON.parse(text);
      }
      case 'eth_getTransactionReceipt': {
        // It has what was mined up to its own head, and nothing after.
        const { text } = await forward(JSON.stringify(request));
        const receipt = z
          .object({ result: z.object({ blockNumber: z.string() }).nullable() })
          .safeParse(JSON.parse(text));
        const minedAt =
          receipt.success && receipt.data.result ? BigInt(receipt.data.result.blockNumber) : null;
        return minedAt !== null && minedAt > (await head()) ? answer(null) : JSON.parse(text);
      }
      default:
        return undefined;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const body = Buffer.concat(chunks).toString('utf8');
    const active = fault && options.random.chance(fault.probability) ? fault.kind : null;
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      request = null;
    }
    const send = (status: number, payload: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));

    if (active) hits[active] += 1;
    if (active === 'drop') {
      req.socket.destroy();
      return;
    }
    if (active === 'http500') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    if (active === 'rateLimit') {
      const error = (one: unknown) => rpcError(one, -32005, 'limit exceeded');
      send(200, Array.isArray(request) ? request.map(error) : error(request));
      return;
    }
    if (active === 'delay')
      await new Promise((resolve) => setTimeout(resolve, options.random.int(500, 4000)));
    if (active === 'stale') {
      // A batch (the server's client batches its calls) is answered call by call, as one node would.
      const lagging = async (one: unknown): Promise<unknown | undefined> => {
        const single = RpcRequestSchema.safeParse(one);
        return single.success ? await staleAnswer(single.data) : undefined;
      };
      if (Array.isArray(request)) {
        const answers = await Promise.all(
          request.map(
            async (one: unknown) =>
              (await lagging(one)) ?? JSON.parse((await forward(JSON.stringify(one))).text),
          ),
        );
        send(200, answers);
        return;
      }
      const answer = await lagging(request);
      if (answer !== undefined) {
        send(200, answer);
        return;
      }
    }
    const upstream = await forward(body);
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(upstream.text);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // The node itself failed (it is being reverted, or stopped): a dropped connection.
      req.socket.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the RPC proxy got no port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    hits,
    forwardedCount: () => forwarded,
    set(next: RpcFault | null) {
      fault = next;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

export type RpcFaultProxy = Awaited<ReturnType<typeof startRpcFaultProxy>>;

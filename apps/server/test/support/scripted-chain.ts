import { CHAIN_ID } from '@pm/core/constants';
import { createPublicClient, custom, http, type PublicClient, RpcRequestError } from 'viem';
import { localChain } from './test-chain.ts';

/** What a scripted method answers: its own value, a thrown error, or the node's answer (`forward`). */
export type Script = (params: unknown, forward: () => Promise<unknown>) => Promise<unknown> | unknown;

/**
 * A viem public client for the real local node whose answers a test can script per method: a
 * broadcast refused with a node's words, a receipt "not found" (a lagging node), an old nonce, a
 * fault after the node took the call. Unscripted methods go to the node as they are.
 */
export function createScriptedChainClient(rpcUrl: string) {
  const node = http(rpcUrl)({ chain: localChain, retryCount: 0 });
  const scripts = new Map<string, Script>();
  const calls = new Map<string, number>();
  const client: PublicClient = createPublicClient({
    chain: { ...localChain, id: CHAIN_ID.local },
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          calls.set(method, (calls.get(method) ?? 0) + 1);
          const forward = () => node.request({ method, params });
          const script = scripts.get(method);
          return script ? script(params, forward) : forward();
        },
      },
      { retryCount: 0 },
    ),
    pollingInterval: 50,
  });
  return {
    client,
    script(method: string, script: Script) {
      scripts.set(method, script);
    },
    unscript(method?: string) {
      if (method) scripts.delete(method);
      else scripts.clear();
    },
    calls(method: string) {
      return calls.get(method) ?? 0;
    },
  };
}

export type ScriptedChainClient = ReturnType<typeof createScriptedChainClient>;

/**
 * A JSON-RPC error answer as viem's HTTP transport reports it (geth puts most transaction-pool
 * refusals under -32000; -32005 is a rate limit, -32603 the node's internal error).
 */
export function rpcError(message: string, code = -32000): Error {
  return new RpcRequestError({ body: {}, error: { code, message }, url: 'http://127.0.0.1/scripted' });
}

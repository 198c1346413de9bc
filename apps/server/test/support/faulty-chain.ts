import { CHAIN_ID } from '@pm/core/constants';
import { createPublicClient, custom, http, type PublicClient } from 'viem';
import { localChain } from './test-chain.ts';

/**
 * A viem public client for the real local node, with the RPC's faults at hand: a test can make
 * the next N calls of a method fail as a rate-limited provider does (JSON-RPC -32005), and read
 * how many times each method was called. Everything else goes to the node as it is.
 */
export function createFaultyChainClient(rpcUrl: string) {
  const node = http(rpcUrl)({ chain: localChain, retryCount: 0 });
  const calls = new Map<string, number>();
  const failures = new Map<string, number>();
  /** Calls of a method let through before its failures begin. */
  const spared = new Map<string, number>();
  const client: PublicClient = createPublicClient({
    chain: { ...localChain, id: CHAIN_ID.local },
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          calls.set(method, (calls.get(method) ?? 0) + 1);
          const left = failures.get(method) ?? 0;
          const spare = spared.get(method) ?? 0;
          if (left > 0 && spare > 0) spared.set(method, spare - 1);
          else if (left > 0) {
            failures.set(method, left - 1);
            throw Object.assign(new Error('limit exceeded'), { code: -32005 });
          }
          return node.request({ method, params });
        },
      },
      { retryCount: 0 },
    ),
    pollingInterval: 50,
  });
  return {
    client,
    /**
     * The next `times` calls of `method` fail as a rate-limited RPC answers; with `after`, only once
     * that many more calls of it have gone through.
     */
    fail(method: string, times = Number.POSITIVE_INFINITY, options: { after?: number } = {}) {
      failures.set(method, times);
      spared.set(method, options.after ?? 0);
    },
    heal() {
      failures.clear();
      spared.clear();
    },
    calls(method: string) {
      return calls.get(method) ?? 0;
    },
    resetCalls() {
      calls.clear();
    },
  };
}

export type FaultyChainClient = ReturnType<typeof createFaultyChainClient>;

import { createPublicClient, defineChain, http, type PublicClient } from 'viem';

export type ChainSettings = {
  id: number;
  rpcUrl: string;
  name?: string;
  /** JSON-RPC calls per HTTP request at most; 1 sends each alone (default 20, RPC_BATCH_SIZE). */
  rpcBatchSize?: number;
};

/**
 * A viem public client for the deployment's chain, read through our own RPC. Calls made in the same
 * turn of the event loop go out as one JSON-RPC batch (one HTTP request, up to `rpcBatchSize` calls):
 * a payment's receipt and the chain's height are read together, and concurrent payments share
 * requests (issue 21: the server's CPU per bet, and the node's).
 */
export function createChainClient(settings: ChainSettings): PublicClient {
  const chain = defineChain({
    id: settings.id,
    name: settings.name ?? `Chain ${settings.id}`,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
  const batchSize = settings.rpcBatchSize ?? 20;
  return createPublicClient({
    chain,
    transport: http(settings.rpcUrl, {
      retryCount: 2,
      timeout: 10_000,
      batch: batchSize > 1 ? { batchSize, wait: 0 } : false,
    }),
    // Block time is read from the chain, not assumed (docs/architecture.md: BSC moved to 450 ms).
    pollingInterval: 250,
  });
}

import { createPublicClient, defineChain, http, type PublicClient } from 'viem';

export type ChainSettings = { id: number; rpcUrl: string; name?: string };

/** A viem public client for the deployment's chain, read through our own RPC. */
export function createChainClient(settings: ChainSettings): PublicClient {
  const chain = defineChain({
    id: settings.id,
    name: settings.name ?? `Chain ${settings.id}`,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
  return createPublicClient({
    chain,
    transport: http(settings.rpcUrl, { retryCount: 2, timeout: 10_000 }),
    // Block time is read from the chain, not assumed (docs/architecture.md: BSC moved to 450 ms).
    pollingInterval: 250,
  });
}

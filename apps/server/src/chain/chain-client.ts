import {
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

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
 * requests, which saves the server's CPU per bet, and the node's (docs/decisions/024).
 */
export function createChainClient(settings: ChainSettings): PublicClient {
  const chain = deploymentChain(settings);
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

/**
 * A wallet for one key on the deployment's chain, through our own RPC: the ops CLI's escrow calls and
 * the dev chain's deployment. Sending checks the node's chain id against the deployment's.
 */
export function createChainWallet(
  settings: ChainSettings,
  privateKey: Hex,
): WalletClient<Transport, Chain, PrivateKeyAccount> {
  return createWalletClient({
    chain: deploymentChain(settings),
    transport: http(settings.rpcUrl, { retryCount: 2, timeout: 10_000 }),
    account: privateKeyToAccount(privateKey),
    pollingInterval: 250,
  });
}

function deploymentChain(settings: ChainSettings): Chain {
  return defineChain({
    id: settings.id,
    name: settings.name ?? `Chain ${settings.id}`,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
}

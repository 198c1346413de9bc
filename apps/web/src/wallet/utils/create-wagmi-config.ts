import { CHAINS, isSupportedChainId } from '@pm/core/constants';
import { type Chain, defineChain } from 'viem';
import { createConfig, injected } from 'wagmi';
import type { AppConfig } from '#api/get-app-config.ts';
import { lazyHttp } from './lazy-http.ts';

/** The deployment's chain as the server describes it: one build serves mainnet, testnet or local. */
export function deploymentChain(appConfig: AppConfig): Chain {
  const known = isSupportedChainId(appConfig.chainId) ? CHAINS[appConfig.chainId] : undefined;
  return defineChain({
    id: appConfig.chainId,
    name: appConfig.chainName,
    nativeCurrency: { name: 'BNB', symbol: known?.symbol ?? 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [appConfig.rpcUrl] } },
    blockExplorers: appConfig.explorerUrl
      ? { default: { name: 'Explorer', url: appConfig.explorerUrl } }
      : undefined,
  });
}

/**
 * One chain (the deployment's, read over HTTP from its RPC URL, the transport's code loaded with the
 * first read), the generic injected connector for wallets that only set `window.ethereum`, and
 * EIP-6963 discovery, which adds one connector per announced wallet (its id is the wallet's rdns,
 * e.g. io.metamask).
 */
export function createWagmiConfig(appConfig: AppConfig) {
  const chain = deploymentChain(appConfig);
  return createConfig({
    chains: [chain],
    connectors: [injected()],
    transports: { [chain.id]: lazyHttp(appConfig.rpcUrl) },
    multiInjectedProviderDiscovery: true,
  });
}

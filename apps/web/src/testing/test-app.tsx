import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { defineChain, getAddress } from 'viem';
import { createConfig, http, mock, WagmiProvider } from 'wagmi';
import { connect } from 'wagmi/actions';
import { type AppConfig, appConfigQueryOptions } from '#api/get-app-config.ts';
import type { Language } from '#i18n/translate.ts';
import { Toaster } from '#ui/toaster.tsx';
import { WalletContext } from '#wallet/wallet-context.ts';
import { TestI18n } from './test-i18n.tsx';

// For component tests: the app's providers around a component — a mock wallet on the local chain,
// the deployment's config already loaded, the strings, the toaster — as the app wires them.

/** Hardhat dev account #1: the wallet a test connects unless it names another. */
export const TEST_ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const localChain = (rpcUrl = 'http://127.0.0.1:9') =>
  defineChain({
    id: 31337,
    name: 'Local Hardhat',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });

export const testAppConfig: AppConfig = {
  chainId: 31337,
  chainName: 'Local Hardhat',
  rpcUrl: 'http://127.0.0.1:9',
  explorerUrl: null,
  escrow: { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', chainId: 31337 },
  minMarketBetWei: '5000000000000000',
  minOracleBetWei: '10000000000000000',
  marketFeeBps: 0,
  oracleFeeBps: 0,
  flagBondMinWei: '10000000000000000',
  flagBondBps: 500,
  roundIntervalS: 600,
  bettingWindowS: 300,
  priceFeed: 'simulated',
  aiConfigured: true,
  resolution: {
    models: ['gpt-4o-mini'],
    searchProvider: 'searxng',
    maxPages: 25,
    maxCreatorPages: 5,
    minSources: 2,
    minConfidence: 70,
  },
  claimsEnabled: true,
  operatorAddresses: [],
  serverTime: '2025-06-01T12:00:00.000Z',
};

/**
 * Renders `children` inside the app's providers, with a wallet connected as `connectedAs` if given. The
 * chain's node is `rpcUrl` (a test chain, testing/test-chain.ts), else a closed port.
 */
export async function renderWithApp(
  children: ReactNode,
  options: { connectedAs?: string; config?: Partial<AppConfig>; language?: Language; rpcUrl?: string } = {},
) {
  const chain = localChain(options.rpcUrl);
  const wagmiConfig = createConfig({
    chains: [chain],
    connectors: [
      mock({ accounts: [getAddress(options.connectedAs ?? TEST_ACCOUNT)], features: { reconnect: true } }),
    ],
    transports: { [chain.id]: http() },
  });
  const connector = wagmiConfig.connectors[0];
  if (options.connectedAs && connector) await connect(wagmiConfig, { connector, chainId: chain.id });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(appConfigQueryOptions().queryKey, { ...testAppConfig, ...options.config });
  return render(
    <QueryClientProvider client={queryClient}>
      <WagmiProvider config={wagmiConfig}>
        <WalletContext value={{ chain, connect: () => {}, isConnecting: false }}>
          <TestI18n language={options.language}>
            {children}
            <Toaster />
          </TestI18n>
        </WalletContext>
      </WagmiProvider>
    </QueryClientProvider>,
  );
}

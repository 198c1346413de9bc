import { createServer, type Server } from 'node:http';
import type { Market } from '@pm/core/contract/markets';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { defineChain, getAddress } from 'viem';
import { createConfig, http, mock, WagmiProvider } from 'wagmi';
import { connect } from 'wagmi/actions';
import type { AppConfig } from '../../../api/get-app-config.ts';
import { TestI18n } from '../../../app/test-i18n.tsx';
import type { Language } from '../../../i18n/translate.ts';
import { Toaster } from '../../../ui/toaster.tsx';
import { WalletContext } from '../../wallet/wallet-context.ts';

// For the market components' tests: a market, the app's providers around a component (a mock
// wallet, the deployment's config), and a real loopback HTTP server standing in for the API.

export const OPERATOR = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const chain = defineChain({
  id: 31337,
  name: 'Local Hardhat',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
});

export const appConfig: AppConfig = {
  chainId: 31337,
  chainName: 'Local Hardhat',
  rpcUrl: 'http://127.0.0.1:9',
  explorerUrl: null,
  vaultAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  minMarketBetWei: '5000000000000000',
  minOracleBetWei: '10000000000000000',
  marketFeeBps: 0,
  oracleFeeBps: 0,
  roundIntervalS: 600,
  bettingWindowS: 300,
  priceFeed: 'simulated',
  aiConfigured: true,
  claimsEnabled: true,
  operatorAddresses: [],
  serverTime: '2025-06-01T12:00:00.000Z',
};

export function testMarket(overrides: Partial<Market> = {}): Market {
  return {
    id: 1,
    creatorAddress: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    title: 'Will BNB/USD trade above $1 at the deadline?',
    description: 'Will BNB/USD trade above $1 at the deadline?',
    resolutionInstructions: null,
    betType: 'custom_bet',
    category: 'crypto',
    duration: 'daily',
    targetSymbol: null,
    targetPrice: null,
    startPrice: null,
    comparisonType: null,
    startTime: '2099-06-01T12:00:00.000Z',
    deadline: '2099-06-02T12:00:00.000Z',
    status: 'active',
    totalYesWei: '10000000000000000',
    totalNoWei: '5000000000000000',
    yesCount: 1,
    noCount: 1,
    result: null,
    aiVerdict: null,
    aiConfidence: null,
    aiSources: [],
    resolver: {
      model: 'gpt-4o-mini',
      promptVersion: 'market-resolver-v1',
      contentHash: `0x${'ab'.repeat(32)}`,
    },
    createdAt: '2099-06-01T12:00:00.000Z',
    updatedAt: '2099-06-01T12:00:00.000Z',
    ...overrides,
  };
}

/** A loopback API answering GET /api/markets/:id with `market` and empty claimables. */
export async function startMarketApi() {
  let market = testMarket();
  const server: Server = createServer((request, response) => {
    const url = request.url ?? '';
    const body = url.startsWith('/api/markets/')
      ? { market, bets: [] }
      : { markets: { totalWei: '0', bets: [] }, oracle: { totalWei: '0', bets: [] } };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The test server has no port');
  const base = document.createElement('base');
  base.href = `http://127.0.0.1:${address.port}/`;
  document.head.append(base);
  return {
    serve(next: Market) {
      market = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        base.remove();
        server.close(() => resolve());
      }),
  };
}

/** Renders `children` inside the app's providers, with a wallet connected as `connectedAs` if given. */
export async function renderWithApp(
  children: ReactNode,
  options: { connectedAs?: string; operators?: string[]; language?: Language } = {},
) {
  const wagmiConfig = createConfig({
    chains: [chain],
    connectors: [
      mock({ accounts: [getAddress(options.connectedAs ?? OPERATOR)], features: { reconnect: true } }),
    ],
    transports: { [chain.id]: http() },
  });
  const connector = wagmiConfig.connectors[0];
  if (options.connectedAs && connector) await connect(wagmiConfig, { connector, chainId: chain.id });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['config'], { ...appConfig, operatorAddresses: options.operators ?? [] });
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

import { createServer, type Server } from 'node:http';
import type { UserBet } from '@pm/core/contract/users';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defineChain } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createConfig, http, mock, WagmiProvider } from 'wagmi';
import { connect } from 'wagmi/actions';
import { TestI18n } from '../../../app/test-i18n.tsx';
import { WalletContext } from '../../wallet/wallet-context.ts';
import { MyBetsList } from './my-bets-list.tsx';

// The server hands a wallet's bets out a page at a time (nextCursor); the list shows every page
// it has and loads the next on request. A real HTTP server on loopback stands in for the API.

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const chain = defineChain({
  id: 31337,
  name: 'Local Hardhat',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
});

const bet = (id: number, title: string): UserBet => ({
  id,
  marketId: id,
  userAddress: ADDRESS.toLowerCase(),
  prediction: 'YES',
  amountWei: '10000000000000000',
  potentialPayoutWei: '20000000000000000',
  payoutWei: null,
  status: 'pending',
  isCreator: false,
  txHash: `0x${String(id).padStart(64, '0')}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  market: {
    title,
    status: 'active',
    result: null,
    category: 'crypto',
    deadline: '2026-01-02T00:00:00.000Z',
  },
});

let server: Server;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? '';
    requests.push(url);
    const second = url.includes('cursor=');
    const body = second
      ? { bets: [bet(1, 'Oldest market')], nextCursor: null }
      : { bets: [bet(3, 'Newest market'), bet(2, 'Middle market')], nextCursor: '1767225600000.2' };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The test server has no port');
  const base = document.createElement('base');
  base.href = `http://127.0.0.1:${address.port}/`;
  document.head.append(base);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  cleanup();
  requests.length = 0;
});

async function renderList() {
  const wagmiConfig = createConfig({
    chains: [chain],
    connectors: [mock({ accounts: [ADDRESS], features: { reconnect: true } })],
    transports: { [chain.id]: http() },
  });
  const connector = wagmiConfig.connectors[0];
  if (connector) await connect(wagmiConfig, { connector, chainId: chain.id });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <WagmiProvider config={wagmiConfig}>
        <WalletContext value={{ chain, connect: () => {}, isConnecting: false }}>
          <TestI18n>
            <MyBetsList />
          </TestI18n>
        </WalletContext>
      </WagmiProvider>
    </QueryClientProvider>,
  );
}

describe('MyBetsList', () => {
  test('Shows the first page of bets, and the older ones after Load more', async () => {
    await renderList();
    expect(await screen.findByText('Newest market')).toBeTruthy();
    expect(screen.getByText('Middle market')).toBeTruthy();
    expect(screen.queryByText('Oldest market')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Oldest market')).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(requests).toEqual([
      `/api/users/${ADDRESS}/bets`,
      `/api/users/${ADDRESS}/bets?cursor=1767225600000.2`,
    ]);
  });
});

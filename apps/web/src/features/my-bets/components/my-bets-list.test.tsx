import type { UserBet } from '@pm/core/contract/users';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startTestApi } from '../../../app/test-api.ts';
import { renderWithApp, TEST_ACCOUNT } from '../../../app/test-app.tsx';
import { MyBetsList } from './my-bets-list.tsx';

// The server hands a wallet's bets out a page at a time (nextCursor); the list shows every page
// it has and loads the next on request. A real HTTP server on loopback stands in for the API.

const ADDRESS = TEST_ACCOUNT;
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

let api: Awaited<ReturnType<typeof startTestApi>>;
const requests: string[] = [];

beforeAll(async () => {
  api = await startTestApi((request) => {
    const url = request.url ?? '';
    requests.push(url);
    return {
      body: url.includes('cursor=')
        ? { bets: [bet(1, 'Oldest market')], nextCursor: null }
        : { bets: [bet(3, 'Newest market'), bet(2, 'Middle market')], nextCursor: '1767225600000.2' },
    };
  });
});

afterAll(() => api.close());
afterEach(() => {
  cleanup();
  requests.length = 0;
});

async function renderList() {
  await renderWithApp(<MyBetsList />, { connectedAs: ADDRESS });
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

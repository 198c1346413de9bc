import { cleanup, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { startTestApi } from '#testing/test-api.ts';
import { renderWithApp } from '#testing/test-app.tsx';
import { Component as Profile } from './profile.tsx';

// /u/{address}: a wallet's public P&L and history, read-only; a bad address is said in the page.

const ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
let api: Awaited<ReturnType<typeof startTestApi>>;
const requests: string[] = [];

beforeAll(async () => {
  api = await startTestApi((request) => {
    const url = request.url ?? '';
    requests.push(url);
    if (url.includes('/summary')) {
      return {
        body: {
          address: ADDRESS.toLowerCase(),
          netWei: '0',
          totalWageredWei: '0',
          bestWinWei: null,
          winRate: null,
          counts: { total: 0, pending: 0, won: 0, lost: 0, refunded: 0 },
        },
      };
    }
    return { body: { entries: [], nextCursor: null } };
  });
});
afterAll(() => api.close());
afterEach(() => {
  cleanup();
  requests.length = 0;
});

async function renderAt(path: string) {
  const { hook } = memoryLocation({ path });
  await renderWithApp(
    <Router hook={hook}>
      <Route path="/u/:address">
        <Profile />
      </Route>
    </Router>,
  );
}

describe('Profile page', () => {
  test('A wallet without bets shows its empty summary and says it has no bets yet', async () => {
    await renderAt(`/u/${ADDRESS}`);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Player 0x3C44...93BC');
    expect((await screen.findByText('This wallet has no bets yet.')).isConnected).toBe(true);
    const card = screen.getByRole('region', { name: 'Profit and loss' });
    expect(within(card).getByText('Win rate').nextElementSibling?.textContent).toBe('—');
    expect(within(card).getByText('Net P&L').nextElementSibling?.textContent).toBe('0.0000 BNB');
    expect(requests).toContain(`/api/users/${ADDRESS}/summary`);
    expect(screen.queryByRole('button', { name: 'Claim Prize' })).toBeNull();
  });

  test('Something that is not an address is a clear error in the page, and nothing is fetched', async () => {
    await renderAt('/u/0x12ab');
    expect(screen.getByRole('alert').textContent).toContain('“0x12ab” is not a wallet address.');
    expect(requests).toEqual([]);
  });
});

import type { HistoryEntry } from '@pm/core/contract/history';
import { cleanup, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Language } from '#i18n/translate.ts';
import { formatDateTime } from '#lib/use-format.ts';
import { startTestApi } from '#testing/test-api.ts';
import { renderWithApp } from '#testing/test-app.tsx';
import { Component as Profile } from './profile.tsx';

// /u/{address}: a wallet's public P&L and history, read-only; a bad address is said in the page.

const ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
let api: Awaited<ReturnType<typeof startTestApi>>;
const requests: string[] = [];
let entries: HistoryEntry[] = [];

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
    return { body: { entries, nextCursor: null } };
  });
});
afterAll(() => api.close());
afterEach(() => {
  cleanup();
  requests.length = 0;
  entries = [];
});

async function renderAt(path: string, language: Language = 'en') {
  const { hook } = memoryLocation({ path });
  await renderWithApp(
    <Router hook={hook}>
      <Route path="/u/:address">
        <Profile />
      </Route>
    </Router>,
    { language },
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

describe("A price market's bet in the history", () => {
  const DEADLINE = '2026-11-26T13:29:24.679Z';
  const bet: HistoryEntry = {
    kind: 'bet',
    game: 'markets',
    betId: 2,
    marketId: 12,
    title: 'Will BTC be above $1.00 at 13:29 UTC on 2026-11-26?',
    priceTerms: { targetSymbol: 'BTC', comparisonType: 'above', targetPrice: '1.00', deadline: DEADLINE },
    epoch: null,
    side: 'YES',
    stakeWei: '10000000000000000',
    result: 'pending',
    returnWei: null,
    profitWei: null,
    claimState: 'none',
    placedAt: '2026-11-26T12:29:24.679Z',
    settledAt: null,
    txHash: `0x${'2'.padStart(64, '0')}`,
    bond: null,
  };

  test('Its title is said from its terms in Chinese, with Intl formats, not the stored English', async () => {
    entries = [bet];
    await renderAt(`/u/${ADDRESS}`, 'zh');
    const link = await screen.findByRole('link', { name: /BTC/ });
    expect(link.textContent).toBe(`BTC 在 ${formatDateTime(DEADLINE, 'zh')} 时会高于 US$1.00 吗？`);
  });

  test("In English too, with the deadline in the reader's format", async () => {
    entries = [bet];
    await renderAt(`/u/${ADDRESS}`);
    const link = await screen.findByRole('link', { name: /BTC/ });
    expect(link.textContent).toBe(`Will BTC be above $1.00 at ${formatDateTime(DEADLINE, 'en')}?`);
  });
});

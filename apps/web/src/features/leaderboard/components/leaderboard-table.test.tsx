import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startTestApi } from '#testing/test-api.ts';
import { TestI18n } from '#testing/test-i18n.tsx';
import { LeaderboardTable } from './leaderboard-table.tsx';

// A real HTTP server on loopback stands in for the API (testing/test-api.ts).
let api: Awaited<ReturnType<typeof startTestApi>>;
let answer: { status: number; body: unknown } = { status: 200, body: { entries: [] } };
const requests: string[] = [];

beforeAll(async () => {
  api = await startTestApi((request) => {
    requests.push(request.url ?? '');
    return answer;
  });
});

afterAll(() => api.close());

afterEach(() => {
  cleanup();
  requests.length = 0;
});

function renderTable(language: 'en' | 'zh' = 'en') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <TestI18n language={language}>
        <LeaderboardTable />
      </TestI18n>
    </QueryClientProvider>,
  );
}

describe('LeaderboardTable', () => {
  test('Each winner shows rank, short address, winnings in BNB, bets and win rate', async () => {
    answer = {
      status: 200,
      body: {
        entries: [
          {
            address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
            totalWinningsWei: '1234567890000000000',
            totalBets: 12,
            winRate: 0.75,
          },
          {
            address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
            totalWinningsWei: '5000000000000000',
            totalBets: 3,
            winRate: 1 / 3,
          },
        ],
      },
    };
    renderTable();

    const [, first, second, ...rest] = await screen.findAllByRole('row');
    const cells = (row: HTMLElement | undefined) =>
      row
        ? within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent)
        : [];
    // The address cell also carries bets and win rate for narrow screens (hidden by CSS on wide ones).
    expect(cells(first)).toEqual(['1', '0x7099...79C812 bets · 75% win rate', '1.2345 BNB', '12', '75%']);
    expect(cells(second)).toEqual(['2', '0x3C44...93BC3 bets · 33.3% win rate', '0.0050 BNB', '3', '33.3%']);
    expect(rest).toEqual([]);
    expect(requests).toEqual(['/api/leaderboard?limit=100']);
    // Each address opens that player's public profile.
    const link = screen.getByRole('link', { name: 'Profile of 0x7099...79C8' });
    expect(link.getAttribute('href')).toBe('/u/0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  });

  test('An empty leaderboard invites the user to be the first', async () => {
    answer = { status: 200, body: { entries: [] } };
    renderTable();
    expect(await screen.findByText('No winners yet. Be the first!')).toBeVisible();
  });

  test('A failing API shows that the leaderboard could not be loaded, in the active language', async () => {
    answer = { status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } };
    renderTable('zh');
    expect((await screen.findByRole('alert')).textContent).toContain('排行榜加载失败');
    expect(screen.getByRole('button', { name: '重试' })).toBeVisible();
  });

  test('An answer that breaks the contract is an error, not a broken table', async () => {
    answer = { status: 200, body: { entries: [{ address: 'nobody', totalWinningsWei: '1.5' }] } };
    renderTable();
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load leaderboard');
  });
});

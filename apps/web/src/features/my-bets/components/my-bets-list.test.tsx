import type { HistoryEntry, HistorySummary } from '@pm/core/contract/history';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startTestApi } from '#testing/test-api.ts';
import { renderWithApp, TEST_ACCOUNT } from '#testing/test-app.tsx';
import { MyBetsList } from './my-bets-list.tsx';

/** The history is a lazy chunk loaded once a wallet is connected; under load it may take a while. */
const LAZY = { timeout: 5_000 };

// My Bets over both games (decision 012): the P&L card, the filters, the list a page at a time, the
// claim buttons. A real HTTP server on loopback stands in for the API.

const ADDRESS = TEST_ACCOUNT;
const base = {
  kind: 'bet',
  bond: null,
  marketId: null,
  title: null,
  epoch: null,
  claimState: 'none',
  placedAt: '2026-01-01T00:00:00.000Z',
  settledAt: null,
  txHash: `0x${'1'.padStart(64, '0')}`,
} as const;

const marketWin: HistoryEntry = {
  ...base,
  game: 'markets',
  betId: 3,
  marketId: 7,
  title: 'Will it rain?',
  side: 'YES',
  stakeWei: '300000000000000001',
  result: 'won',
  returnWei: '520500000000000001',
  profitWei: '220500000000000000',
  claimState: 'claimable',
  settledAt: '2026-01-01T01:00:00.000Z',
};
const roundLoss: HistoryEntry = {
  ...base,
  game: 'oracle',
  betId: 9,
  epoch: 2950000,
  side: 'bear',
  stakeWei: '1234500000000000000000',
  result: 'lost',
  returnWei: '0',
  profitWei: '-1234500000000000000000',
};
const refund: HistoryEntry = {
  ...base,
  game: 'markets',
  betId: 1,
  marketId: 5,
  title: 'Oldest market',
  side: 'NO',
  stakeWei: '20000000000000000',
  result: 'refunded',
  returnWei: '20000000000000000',
  profitWei: '0',
  claimState: 'claimed',
};
// Flag bonds, entries of their own.
const bondReturned: HistoryEntry = {
  ...base,
  kind: 'bond',
  game: 'markets',
  betId: 4,
  marketId: 8,
  title: 'Was the verdict wrong?',
  side: 'NO',
  stakeWei: '10000000000000000',
  result: 'won',
  returnWei: '12000000000000000',
  profitWei: '2000000000000000',
  claimState: 'claimed',
  settledAt: '2026-01-01T02:00:00.000Z',
  bond: { fate: 'returned', rewardWei: '2000000000000000', refundState: 'refunded' },
};
const bondForfeited: HistoryEntry = {
  ...bondReturned,
  betId: 5,
  marketId: 9,
  title: 'Was the verdict right?',
  result: 'lost',
  returnWei: '0',
  profitWei: '-10000000000000000',
  claimState: 'none',
  bond: { fate: 'forfeited', rewardWei: '0', refundState: 'none' },
};
// A bond on the escrow that came back is claimed like a bet.
const bondOnEscrow: HistoryEntry = {
  ...bondReturned,
  betId: 6,
  marketId: 10,
  title: 'Was the escrow verdict wrong?',
  result: 'refunded',
  returnWei: '10000000000000000',
  profitWei: '0',
  claimState: 'claimable',
  bond: { fate: 'returned_void', rewardWei: '0', refundState: 'none' },
};
const summary: HistorySummary = {
  address: ADDRESS.toLowerCase(),
  netWei: '-1234279500000000000000',
  totalWageredWei: '1234820000000000000001',
  bestWinWei: '220500000000000000',
  winRate: 0.5,
  counts: { total: 3, pending: 0, won: 1, lost: 1, refunded: 1 },
};

let api: Awaited<ReturnType<typeof startTestApi>>;
const requests: string[] = [];
const claims: unknown[] = [];

beforeAll(async () => {
  api = await startTestApi((request) => {
    const url = request.url ?? '';
    requests.push(`${request.method} ${url}`);
    if (request.method === 'POST') {
      claims.push(url);
      return {
        body: {
          success: true,
          totalWei: '520500000000000001',
          betsCount: 1,
          payoutTxHash: null,
          payoutStatus: 'pending',
          message: 'ok',
        },
      };
    }
    if (url.includes('/summary')) return { body: summary };
    if (url.includes('status=lost')) return { body: { entries: [roundLoss], nextCursor: null } };
    if (url.includes('status=won'))
      return { body: { entries: [bondReturned, bondForfeited, bondOnEscrow], nextCursor: null } };
    if (url.includes('/claimable'))
      return {
        body: {
          markets: { totalWei: '0', count: 0, bets: [] },
          oracle: { totalWei: '0', count: 0, bets: [] },
          bonds: { totalWei: '0', count: 0, bonds: [] },
        },
      };
    if (url.includes('status=claimable')) return { body: { entries: [], nextCursor: null } };
    return {
      body: url.includes('cursor=')
        ? { entries: [refund], nextCursor: null }
        : { entries: [marketWin, roundLoss], nextCursor: '1767225600000000.m3' },
    };
  });
});

afterAll(() => api.close());
afterEach(() => {
  cleanup();
  requests.length = 0;
  claims.length = 0;
});

describe('MyBetsList', () => {
  test('Shows the P&L card and both games’ bets with stake, payout and net, older ones after Load more', async () => {
    await renderWithApp(<MyBetsList />, { connectedAs: ADDRESS });
    const card = await screen.findByRole('region', { name: 'Profit and loss' }, LAZY);
    expect((await within(card).findByText('-1,234.2795 BNB', {}, LAZY)).isConnected).toBe(true);
    expect(within(card).getByText('50%').isConnected).toBe(true);
    expect(within(card).getByText('+0.2205 BNB').isConnected).toBe(true);
    expect(within(card).getByText('1,234.8200 BNB').isConnected).toBe(true);
    expect(within(card).getByText('3 bets: 1 won, 1 lost, 1 refunded, 0 open').isConnected).toBe(true);

    const list = await screen.findByRole('list', { name: 'Bet history' }, LAZY);
    const [win, loss] = within(list).getAllByRole('listitem');
    if (!win || !loss) throw new Error('rows missing');
    expect(win?.textContent).toContain('Will it rain?');
    expect(win?.textContent).toContain('Won');
    expect(win?.textContent).toContain('Stake0.3000 BNB');
    expect(win?.textContent).toContain('Payout0.5205 BNB');
    expect(win?.textContent).toContain('Net+0.2205 BNB');
    expect(loss?.textContent).toContain('Round #2950000');
    expect(loss?.textContent).toContain('DOWN');
    expect(loss?.textContent).toContain('Lost');
    expect(loss?.textContent).toContain('Payout0.0000 BNB');
    expect(loss?.textContent).toContain('Net-1,234.5000 BNB');
    expect(within(loss).queryByRole('button')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect((await screen.findByText('Oldest market')).isConnected).toBe(true);
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[2]?.textContent).toContain('Refunded');
    expect(rows[2]?.textContent).toContain('Claimed');
    expect(rows[2]?.textContent).toContain('Net0.0000 BNB');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(requests).toContain(`GET /api/users/${ADDRESS}/history?cursor=1767225600000000.m3`);
  });

  test('The filters ask the server for one game or status and say when nothing matches', async () => {
    await renderWithApp(<MyBetsList />, { connectedAs: ADDRESS });
    await screen.findByRole('list', { name: 'Bet history' }, LAZY);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Lost');
    await userEvent.selectOptions(screen.getByLabelText('Game'), 'Oracle');
    expect((await screen.findByText('Round #2950000')).isConnected).toBe(true);
    expect(screen.queryByText('Will it rain?')).toBeNull();
    expect(requests).toContain(`GET /api/users/${ADDRESS}/history?game=oracle&status=lost`);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'To claim');
    expect((await screen.findByText('No bets match these filters.')).isConnected).toBe(true);
  });

  test('Claim Prize on a won market bet claims that bet; a payout still on its way says so', async () => {
    await renderWithApp(<MyBetsList />, { connectedAs: ADDRESS });
    const list = await screen.findByRole('list', { name: 'Bet history' }, LAZY);
    const [win] = within(list).getAllByRole('listitem');
    if (!win) throw new Error('row missing');
    expect(win?.textContent).toContain('You can claim 0.5205 BNB.');
    await userEvent.click(within(win).getByRole('button', { name: 'Claim Prize' }));
    expect((await screen.findByText('Your payout is on its way.')).isConnected).toBe(true);
    expect(claims).toEqual(['/api/claims']);
  });

  test('Amounts follow the language: Chinese shows the same grouping and the Chinese labels', async () => {
    await renderWithApp(<MyBetsList />, { connectedAs: ADDRESS, language: 'zh' });
    const card = await screen.findByRole('region', { name: '盈亏' }, LAZY);
    expect((await within(card).findByText('-1,234.2795 BNB', {}, LAZY)).isConnected).toBe(true);
    expect(within(card).getByText('共 3 笔：获胜 1，失败 1，退款 1，进行中 0').isConnected).toBe(true);
    expect((await screen.findByText('第 2950000 轮', {}, LAZY)).isConnected).toBe(true);
  });

  test('A flag bond is a row of its own with its fate, reward and refund, and no claim button once paid back', async () => {
    await renderWithApp(<MyBetsList />, { connectedAs: ADDRESS });
    await screen.findByRole('list', { name: 'Bet history' }, LAZY);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Won');
    const returned = (await screen.findByText('Was the verdict wrong?', {}, LAZY)).closest('li');
    const forfeited = screen.getByText('Was the verdict right?').closest('li');
    if (!returned || !forfeited) throw new Error('bond rows missing');
    expect(returned.textContent).toContain('Flag bond');
    expect(returned.textContent).toContain('Returned: verdict overturned');
    expect(returned.textContent).toContain('Refund sent');
    expect(returned.textContent).toContain('Bond0.0100 BNB');
    expect(returned.textContent).toContain('Returned0.0120 BNB');
    expect(returned.textContent).toContain('Reward0.0020 BNB');
    expect(returned.textContent).toContain('Net+0.0020 BNB');
    expect(within(returned).getByRole('link', { name: 'Was the verdict wrong?' }).getAttribute('href')).toBe(
      '/market/8',
    );
    expect(forfeited.textContent).toContain('Forfeited: verdict confirmed');
    expect(forfeited.textContent).toContain('Net-0.0100 BNB');
    expect(forfeited.textContent).not.toContain('Refund');
    expect(within(returned).queryByRole('button')).toBeNull();
    expect(within(forfeited).queryByRole('button')).toBeNull();
  });

  test('A returned bond on the escrow has Claim bond, which claims the wallet’s market stakes', async () => {
    await renderWithApp(<MyBetsList />, { connectedAs: ADDRESS });
    await screen.findByRole('list', { name: 'Bet history' }, LAZY);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Won');
    const row = (await screen.findByText('Was the escrow verdict wrong?', {}, LAZY)).closest('li');
    if (!row) throw new Error('bond row missing');
    expect(row.textContent).toContain('You can claim 0.0100 BNB.');
    claims.length = 0;
    await userEvent.click(within(row).getByRole('button', { name: 'Claim bond' }));
    // The toast may be drawn again as the list refetches after the claim: read the one on screen.
    await waitFor(() => expect(screen.getByText('Your payout is on its way.').isConnected).toBe(true));
    expect(claims).toEqual(['/api/claims']);
  });

  test('A flag bond in Chinese', async () => {
    await renderWithApp(<MyBetsList />, { connectedAs: ADDRESS, language: 'zh' });
    await screen.findByRole('list', { name: '下注记录' }, LAZY);
    await userEvent.selectOptions(screen.getByLabelText('状态'), '获胜');
    const returned = (await screen.findByText('Was the verdict wrong?', {}, LAZY)).closest('li');
    if (!returned) throw new Error('bond row missing');
    expect(returned.textContent).toContain('异议保证金');
    expect(returned.textContent).toContain('已退还：裁决被推翻');
    expect(returned.textContent).toContain('退款已发出');
    expect(returned.textContent).toContain('奖励0.0020 BNB');
    expect(screen.getByText('已没收：裁决被确认').isConnected).toBe(true);
  });
});

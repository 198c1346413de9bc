import { cleanup, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { NO_MARKET_PARTS, startMarketApi, testMarket } from '#testing/market-test-kit.tsx';
import { renderWithApp } from '#testing/test-app.tsx';
import { MarketDetail } from './market-detail.tsx';

// The market page charts the YES share of the pool over time (GET /api/markets/:id/odds).
// The canvas itself is drawn in Chromium (e2e/tests/charts.spec.ts); here, what it says.

let api: Awaited<ReturnType<typeof startMarketApi>>;
beforeAll(async () => {
  api = await startMarketApi();
});
afterAll(() => api?.close());
afterEach(cleanup);

const WAIT = { timeout: 10_000 };

describe('OddsChart', () => {
  test('The odds chart is named by the current YES share, in both languages; no bets, no chart', async () => {
    const odds = [
      { at: '2099-06-01T12:00:00.000Z', yesShareBps: 10_000, yesWei: '10', noWei: '0', bets: 1 },
      { at: '2099-06-01T12:05:00.000Z', yesShareBps: 6_667, yesWei: '10', noWei: '5', bets: 2 },
    ];
    api.serve(testMarket(), { odds });
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    const chart = await screen.findByRole(
      'figure',
      {
        name: 'YES share of the pool over time: 66.7% YES after 2 bets',
      },
      WAIT,
    );
    expect(chart.style.height).toBe('200px');
    cleanup();

    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />, { language: 'zh' });
    expect(
      await screen.findByRole('figure', { name: '资金池中 YES 的占比走势：2 笔下注后 YES 占 66.7%' }, WAIT),
    ).toBeVisible();
    cleanup();

    api.serve(testMarket());
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    expect((await screen.findByText('No bets yet.', {}, WAIT)).tagName).toBe('P');
  });
});

import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { NO_MARKET_PARTS, testMarket } from '#testing/market-test-kit.tsx';
import { startTestApi } from '#testing/test-api.ts';
import { renderWithApp } from '#testing/test-app.tsx';
import { MarketCard } from './market-card.tsx';
import { SettledMarkets } from './settled-markets.tsx';

// Settled markets are browsable, a page at a time by the list's cursor.

const settled = (id: number, result: 'YES' | 'NO' | 'VOID') =>
  testMarket({
    id,
    title: `Settled market ${id}`,
    status: 'settled',
    result,
    aiConfidence: result === 'VOID' ? null : 90,
  });

let api: Awaited<ReturnType<typeof startTestApi>>;
const requested: string[] = [];
beforeAll(async () => {
  api = await startTestApi((request) => {
    const url = request.url ?? '';
    requested.push(url);
    const second = url.includes('cursor=');
    return {
      body: second
        ? { markets: [settled(1, 'VOID')], counts: {}, nextCursor: null }
        : { markets: [settled(3, 'YES'), settled(2, 'NO')], counts: {}, nextCursor: 'page-2' },
    };
  });
});
afterAll(() => api?.close());
afterEach(cleanup);

// The list is a lazy chunk in the app; under load, its first data can take a few seconds.
const WAIT = { timeout: 10_000 };

describe('SettledMarkets', () => {
  test('Settled markets list with their verdicts, and Show more loads the next page by cursor', async () => {
    const nowMs = Date.parse('2099-07-01T00:00:00Z');
    await renderWithApp(
      <SettledMarkets
        renderCard={(market) => (
          <MarketCard
            market={market}
            nowMs={nowMs}
            onJoin={() => undefined}
            PriceCardFacts={NO_MARKET_PARTS.PriceCardFacts}
          />
        )}
      />,
    );
    const list = await screen.findByRole('list', { name: 'Settled markets' }, WAIT);
    const badges = await within(list).findAllByTestId('verdict-badge', {}, WAIT);
    expect(badges.map((badge) => badge.textContent)).toEqual(['YES', 'NO']);
    expect(requested.at(-1)).toBe('/api/markets?status=settled&limit=20');

    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await within(list).findByText('Settled market 1', {}, WAIT);
    expect(
      within(list)
        .getAllByTestId('verdict-badge')
        .map((badge) => badge.textContent),
    ).toEqual(['YES', 'NO', 'VOID']);
    expect(requested.at(-1)).toBe('/api/markets?status=settled&limit=20&cursor=page-2');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});

import type { Market } from '@pm/core/contract/markets';
import type { ResolutionEvent } from '@pm/core/contract/review';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { MarketCard } from '#features/markets/components/market-card.tsx';
import { MarketDetail } from '#features/markets/components/market-detail.tsx';
import { formatDateTime } from '#lib/use-format.ts';
import { testMarket } from '#testing/market-test-kit.tsx';
import { OffScreenObserver, testPriceMarket } from '#testing/price-market-kit.ts';
import { startTestApi } from '#testing/test-api.ts';
import { renderWithApp } from '#testing/test-app.tsx';
import { MARKET_PARTS } from './market-parts.tsx';

// A price market's card and page, against a loopback API serving the market and BTC's price.

const FEED = '0x264990fbd0A4796A3E3d8E37C4d5F87a3aCa5Ebf';
let market: Market = testMarket();
let timeline: ResolutionEvent[] = [];
let api: Awaited<ReturnType<typeof startTestApi>>;
beforeAll(async () => {
  vi.stubGlobal('IntersectionObserver', OffScreenObserver);
  api = await startTestApi((request) => {
    const url = request.url ?? '';
    if (url.startsWith('/api/prices/BTC/history'))
      return {
        body: {
          symbol: 'BTC',
          points: [
            { usd: '99000.00', at: '2099-06-01T12:00:00.000Z' },
            { usd: '100500.00', at: '2099-06-01T12:30:00.000Z' },
          ],
        },
      };
    if (url === '/api/prices/BTC')
      return {
        body: {
          symbol: 'BTC',
          usd: '102000.00',
          source: 'simulated',
          updatedAt: market.createdAt,
          stale: false,
        },
      };
    if (/^\/api\/markets\/\d+\/odds/.test(url)) return { body: { marketId: market.id, points: [] } };
    if (url.startsWith('/api/markets/'))
      return { body: { market, bets: [], betsNextCursor: null, participants: 0, timeline } };
    return {
      body: {
        markets: { totalWei: '0', count: 0, bets: [] },
        oracle: { totalWei: '0', count: 0, bets: [] },
        bonds: { totalWei: '0', count: 0, bonds: [] },
      },
    };
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
  return api?.close();
});
afterEach(() => {
  cleanup();
  timeline = [];
});

const WAIT = { timeout: 4_000 };
const NOW = Date.parse('2099-06-01T13:00:00.000Z');

describe('Price market card', () => {
  test('The card shows the coin, the target and comparison, the live price and the gap to the target', async () => {
    market = testPriceMarket();
    await renderWithApp(
      <MarketCard
        market={market}
        nowMs={NOW}
        onJoin={() => undefined}
        PriceCardFacts={MARKET_PARTS.PriceCardFacts}
      />,
    );
    const facts = await screen.findByTestId('price-card-facts', {}, WAIT);
    expect(within(facts).getByText('BTC above $100,000.00')).toBeVisible();
    expect(await within(facts).findByText('$102,000.0000', {}, WAIT)).toBeVisible();
    // (100,000 − 102,000) / 102,000 = −1.96 %, cut toward zero.
    expect(within(facts).getByTestId('card-gap').textContent).toBe('-1.96%');
    expect(within(facts).getByText('Start price: $99,000.0000')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Join Bet' })).toBeVisible();
  });

  test('A settled price market says the feed decided, in Chinese too', async () => {
    market = testPriceMarket({ status: 'settled', result: 'YES', settlementPrice: '100500.12' });
    // Nothing else is fetched: the act scope is awaited so the namespace's suspense is retried.
    await act(() =>
      renderWithApp(
        <MarketCard
          market={market}
          nowMs={NOW}
          onJoin={() => undefined}
          PriceCardFacts={MARKET_PARTS.PriceCardFacts}
        />,
        { language: 'zh' },
      ),
    );
    const facts = await screen.findByTestId('price-card-facts', {}, WAIT);
    expect(screen.getByText('价格喂价：YES')).toBeVisible();
    expect(within(facts).getByText('结算价格: US$100,500.1200')).toBeVisible();
    expect(within(facts).getByText('BTC 高于 US$100,000.00')).toBeVisible();
  });
});

describe('Price market page', () => {
  test('An open price market has the Price Oracle badge, its price chart and the feed rule', async () => {
    market = testPriceMarket();
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    expect(await screen.findByTestId('market-price-chart', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Price Oracle', { selector: 'span' })).toBeVisible();
    const settlement = screen.getByTestId('settlement');
    expect(
      within(settlement).getByText(
        'YES if the BTC price read from the feed at the deadline is strictly above $100,000.00; otherwise NO.',
      ),
    ).toBeVisible();
    expect(within(settlement).getByText(/Not settled yet/)).toBeVisible();
    const how = await screen.findByRole('region', { name: 'How resolution works' }, WAIT);
    expect(how.textContent).toContain('the price feed decides');
    expect(how.textContent).not.toContain('AI model judges');
  });

  test('A settled one shows the reading (price, round id, time) and links an aggregator feed to the explorer', async () => {
    market = testPriceMarket({
      status: 'settled',
      result: 'YES',
      settlementPrice: '100500.12345678',
      settlementRoundId: '18446744073709562301',
      settlementUpdatedAt: '2099-06-02T12:00:00.000Z',
      priceFeed: FEED,
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { config: { chainId: 56 } });
    const settlement = await screen.findByTestId('settlement', {}, WAIT);
    expect(within(settlement).getByTestId('settlement-price').textContent).toBe('$100,500.1234');
    expect(within(settlement).getByText('18446744073709562301')).toBeVisible();
    const link = within(settlement).getByRole('link', { name: 'View the feed on the explorer' });
    expect(link.getAttribute('href')).toBe(`https://bscscan.com/address/${FEED}`);
  });

  test('A simulated feed is named but not linked', async () => {
    market = testPriceMarket({
      status: 'settled',
      result: 'NO',
      settlementPrice: '99999.99',
      priceFeed: 'simulated',
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { language: 'zh' });
    const settlement = await screen.findByTestId('settlement', {}, WAIT);
    expect(within(settlement).getByText('simulated')).toBeVisible();
    expect(within(settlement).queryByRole('link')).toBeNull();
    expect(within(settlement).getByText('结算读数')).toBeVisible();
  });
});

describe("A price market's words", () => {
  const DEADLINE = '2099-06-02T12:00:00.000Z';
  const READ_AT = '2099-06-02T12:00:49.372Z';
  const settled = () =>
    testPriceMarket({
      title: 'Will BTC be above $1.00 at 12:00 UTC on 2099-06-02?',
      description: `Settled by the BTC/USD price feed (simulated), with no AI and no review window: YES if the first reading sampled at or after ${DEADLINE} is strictly above 1.00 USD; …`,
      targetPrice: '1.00',
      deadline: DEADLINE,
      status: 'settled',
      result: 'YES',
      aiVerdict: `BTC/USD was 95019.35070519 (feed time ${READ_AT}), above the target 1.00: YES.`,
      settlementPrice: '95019.35070519',
      settlementUpdatedAt: READ_AT,
    });
  const settledEvent: ResolutionEvent = {
    id: 1,
    kind: 'settled',
    actor: 'price-feed',
    result: 'YES',
    detail: `BTC/USD was 95019.35070519 (feed time ${READ_AT}), above the target 1.00: YES.`,
    at: '2099-06-02T12:01:00.000Z',
  };

  test('A settled price market reads in Chinese: title, rule, analysis and timeline, with Intl numbers and dates', async () => {
    market = settled();
    timeline = [settledEvent];
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { language: 'zh' });
    const analysis = await screen.findByTestId('market-analysis', {}, WAIT);
    await waitFor(() =>
      expect(analysis.textContent).toBe(
        `BTC/USD 喂价于 ${formatDateTime(READ_AT, 'zh')} 读数为 US$95,019.3507，高于目标价 US$1.00：YES。`,
      ),
    );
    expect(screen.getByRole('heading', { level: 2, name: /BTC/ }).textContent).toBe(
      `BTC 在 ${formatDateTime(DEADLINE, 'zh')} 时会高于 US$1.00 吗？`,
    );
    const description = screen.getByTestId('market-description').textContent ?? '';
    expect(description).toContain('由 BTC/USD 价格喂价（simulated）结算');
    expect(description).toContain(formatDateTime(DEADLINE, 'zh'));
    const events = await screen.findByRole('region', { name: '裁决时间线' }, WAIT);
    expect(within(events).getByText('由 价格喂价 结算为 YES')).toBeVisible();
    await waitFor(() => expect(within(events).getByText(/BTC\/USD 喂价于/)).toBeVisible());
    // Nothing of the server's English: no ISO time, no unformatted price.
    const page = document.body.textContent ?? '';
    expect(page).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(page).not.toContain('95019.35070519');
    expect(page).not.toContain('price-feed');
  });

  test("In English the same facts are said with the reader's formats", async () => {
    market = settled();
    timeline = [settledEvent];
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const analysis = await screen.findByTestId('market-analysis', {}, WAIT);
    await waitFor(() =>
      expect(analysis.textContent).toBe(
        `The BTC/USD feed read $95,019.3507 at ${formatDateTime(READ_AT, 'en')}, above the target $1.00: YES.`,
      ),
    );
    expect(screen.getByRole('heading', { level: 2, name: /BTC/ }).textContent).toBe(
      `Will BTC be above $1.00 at ${formatDateTime(DEADLINE, 'en')}?`,
    );
    const events = await screen.findByRole('region', { name: 'Resolution timeline' }, WAIT);
    expect(within(events).getByText('Settled YES by the price feed')).toBeVisible();
  });

  test('A price equal to the target is said as equal, and a void market says why, in Chinese', async () => {
    market = settled();
    market = { ...market, settlementPrice: '1.00', result: 'NO' };
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const analysis = await screen.findByTestId('market-analysis', {}, WAIT);
    await waitFor(() => expect(analysis.textContent).toContain('equal to the target $1.00: NO.'));
    cleanup();
    market = { ...settled(), result: 'VOID', settlementPrice: null, settlementUpdatedAt: null };
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { language: 'zh' });
    const voided = await screen.findByTestId('market-analysis', {}, WAIT);
    await waitFor(() => expect(voided.textContent).toContain('市场作废，所有投注全额退还'));
  });

  test("The card's title is said in Chinese too", async () => {
    market = testPriceMarket({ targetPrice: '100000.00', deadline: DEADLINE });
    await act(() =>
      renderWithApp(
        <MarketCard
          market={market}
          nowMs={NOW}
          onJoin={() => undefined}
          PriceCardFacts={MARKET_PARTS.PriceCardFacts}
        />,
        { language: 'zh' },
      ),
    );
    expect(screen.getByRole('link', { name: /BTC/ }).textContent).toBe(
      `BTC 在 ${formatDateTime(DEADLINE, 'zh')} 时会高于 US$100,000.00 吗？`,
    );
  });
});

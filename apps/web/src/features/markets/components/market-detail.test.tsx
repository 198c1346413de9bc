import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { NO_MARKET_PARTS, startMarketApi, testBet, testMarket } from '#testing/market-test-kit.tsx';
import { renderWithApp } from '#testing/test-app.tsx';
import { MarketDetail } from './market-detail.tsx';

// What decides a market (its resolution instructions) is on the market page.

let api: Awaited<ReturnType<typeof startMarketApi>>;
beforeAll(async () => {
  api = await startMarketApi();
});
afterAll(() => api?.close());
afterEach(cleanup);

// The page renders lazy parts (charts): on a busy machine that takes over 1 s.
const WAIT = { timeout: 5_000 };
const criteria = async (name: string) => screen.findByRole('region', { name }, WAIT);

describe('MarketDetail', () => {
  test('The resolution instructions are shown on the market page, as written', async () => {
    api.serve(testMarket({ resolutionInstructions: 'SECRET-CRITERION\nsecond line' }));
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    const section = await criteria('Resolution instructions');
    expect(within(section).getByText(/SECRET-CRITERION/).textContent).toBe('SECRET-CRITERION\nsecond line');
  });

  test('In Chinese too', async () => {
    api.serve(testMarket({ resolutionInstructions: '以币安收盘价为准' }));
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />, { language: 'zh' });
    expect(within(await criteria('裁定说明')).getByText('以币安收盘价为准')).toBeVisible();
  });

  test('Without instructions the page says the description alone decides', async () => {
    api.serve(testMarket({ resolutionInstructions: null }));
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    expect(
      within(await criteria('Resolution instructions')).getByText(/the description alone decides/),
    ).toBeVisible();
  });

  test('Market texts that look like HTML are shown as text, never as markup', async () => {
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
    api.serve(testMarket({ title: payload, description: payload, resolutionInstructions: payload }));
    const { container } = await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    await criteria('Resolution instructions');
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(screen.getAllByText(payload).length).toBeGreaterThanOrEqual(3);
  });

  test('Participants come from the server, and older bets come a page at a time with Show more', async () => {
    const bettor = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
    const bet = (id: number) =>
      testBet({
        id,
        userAddress: bettor(id),
        prediction: id % 2 ? 'YES' : 'NO',
        amountWei: `${id}0000000000000000`,
      });
    // Served: the newest two bets; the server counts 7 distinct bettors.
    api.serve(testMarket(), {
      bets: [bet(7), bet(6)],
      betsNextCursor: 'c1',
      participants: 7,
      betPages: {
        c1: { bets: [bet(5), bet(4)], nextCursor: 'c2' },
        c2: { bets: [bet(3), bet(2), bet(1)], nextCursor: null },
      },
    });
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    const participants = await screen.findByText('Participants', {}, WAIT);
    expect(participants.nextElementSibling?.textContent).toBe('7');

    await userEvent.click(screen.getByRole('button', { name: 'Show more bets' }));
    const older = await screen.findByRole('list', { name: 'Earlier bets' }, WAIT);
    await within(older).findByText('0x0000...0005', {}, WAIT);
    expect(within(older).queryByText('0x0000...0003')).toBeNull();
    expect(api.requested).toContain('/api/markets/1/bets?cursor=c1');

    await userEvent.click(within(older).getByRole('button', { name: 'Show more bets' }));
    await within(older).findByText('0x0000...0001', {}, WAIT);
    expect(
      within(older)
        .getAllByRole('listitem')
        .map((row) => row.textContent?.slice(0, 13)),
    ).toEqual(['0x0000...0005', '0x0000...0004', '0x0000...0003', '0x0000...0002', '0x0000...0001']);
    expect(within(older).getByRole('status').textContent).toBe('That is every bet on this market.');
    expect(within(older).queryByRole('button', { name: 'Show more bets' })).toBeNull();
    // The first bet of the new page took the focus from the button that went away.
    expect(document.activeElement?.textContent).toContain('0x0000...0003');
  });

  test('A market whose bets fit the first page offers no Show more', async () => {
    api.serve(testMarket(), { bets: [testBet()] });
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    await criteria('Resolution instructions');
    expect(screen.queryByRole('button', { name: 'Show more bets' })).toBeNull();
  });
});

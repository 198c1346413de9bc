import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { NO_MARKET_PARTS, testMarket } from '#testing/market-test-kit.tsx';
import { renderWithApp } from '#testing/test-app.tsx';
import { MarketCard } from './market-card.tsx';

afterEach(cleanup);

const NOW = Date.parse('2099-06-01T13:00:00.000Z');

async function card(overrides: Parameters<typeof testMarket>[0], language: 'en' | 'zh' = 'en') {
  await renderWithApp(
    <MarketCard
      market={testMarket(overrides)}
      nowMs={NOW}
      onJoin={() => undefined}
      PriceCardFacts={NO_MARKET_PARTS.PriceCardFacts}
    />,
    {
      language,
    },
  );
  return screen.getByRole('article');
}

describe('MarketCard', () => {
  test('The card shows the current YES share of the pool, from the wei totals', async () => {
    const article = await card({ totalYesWei: '10000000000000000', totalNoWei: '5000000000000000' });
    expect(within(article).getByTestId('yes-share').textContent).toBe('66.7% YES');
  });

  test('An empty pool has no share: a dash', async () => {
    const article = await card({ totalYesWei: '0', totalNoWei: '0', yesCount: 0, noCount: 0 });
    expect(within(article).getByTestId('yes-share').textContent).toBe('—');
  });

  test('In Chinese the share reads YES first', async () => {
    const article = await card({ totalYesWei: '1', totalNoWei: '3' }, 'zh');
    expect(within(article).getByTestId('yes-share').textContent).toBe('YES 25%');
  });

  test('A settled card shows its verdict badge and the AI confidence, and no Join button', async () => {
    const article = await card({ status: 'settled', result: 'NO', aiConfidence: 87 });
    expect(within(article).getByTestId('verdict-badge').textContent).toBe('NO');
    expect(within(article).getByText('AI verdict: NO (87% confidence)').tagName).toBe('P');
    expect(within(article).queryByRole('button', { name: 'Join Bet' })).toBeNull();
  });

  test('A void market says every stake is refunded', async () => {
    const article = await card({ status: 'settled', result: 'VOID', aiConfidence: null });
    expect(within(article).getByTestId('verdict-badge').textContent).toBe('VOID');
    expect(within(article).getByText(/Void: every stake refunded/).tagName).toBe('P');
  });
});

import type { Round } from '@pm/core/contract/oracle';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { TestI18n } from '#testing/test-i18n.tsx';
import { PriceChart } from './price-chart.tsx';
import { RoundCard, type RoundCardVariant } from './round-card.tsx';

afterEach(cleanup);

const START = Date.parse('2025-06-01T12:00:00Z') / 1000;
const BNB = 10n ** 18n;

function round(overrides: Partial<Round> = {}): Round {
  return {
    epoch: 2_914_632,
    status: 'live',
    startTime: new Date(START * 1000).toISOString(),
    lockTime: new Date((START + 300) * 1000).toISOString(),
    closeTime: new Date((START + 600) * 1000).toISOString(),
    lockPrice: null,
    closePrice: null,
    totalUpWei: '0',
    totalDownWei: '0',
    upCount: 0,
    downCount: 0,
    result: null,
    cancelReason: null,
    priceSource: null,
    lockPriceAt: null,
    lockFeedRoundId: null,
    closePriceAt: null,
    closeFeedRoundId: null,
    ...overrides,
  };
}

function show(
  variant: RoundCardVariant,
  value: Round,
  nowS: number,
  options: { lastPriceUsd?: string; language?: 'en' | 'zh' } = {},
) {
  render(
    <TestI18n language={options.language}>
      <RoundCard variant={variant} round={value} nowS={nowS} lastPriceUsd={options.lastPriceUsd ?? null} />
    </TestI18n>,
  );
  return screen.getByRole('region');
}

const side = (region: HTMLElement, name: 'bull' | 'bear') => {
  const item = region.querySelector(`[data-side="${name}"]`);
  if (!(item instanceof HTMLElement)) throw new Error(`no ${name} side`);
  return item.textContent;
};

describe('RoundCard', () => {
  test('A live round shows LIVE, its prize pool, both pools with their payout multipliers and the time to lock', () => {
    const region = show(
      'current',
      round({ totalUpWei: (3n * BNB).toString(), totalDownWei: BNB.toString(), upCount: 2, downCount: 1 }),
      START + 50,
    );
    expect(region.getAttribute('aria-label')).toBe('LIVE Round #2914632');
    expect(within(region).getByText('4.0000 BNB')).toBeVisible();
    expect(side(region, 'bull')).toBe('UP1.33x Payout3.0000 BNB2 bets');
    expect(side(region, 'bear')).toBe('DOWN4.00x Payout1.0000 BNB1 bet');
    expect(within(region).getByRole('timer').textContent).toBe('Betting closes in4:10');
  });

  test('Multipliers are 1.00 for the only side with bets and 0.00 for an empty side', () => {
    const region = show('current', round({ totalUpWei: (2n * BNB).toString(), upCount: 1 }), START + 10);
    expect(side(region, 'bull')).toContain('1.00x');
    expect(side(region, 'bear')).toContain('0.00x');
  });

  test('A locked round counts down to its result and shows the last price against the lock price', () => {
    const region = show('current', round({ status: 'locked', lockPrice: '600.12340000' }), START + 480, {
      lastPriceUsd: '601.00000000',
    });
    expect(within(region).getByRole('timer').textContent).toBe('Result in2:00');
    expect(within(region).getByText('$601.0000').className).toContain('text-yes');
    expect(within(region).getByText('+$0.8766 since lock')).toBeVisible();
    expect(within(region).getByText('$600.1234')).toBeVisible();
  });

  test('The next round counts down to its start', () => {
    const next = round({
      epoch: 2_914_633,
      status: 'upcoming',
      startTime: new Date((START + 600) * 1000).toISOString(),
    });
    const region = show('next', next, START + 530);
    expect(region.getAttribute('aria-label')).toBe('NEXT Round #2914633');
    expect(within(region).getByRole('timer').textContent).toBe('Starts in1:10');
  });

  test('An upcoming round shown as the current one is labelled NEXT, never LIVE', () => {
    const region = show('current', round({ status: 'upcoming' }), START - 90);
    expect(region.getAttribute('aria-label')).toBe('NEXT Round #2914632');
    expect(within(region).getByRole('timer').textContent).toBe('Starts in1:30');
  });

  test('A round whose lock has passed but is not locked yet is processing', () => {
    const region = show('current', round(), START + 301);
    expect(within(region).getByRole('timer').textContent).toBe('Processing...');
  });

  test('The last round shows who won, its lock and close prices and the winning payout', () => {
    const region = show(
      'previous',
      round({
        status: 'ended',
        result: 'bear',
        lockPrice: '600',
        closePrice: '599.5',
        totalUpWei: BNB.toString(),
        totalDownWei: BNB.toString(),
        upCount: 1,
        downCount: 1,
      }),
      START + 700,
    );
    expect(region.getAttribute('aria-label')).toBe('LAST Round #2914632');
    expect(within(region).getByText('BEAR WON')).toBeVisible();
    expect(within(region).getByText('$599.5000').className).toContain('text-no');
    expect(side(region, 'bear')).toContain('2.00x');
  });

  test('A draw and a cancelled round say that every stake is refunded', () => {
    show(
      'previous',
      round({ status: 'ended', result: 'draw', lockPrice: '600', closePrice: '600', totalUpWei: '1' }),
      0,
    );
    expect(screen.getByText('DRAW')).toBeVisible();
    expect(screen.getByText('Lock and close prices are equal: every stake is refunded.')).toBeVisible();
    cleanup();
    show('previous', round({ status: 'ended', result: 'cancelled', cancelReason: 'close_price_missing' }), 0);
    expect(screen.getByText('CANCELLED')).toBeVisible();
    expect(screen.getByText('No fresh oracle price at the close. Every stake is refunded.')).toBeVisible();
  });

  test('A round cancelled because the price feed stayed unreachable says so, in English and Chinese', () => {
    const cancelled = round({ status: 'ended', result: 'cancelled', cancelReason: 'price_feed_unreachable' });
    show('previous', cancelled, 0);
    expect(
      screen.getByText(
        'The price feed could not be reached to read the lock or close price. Every stake is refunded.',
      ),
    ).toBeVisible();
    cleanup();
    show('previous', cancelled, 0, { language: 'zh' });
    expect(screen.getByText('无法连接价格源读取锁定价或收盘价。 所有下注均已退还。')).toBeVisible();
  });

  test('Everything is in Chinese when Chinese is active', () => {
    const region = show('current', round({ totalUpWei: BNB.toString() }), START + 50, { language: 'zh' });
    expect(region.getAttribute('aria-label')).toBe('进行中 第 2914632 轮');
    expect(within(region).getByRole('timer').textContent).toBe('下注截止还剩4:10');
    expect(side(region, 'bull')).toContain('上涨');
  });
});

describe('PriceChart', () => {
  const points = [
    { usd: '600', at: '2025-06-01T12:00:00Z' },
    { usd: '601', at: '2025-06-01T12:00:30Z' },
    { usd: '599.25', at: '2025-06-01T12:01:00Z' },
  ];

  function chart(lockPrice: string | null, data = points, language: 'en' | 'zh' = 'en') {
    render(
      <TestI18n language={language}>
        <PriceChart points={data} round={round({ status: 'locked', lockPrice })} />
      </TestI18n>,
    );
  }

  test('The chart is a figure named by the last price and the lock price, sized before the library loads', () => {
    chart('600.5');
    const image = screen.getByRole('figure', {
      name: 'BNB/USD price over the last hour, now $599.25. Locked $600.50',
    });
    expect(image.getAttribute('data-testid')).toBe('price-chart');
    expect(image.style.height).toBe('176px');
  });

  test("The round's lock and close times are written below the chart, in the visitor's zone", () => {
    chart('600.5');
    const at = (seconds: number) =>
      new Intl.DateTimeFormat('en', { timeStyle: 'medium' }).format(seconds * 1000);
    expect(screen.getByTestId('round-times').textContent).toBe(
      `Round lock ${at(START + 300)} · close ${at(START + 600)} · Locked $600.50`,
    );
  });

  test('Before the lock the summary has no lock price; in Chinese it is in Chinese', () => {
    chart(null, points, 'zh');
    expect(screen.getByRole('figure').getAttribute('aria-label')).toBe(
      '过去一小时的 BNB/USD 价格，当前 US$599.25',
    );
  });

  test('A note instead of a chart until there are two points', () => {
    chart(null, points.slice(0, 1));
    expect(screen.getByText('The chart fills in as prices arrive.').tagName).toBe('P');
    expect(screen.queryByRole('figure')).toBeNull();
  });
});

import type { Locator, Page } from '@playwright/test';
import { parseEther } from 'viem';
import { createMarketViaApi, devAddress } from '../support/api.ts';
import { advanceChainTime, setAiVerdict } from '../support/chain.ts';
import { expect, test } from '../support/fixtures.ts';
import { createContestedMarket, setDevPrice, settleMarkets } from '../support/helpers.ts';

// The charts (lightweight-charts, lazy; decision 013) render with axes, and settled markets are
// browsable from /predictions. The charts draw on canvas: we check the container's accessible
// summary, that the library drew its canvases (plot, price axis, time axis) at a real size, and that
// the chart's chunk loaded only once a chart was shown.

/** The sizes of the canvases the library drew inside `chart` (plot, axes, their overlays). */
async function canvasSizes(chart: Locator) {
  await expect(chart.locator('canvas').first()).toBeAttached();
  return chart.locator('canvas').evaluateAll((canvases) =>
    canvases.map((canvas) => {
      const box = canvas.getBoundingClientRect();
      return { width: Math.round(box.width), height: Math.round(box.height) };
    }),
  );
}

/** The chart is drawn: a plot, a price scale on the right and a time scale below, all with area. */
async function expectDrawnWithAxes(chart: Locator) {
  await expect
    .poll(async () => (await canvasSizes(chart)).filter((size) => size.width > 0 && size.height > 0).length)
    .toBeGreaterThanOrEqual(3);
  const box = await chart.boundingBox();
  const sizes = await canvasSizes(chart);
  // The plot fills most of the width; the price axis is a narrow column; the time axis a short row.
  expect(sizes.some((size) => box && size.width > box.width * 0.6 && size.height > box.height * 0.6)).toBe(
    true,
  );
  expect(
    sizes.some(
      (size) => size.width > 20 && box && size.width < box.width * 0.4 && size.height > box.height * 0.6,
    ),
  ).toBe(true);
  expect(
    sizes.some((size) => box && size.width > box.width * 0.6 && size.height > 10 && size.height < 60),
  ).toBe(true);
}

function chartChunkRequests(page: Page) {
  const requested: string[] = [];
  page.on('request', (request) => {
    if (/time-chart-canvas|lightweight-charts/.test(request.url())) requested.push(request.url());
  });
  return requested;
}

test('The market page charts the YES share of the pool over time, with axes', async ({ page }) => {
  const market = await createContestedMarket({
    description: `Will the odds chart ${Date.now()} draw?`,
    yes: { from: devAddress(8), amountWei: parseEther('0.01') },
    no: { from: devAddress(9), amountWei: parseEther('0.03') },
  });

  const requested = chartChunkRequests(page);
  await page.goto('/predictions');
  const card = page.getByRole('article').filter({ hasText: market.title });
  // The card shows the current YES share, from the pools.
  await expect(card.getByTestId('yes-share')).toHaveText('25% YES');
  expect(requested, 'no chart code on the board').toEqual([]);

  await page.goto(`/market/${market.id}`);
  const chart = page.getByTestId('odds-chart');
  await expect(chart).toHaveRole('figure');
  await expect(chart).toHaveAccessibleName('YES share of the pool over time: 25% YES after 2 bets');
  await expectDrawnWithAxes(chart);
  expect(requested.length).toBeGreaterThan(0);
  await chart.screenshot({ path: 'test-results/odds-chart.png' });

  // In Chinese, the summary and the axes' times follow the language.
  await page.getByRole('button', { name: '中文' }).click();
  await expect(chart).toHaveAccessibleName('资金池中 YES 的占比走势：2 笔下注后 YES 占 25%');
});

test('The BNB/USD chart has a time axis, a price scale and the live round’s lock price', async ({ page }) => {
  test.setTimeout(120_000);
  // Two readings 30 s apart (chain time) make at least two points of history.
  await setDevPrice('600');
  await advanceChainTime(31);
  await setDevPrice('612.5');

  const requested = chartChunkRequests(page);
  await page.goto('/oracle-predictions');
  const chart = page.getByTestId('price-chart');
  await expect(chart).toHaveRole('figure', { timeout: 15_000 });
  await expect(chart).toHaveAccessibleName(/^BNB\/USD price over the last hour, now \$612\.50/);
  await expectDrawnWithAxes(chart);
  expect(requested.length).toBeGreaterThan(0);

  // Once the round locks, its lock price is drawn as a line and named in the summary. (The label,
  // not the accessible name: the round that ends meanwhile opens its result dialog, which hides the
  // page behind it from the accessibility tree.)
  await expect(chart).toHaveAttribute('aria-label', /Locked \$\d/, { timeout: 75_000 });
  await chart.screenshot({ path: 'test-results/price-chart.png' });
});

test('The Settled filter on /predictions lists settled markets with their verdict badge', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const title = `Settled e2e market ${Date.now()}`;
  const { market } = await createMarketViaApi({
    from: devAddress(8),
    description: title,
    title,
    prediction: 'YES',
    amountWei: parseEther('0.01'),
  });
  await setAiVerdict({ verdict: 'NO', confidence: 88, analysis: 'The e2e judge says NO.' });
  await settleMarkets([market.id]);

  await page.goto('/predictions');
  await expect(page.getByRole('article').filter({ hasText: title })).toHaveCount(0);
  const chip = page.getByRole('button', { name: 'Settled' });
  await chip.click();
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  const list = page.getByRole('list', { name: 'Settled markets' });
  const card = list.getByRole('article').filter({ hasText: title });
  await expect(card.getByTestId('verdict-badge')).toHaveText('NO');
  await expect(card).toContainText('AI verdict: NO (88% confidence)');
  await expect(card.getByRole('button', { name: 'Join Bet' })).toHaveCount(0);

  // Back to the open markets.
  await page.getByRole('button', { name: /All Markets/ }).click();
  await expect(list).toHaveCount(0);
});

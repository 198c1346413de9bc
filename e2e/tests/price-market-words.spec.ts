import type { Page } from '@playwright/test';
import { parseEther } from 'viem';
import { createPriceMarketViaApi, eventually, getMarket } from '../support/api.ts';
import { advanceChainTime, freshAccount } from '../support/chain.ts';
import { expect, test } from '../support/fixtures.ts';
import { setDevPrice } from '../support/helpers.ts';

// A settled price market's page on a phone reads as a person reads, in both languages:
// its title, rule, analysis and timeline said from its fields with Intl's number and date formats
// (no ISO time, no unformatted price), nothing English left on the Chinese page, and its chart
// ending on its own coin's settlement reading, not on BNB's price.

const PHONE = { width: 360, height: 740 };
/** A reading with all 8 decimals, as a feed gives it. */
const READING = '95019.35070519';

test.use({ viewport: PHONE });

let marketId = 0;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await setDevPrice(READING, 'BTC');
  await setDevPrice('599.00', 'BNB');
  const { market } = await createPriceMarketViaApi({
    from: await freshAccount(),
    targetSymbol: 'BTC',
    comparisonType: 'above',
    targetPrice: '1',
    duration: 'hourly',
    prediction: 'YES',
    amountWei: parseEther('0.01'),
  });
  marketId = market.id;
  await advanceChainTime(3601);
  const settled = await eventually(async () => {
    const detail = await getMarket(marketId);
    return detail.market.status === 'settled' ? detail.market : null;
  }, 60_000);
  expect(settled).toMatchObject({ result: 'YES', settlementPrice: READING });
});

/** What a person reads in the page's main part (the settled banner, title, rule, chart, timeline). */
async function mainText(page: Page): Promise<string> {
  return page.getByRole('main').innerText();
}

function expectNoMachineText(text: string) {
  // An ISO date or time, as the server stores it.
  expect(text).not.toMatch(/\d{4}-\d\d-\d\d/);
  expect(text).not.toMatch(/\d\d:\d\d:\d\d\.\d{3}Z/);
  // A price as the wire writes it: no grouping, all decimals.
  expect(text).not.toContain(READING);
  expect(text).not.toMatch(/\d{5,}\.\d/);
  expect(text).not.toContain('1.00 USD');
  expect(text).not.toContain('price-feed');
}

test('A settled BTC price market reads in English at 360 px, and its chart ends on the settlement reading', async ({
  page,
}) => {
  await page.goto(`/market/${marketId}`);
  const analysis = page.getByTestId('market-analysis');
  await expect(analysis).toHaveText(
    /^The BTC\/USD feed read \$95,019\.3507 at .+, above the target \$1\.00: YES\.$/,
    { timeout: 15_000 },
  );
  await expect(page.getByRole('heading', { level: 2, name: /BTC/ })).toHaveText(
    /^Will BTC be above \$1\.00 at .+\?$/,
  );
  await expect(page.getByTestId('market-description')).toContainText('strictly above $1.00');
  await expect(page.getByRole('region', { name: 'Resolution timeline' })).toContainText(
    'Settled YES by the price feed',
  );
  await expect(page.getByTestId('market-price-chart')).toHaveAttribute(
    'aria-label',
    'BTC price chart: settled at $95,019.3507, target $1.00',
  );
  expectNoMachineText(await mainText(page));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

test('The same page in Chinese has no English sentence left', async ({ page }) => {
  await page.goto(`/market/${marketId}`);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('market-analysis')).toHaveText(
    /^BTC\/USD 喂价于 .+ 读数为 US\$95,019\.3507，高于目标价 US\$1\.00：YES。$/,
    { timeout: 15_000 },
  );
  await expect(page.getByRole('heading', { level: 2, name: /BTC/ })).toHaveText(
    /^BTC 在 .+ 时会高于 US\$1\.00 吗？$/,
  );
  await expect(page.getByRole('region', { name: '裁决时间线' })).toContainText('由 价格喂价 结算为 YES');
  await expect(page.getByTestId('market-price-chart')).toHaveAttribute(
    'aria-label',
    'BTC 价格图：结算于 US$95,019.3507，目标 US$1.00',
  );
  const text = await mainText(page);
  expectNoMachineText(text);
  // No run of three English words: names (BTC/USD, YES, the feed "simulated") stand alone.
  expect(text.match(/[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){2,}/g) ?? []).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

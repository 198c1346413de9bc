import AxeBuilder from '@axe-core/playwright';
import { parseEther } from 'viem';
import { eventually, getMarket, joinMarketViaApi } from '../support/api.ts';
import { advanceChainTime, balanceOf, freshAccount } from '../support/chain.ts';
import { openMarketClaim } from '../support/escrow.ts';
import { expect, test } from '../support/fixtures.ts';
import { openWithWallet, setDevPrice } from '../support/helpers.ts';

// Price markets end to end (decision 020): a Price Oracle market created in the browser with the test wallet (a real
// payment on the local chain), found on the board with the Price filter, its price chart on its
// page, settled by the (simulated) feed once chain time passes the deadline, read and claimed in
// Chinese, the claim's balance change checked to the wei.

test('A price market is created, listed under Price, charted, settled by the feed and claimed, in English and Chinese', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // Accounts of their own: this spec's wins and claims touch no other spec's figures.
  const creator = await freshAccount();
  const joiner = await freshAccount();
  await setDevPrice('50000.00', 'BTC');

  const page = await openWithWallet(browser, creator, '/predictions');
  await page.getByRole('button', { name: 'Create Bet' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create Prediction Market' });
  await form.getByText('Price Oracle', { exact: true }).click();
  await expect(form.getByRole('radio', { name: 'BTC' })).toBeChecked();
  await expect(form.getByTestId('coin-price')).toContainText('$50,000.0000', { timeout: 15_000 });
  await form.getByText('Above', { exact: true }).click();
  await form.getByLabel('Target price (USD)').fill('50500');
  await expect(form.getByTestId('target-gap')).toHaveText('Target is +1.00% from the current price');
  // The title is said from the terms, the deadline in the reader's date format.
  await expect(form.getByTestId('title-preview')).toHaveText(
    /^Will BTC be above \$50,500\.00 at [A-Z][a-z]{2} .+\?$/,
  );
  await form.getByText('YES', { exact: true }).click();
  await form.getByLabel('Amount (BNB)').fill('0.01');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  const payment = page.getByRole('dialog', { name: 'Send Payment to Vault' });
  await payment.getByRole('button', { name: 'Send Payment' }).click();
  await expect(page.getByText('Market created successfully!')).toBeVisible({ timeout: 20_000 });

  // The Price chip lists it, with its coin, target, live price and gap.
  await page.getByRole('button', { name: 'Price', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Price', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const card = page.getByRole('article').filter({ hasText: 'BTC above $50,500.00' }).first();
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByTestId('card-gap')).toHaveText('+1.00%');
  await card.getByRole('link').click();
  await expect(page).toHaveURL(/\/market\/\d+$/);
  const marketId = Number(page.url().split('/').pop());
  const { market } = await getMarket(marketId);
  expect(market).toMatchObject({
    betType: 'price_prediction',
    targetSymbol: 'BTC',
    targetPrice: expect.stringMatching(/^50500(\.0+)?$/),
    comparisonType: 'above',
  });

  // Someone takes the other side; the page shows the badge, the chart and the feed's rule.
  await joinMarketViaApi({ marketId, from: joiner, prediction: 'NO', amountWei: parseEther('0.02') });
  await expect(page.getByText('Price Oracle', { exact: true }).first()).toBeVisible();
  const chart = page.getByTestId('market-price-chart');
  await expect(chart).toHaveAttribute(
    'aria-label',
    /BTC price chart: now \$50,000\.0000, target \$50,500\.00/,
    {
      timeout: 30_000,
    },
  );
  await expect(chart.locator('canvas').first()).toBeAttached();
  await expect(page.getByTestId('settlement')).toContainText('strictly above $50,500.00');
  await expect(page.getByRole('region', { name: 'How resolution works' })).toContainText(
    'the price feed decides',
  );

  // The deadline passes with BTC above the target: the feed settles it YES.
  await setDevPrice('51000.00', 'BTC');
  await advanceChainTime(3601);
  const settled = await eventually(async () => {
    const detail = await getMarket(marketId);
    return detail.market.status === 'settled' ? detail.market : null;
  }, 60_000);
  expect(settled).toMatchObject({ result: 'YES', settlementPrice: expect.stringMatching(/^51000(\.0+)?$/) });

  // In Chinese: the settled page, the reading, then My Bets and the claim.
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.getByText('已结算：YES')).toBeVisible({ timeout: 15_000 });
  const settlement = page.getByTestId('settlement');
  await expect(settlement).toContainText('结算读数');
  await expect(settlement.getByTestId('settlement-price')).toHaveText('US$51,000.0000');
  await expect(page.getByText('价格预言机', { exact: true }).first()).toBeVisible();

  await page.getByRole('button', { name: /^钱包 0x/ }).click();
  await page.getByRole('menuitem', { name: '我的下注' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '我的下注' })).toBeVisible();
  const row = page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ hasText: /BTC 在 .+ 时会高于 US\$50,500\.00 吗？/ });
  // The escrow pays once the settlement's delay (the contract's minimum) has passed on the chain's clock.
  await openMarketClaim(creator, marketId);
  const before = await balanceOf(creator);
  await row.getByRole('button', { name: '领取奖金' }).click();
  await expect(page.getByText(/已成功从 1 笔获胜下注中领取 0\.0300 BNB！/)).toBeVisible({ timeout: 20_000 });
  expect((await balanceOf(creator)) - before).toBe(parseEther('0.03'));

  await page.context().close();
});

test.describe('at 360 px, in Chinese', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('The Price Oracle form fits a phone, works from the keyboard and has no serious accessibility violation', async ({
    browser,
  }) => {
    // axe on a loaded machine takes its time.
    test.setTimeout(90_000);
    const account = await freshAccount();
    const page = await openWithWallet(browser, account, '/predictions');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('button', { name: '中文' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await page.getByRole('button', { name: '创建预测' }).first().click();
    const form = page.getByRole('dialog');
    await form.getByText('价格预言机', { exact: true }).click();
    // The coins are one radio group: arrow keys move between them.
    await form.getByRole('radio', { name: 'BTC' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(form.getByRole('radio', { name: 'ETH' })).toBeChecked();
    await expect(form.getByTestId('coin-price')).toContainText('ETH');
    await form.getByLabel('目标价格（美元）').fill('1.234');
    await expect(form.getByText('目标价格必须是正的美元金额，最多 2 位小数。')).toBeVisible();
    await form.getByLabel('目标价格（美元）').fill('4000');
    await expect(form.getByTestId('title-preview')).toHaveText(
      /^ETH 在 \d{4}年\d{1,2}月\d{1,2}日 .+ 时会高于 US\$4,000\.00 吗？$/,
    );

    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    const results = await new AxeBuilder({ page })
      .include('[role="dialog"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const blocking = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
    expect(blocking).toEqual([]);
    await page.context().close();
  });
});

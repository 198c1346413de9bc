import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { type SolvencyResponse, SolvencyResponseSchema } from '@pm/core/contract/solvency';
import { createPublicClient, http } from 'viem';
import { expect, rpcUrl, test } from '../support/fixtures.ts';

test('The landing top bar shows only the logo, no wallet button', async ({ page }) => {
  await page.goto('/');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link')).toHaveCount(1);
  await expect(banner.getByRole('button')).toHaveCount(0);
});

test('The landing page loads no wallet code; the app pages do', async ({ page }) => {
  let scripts: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script' && response.ok()) scripts.push(response.text());
  });
  // Markers of wallet code: wagmi's stored connection key, viem's version in its error messages.
  const walletScripts = async () => {
    await page.waitForLoadState('networkidle');
    const bodies = await Promise.all(scripts);
    expect(bodies.length).toBeGreaterThan(0);
    return bodies.filter((body) => body.includes('recentConnectorId') || body.includes('viem@')).length;
  };

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await walletScripts()).toBe(0);

  scripts = [];
  await page.goto('/predictions');
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible();
  expect(await walletScripts()).toBeGreaterThan(0);
});

test('Follow us on X opens x.com in a new tab without an opener', async ({ page }) => {
  await page.goto('/');
  const link = page.getByRole('link', { name: /Follow us on X/ });
  await expect(link).toHaveAttribute('href', 'https://x.com');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
});

test('Each app card is live, in DeFi, and links to its app', async ({ page }) => {
  await page.goto('/');
  for (const [name, href] of [
    ['Predictions', '/predictions'],
    ['Oracle Predictions', '/oracle-predictions'],
  ] as const) {
    const card = page.getByRole('article').filter({ has: page.getByRole('link', { name, exact: true }) });
    await expect(card.getByText('Live', { exact: true })).toBeVisible();
    await expect(card.getByText('DeFi • Live')).toBeVisible();
    await expect(card.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await page.getByRole('link', { name: 'Oracle Predictions', exact: true }).click();
  await expect(page).toHaveURL(/\/oracle-predictions$/);
});

test('The info tooltip opens after the 700 ms delay, not before', async ({ page }) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: 'About Predictions' });
  // Timed in the page itself: on a busy machine the test's own round trips can take longer than the
  // delay, so "not open after 400 ms of test time" said nothing about the page.
  await button.evaluate((element) => {
    const times = { enter: 0, open: 0 };
    Object.assign(window, { tooltipTimes: times });
    element.addEventListener('pointerenter', () => {
      times.enter ||= performance.now();
    });
    new MutationObserver(() => {
      if (!times.open && document.querySelector('[role="tooltip"]:not([hidden])'))
        times.open = performance.now();
    }).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  await button.hover();
  await expect(page.getByRole('tooltip')).toContainText('AI model judges the outcome');
  const { enter, open } = await page.evaluate(
    () => (window as unknown as { tooltipTimes: { enter: number; open: number } }).tooltipTimes,
  );
  expect(enter).toBeGreaterThan(0);
  expect(open - enter).toBeGreaterThanOrEqual(690);
});

test('The info tooltip opens at once on keyboard focus and closes with Escape', async ({ page }) => {
  await page.goto('/');
  const info = page.getByRole('button', { name: 'About Predictions' });
  await info.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(info).toBeFocused();
  await expect(page.getByRole('tooltip')).toContainText('AI model judges the outcome');
  await expect(info).toHaveAccessibleDescription(/AI model judges the outcome/);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await expect(info).toBeFocused();
});

test('The background has 50 particles that move, and stop while the tab is hidden', async ({ page }) => {
  await page.goto('/');
  const field = page.getByTestId('particle-field');
  await expect(field).toHaveAttribute('data-particles', '50');
  await expect(field).toHaveAttribute('data-animating', 'true');
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(field).toHaveAttribute('data-animating', 'false');
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('The particles stand still', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('particle-field')).toHaveAttribute('data-animating', 'false');
  });
});

test('Headline letters change colour near the pointer', async ({ page }) => {
  await page.goto('/');
  const letter = page.locator('[data-letter]').first();
  const box = await letter.boundingBox();
  if (!box) throw new Error('The headline has no letters on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(letter).toHaveAttribute('style', /color-mix/);
  await page.mouse.move(5, 5);
  await expect(letter).not.toHaveAttribute('style', /color-mix/);
});

// The vault card (docs/architecture.md "Proof of reserves"), "Reserves X BNB ≥ owed Y BNB at block N", from GET /api/solvency.

/** wei as the page shows it in English: grouped, 4 decimals rounded toward zero, with the unit. */
function bnb(wei: string): string {
  const value = BigInt(wei);
  const fraction = ((value % 10n ** 18n) / 10n ** 14n).toString().padStart(4, '0');
  return `${(value / 10n ** 18n).toLocaleString('en-US')}.${fraction} BNB`;
}

/** The landing page, scrolled to the vault card (its figures load once it is in view). */
async function reservesCard(page: Page) {
  const card = page.getByRole('region', { name: 'Vault reserves' });
  await card.scrollIntoViewIfNeeded();
  return card;
}

test("The vault card shows the escrow contract's balance at a block against what it owes", async ({
  page,
}) => {
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/solvency'));
  await page.goto('/');
  const card = await reservesCard(page);
  const body = SolvencyResponseSchema.parse(await (await answered).json());
  expect(body.covered).toBe(true);
  await expect(card.getByTestId('reserves-line')).toHaveText(
    `Reserves ${bnb(body.balanceWei)} ≥ owed ${bnb(body.liabilitiesWei)} at block ${body.blockNumber}`,
  );
  await expect(card.getByText('Fully reserved')).toBeVisible();
  // What the page shows is the escrow contract's balance at that block.
  const chain = createPublicClient({ transport: http(rpcUrl()) });
  const balance = await chain.getBalance({
    address: body.escrowAddress as `0x${string}`,
    blockNumber: BigInt(body.blockNumber),
  });
  expect(body.balanceWei).toBe(balance.toString());
  await expect(card.getByRole('link', { name: /See the figures/ })).toHaveAttribute('href', '/api/solvency');
});

test('Below the fold, the reserves are read only once the card scrolls into view', async ({ page }) => {
  const reads: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/solvency')) reads.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(reads).toEqual([]);
  const card = await reservesCard(page);
  await expect(card.getByTestId('reserves-line')).toBeVisible();
  expect(reads).toHaveLength(1);
});

const SHORT: SolvencyResponse = {
  escrowAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  blockNumber: '42',
  balanceWei: '1000000000000000000',
  liabilitiesWei: '3250000000000000000',
  excessWei: '0',
  reserveRatioBps: '3076',
  covered: false,
  shortfallWei: '2250000000000000000',
  checkedAt: '2026-11-25T12:00:00.000Z',
};

test('A short vault turns the line red with <, and says so in words', async ({ page }) => {
  // The shared e2e chain's vault is never short: this state is the answer of a short vault.
  await page.route('**/api/solvency', (route) => route.fulfill({ json: SHORT }));
  await page.goto('/');
  const card = await reservesCard(page);
  const line = card.getByTestId('reserves-line');
  await expect(line).toHaveText('Reserves 1.0000 BNB < owed 3.2500 BNB at block 42');
  await expect(card.getByText('Under-reserved: short by 2.2500 BNB')).toBeVisible();
  const heading = card.getByRole('heading', { name: 'Vault reserves' });
  const [lineColour, textColour] = await Promise.all([
    line.evaluate((element) => getComputedStyle(element).color),
    heading.evaluate((element) => getComputedStyle(element).color),
  ]);
  expect(lineColour).not.toBe(textColour);
  // Red on the card still reads (contrast), and the card has no other accessibility violation.
  const results = await new AxeBuilder({ page })
    .include('section[aria-labelledby="reserves-title"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
});

test('The reserves read failing says so, and Try again reads them again', async ({ page }) => {
  let fail = true;
  await page.route('**/api/solvency', (route) =>
    fail
      ? route.fulfill({ status: 503, json: { error: { code: 'CHAIN_UNAVAILABLE', message: 'down' } } })
      : route.continue(),
  );
  await page.goto('/');
  const card = await reservesCard(page);
  await expect(card.getByText('The reserves could not be checked right now.')).toBeVisible();
  fail = false;
  await card.getByRole('button', { name: 'Try again' }).click();
  await expect(card.getByTestId('reserves-line')).toHaveText(
    /^Reserves [\d,]+\.\d{4} BNB ≥ owed [\d,]+\.\d{4} BNB at block \d+$/,
  );
});

test('In Chinese, and on a 360 px phone without scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.route('**/api/solvency', (route) => route.fulfill({ json: SHORT }));
  await page.goto('/predictions');
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('link', { name: 'BNB 预测' }).first().click();
  const card = page.getByRole('region', { name: '金库储备' });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByTestId('reserves-line')).toHaveText(
    '储备 1.0000 BNB < 应付 3.2500 BNB，截至区块 42',
  );
  await expect(card.getByText('储备不足：差额 2.2500 BNB')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

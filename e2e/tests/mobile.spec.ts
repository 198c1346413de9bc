import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { parseEther } from 'viem';
import { createMarketViaApi, devAddress } from '../support/api.ts';
import { expect, rpcUrl, test } from '../support/fixtures.ts';
import { installTestWallet } from '../support/test-wallet.ts';

// A 360 px phone never scrolls sideways, on any route, in either
// language, with a wallet connected or not, and with the create, join and payment dialogs open.
// MOBILE_SCREENSHOTS=1 also saves each screen to test-results/mobile/ to look at by eye.

const PHONE = { width: 360, height: 740 };
const PLAYER = devAddress(13);
const ROUTES = [
  '/',
  '/predictions',
  '/oracle-predictions',
  '/market/{id}',
  '/my-bets',
  '/leaderboard',
  '/no-such-page',
];

test.use({ viewport: PHONE, hasTouch: true });

let marketId = 0;

test.beforeAll(async () => {
  const created = await createMarketViaApi({
    from: PLAYER,
    description:
      'Will a phone with a 360 px wide screen show this whole market page without scrolling sideways?',
    prediction: 'YES',
    amountWei: parseEther('1234.5678'),
  });
  marketId = created.market.id;
});

const pathOf = (route: string) => route.replace('{id}', String(marketId));

/** Moves inside the app (a reload would forget the in-memory language and the test wallet's connection). */
async function navigate(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

async function settled(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('main').getByText(/Loading|加载中/)).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Fails with the offending elements named when the page is wider than the phone. */
async function expectNoSidewaysScroll(page: Page, name: string) {
  const widths = await page.evaluate(() => {
    const limit = window.innerWidth;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
      .filter((element) => {
        // Inside a row that scrolls or clips by itself, a wide child does not widen the page.
        for (
          let parent = element.parentElement;
          parent && parent !== document.body;
          parent = parent.parentElement
        ) {
          if (getComputedStyle(parent).overflowX !== 'visible') return false;
        }
        return true;
      })
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 120));
    return {
      document: document.documentElement.scrollWidth,
      body: document.body.scrollWidth,
      wide,
    };
  });
  if (process.env.MOBILE_SCREENSHOTS) {
    mkdirSync('test-results/mobile', { recursive: true });
    await page.screenshot({ path: `test-results/mobile/${name}.png`, fullPage: true });
  }
  expect
    .soft(widths.document, `${name}: the page is wider than the phone (${widths.wide.join(', ')})`)
    .toBeLessThanOrEqual(PHONE.width);
  expect.soft(widths.body, `${name}: the body is wider than the phone`).toBeLessThanOrEqual(PHONE.width);
  expect.soft(await clippedInDialogs(page), `${name}: content cut off at a dialog's edge`).toEqual([]);
  expect.soft(await smallTapTargets(page), `${name}: controls smaller than a fingertip`).toEqual([]);
}

/**
 * A dialog clips what sticks out of it, so the page does not widen but the user loses it (an amount
 * cut in half, a copy button gone): anything reaching past its dialog's right edge, unless a row
 * inside the dialog scrolls or truncates it on purpose.
 */
async function clippedInDialogs(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[role="dialog"] *')]
      .filter((element) => {
        const dialog = element.closest('[role="dialog"]');
        if (!dialog || !element.checkVisibility()) return false;
        if (element.getBoundingClientRect().right <= dialog.getBoundingClientRect().right + 0.5) return false;
        for (let parent = element.parentElement; parent && parent !== dialog; parent = parent.parentElement) {
          if (getComputedStyle(parent).overflowX !== 'visible') return false;
        }
        return true;
      })
      .slice(0, 5)
      .map(
        (element) => `${element.tagName.toLowerCase()} "${element.textContent?.trim().slice(0, 30) ?? ''}"`,
      ),
  );
}

/** Buttons and form controls under 40 px in either direction (links in running text are exempt). */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        'button, select, input, textarea, [role="button"], [role="menuitem"]',
      ),
    ]
      .filter((element) => element.checkVisibility() && !element.closest('[aria-hidden="true"]'))
      .filter((element) => {
        // A radio or checkbox counts by its label, which is what a finger presses.
        const target =
          element instanceof HTMLInputElement && (element.type === 'radio' || element.type === 'checkbox')
            ? (element.labels?.[0] ?? null)
            : element;
        if (!target) return false;
        const box = target.getBoundingClientRect();
        return box.height < 40 || box.width < 40;
      })
      .map((element) => {
        const measured = (element instanceof HTMLInputElement && element.labels?.[0]) || element;
        const { width, height } = measured.getBoundingClientRect();
        const label = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30) ?? '';
        return `${element.tagName.toLowerCase()} "${label}" ${Math.round(width)}×${Math.round(height)}`;
      }),
  );
}

async function visitEveryRoute(page: Page, label: string, connected: boolean) {
  for (const route of ROUTES) {
    // Without a wallet /my-bets sends the user to /predictions, which the loop checks anyway.
    if (route === '/my-bets' && !connected) continue;
    await navigate(page, pathOf(route));
    await settled(page);
    await expectNoSidewaysScroll(page, `${label}${route.replace(/[/{}]+/g, '-') || '-home'}`);
  }
}

async function switchToChinese(page: Page) {
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
}

async function connect(page: Page, buttonName: RegExp) {
  await page.getByRole('button', { name: buttonName }).first().click();
  await expect(page.getByRole('button', { name: /^(Wallet|钱包) 0x/ })).toBeVisible();
}

async function closeDialog(page: Page, dialog: Locator) {
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}

for (const language of ['en', 'zh'] as const) {
  test(`Every route fits a 360 px phone without a wallet (${language})`, async ({ page }) => {
    await page.goto('/predictions');
    if (language === 'zh') await switchToChinese(page);
    await visitEveryRoute(page, `${language}-guest`, false);
  });

  test(`Every route and dialog fits a 360 px phone with a wallet connected (${language})`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await installTestWallet(page, { account: PLAYER, rpcUrl: rpcUrl() });
    await page.goto('/predictions');
    if (language === 'zh') await switchToChinese(page);
    await connect(page, language === 'en' ? /Connect Wallet/ : /连接钱包/);
    await visitEveryRoute(page, `${language}-wallet`, true);

    await navigate(page, '/predictions');
    await settled(page);
    await page
      .getByRole('button', { name: language === 'en' ? 'Create Bet' : '创建预测' })
      .first()
      .click();
    const create = page.getByRole('dialog');
    await expect(create).toBeVisible();
    await expectNoSidewaysScroll(page, `${language}-dialog-create`);
    await closeDialog(page, create);

    await navigate(page, pathOf('/market/{id}'));
    await settled(page);
    await page
      .getByRole('button', { name: language === 'en' ? 'Join Bet · YES' : '参与下注 · YES' })
      .first()
      .click();
    const join = page.getByRole('dialog');
    await expect(join).toBeVisible();
    await expectNoSidewaysScroll(page, `${language}-dialog-join`);
    await join.getByText('YES', { exact: true }).click();
    await join.getByLabel(language === 'en' ? 'Amount (BNB)' : '金额（BNB）').fill('0.01');
    await join
      .getByRole('button', { name: language === 'en' ? 'Join Bet' : '参与下注', exact: true })
      .click();
    const payment = page.getByRole('dialog', {
      name: language === 'en' ? 'Send Payment to Vault' : '向金库付款',
    });
    await expect(payment).toBeVisible();
    await expectNoSidewaysScroll(page, `${language}-dialog-payment`);
    await closeDialog(page, payment);
  });
}

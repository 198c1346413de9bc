import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';

type Tree = { [key: string]: string | Tree };

function strings(tree: Tree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : strings(value)));
}

function load(language: 'en' | 'zh'): Tree {
  return JSON.parse(
    readFileSync(new URL(`../../apps/web/src/i18n/${language}.json`, import.meta.url), 'utf8'),
  );
}

const english = strings(load('en'));
const chinese = new Set(strings(load('zh')));
// Whole messages that exist only in English (not '404', not 'DeFi • …' pieces shared by both).
const englishOnly = english.filter(
  (text) => !chinese.has(text) && !text.includes('{{') && /[a-z]{3}/i.test(text),
);

/** English messages still in the page, screen-reader-only text included, or none. */
async function englishLeftOn(page: Page): Promise<string[]> {
  const text = (await page.locator('body').textContent()) ?? '';
  return englishOnly.filter((message) => text.includes(message));
}

const APP_ROUTES = [
  '/predictions',
  '/oracle-predictions',
  '/market/1',
  '/my-bets',
  '/leaderboard',
  '/no-such-page',
];

test('The language toggle switches every route to Chinese and back, and sets <html lang>', async ({
  page,
}) => {
  await page.goto('/predictions');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('button', { name: 'English' })).toBeVisible();

  // The language is held in memory (docs/product.md §4): move between routes inside the app, no reloads.
  for (const route of APP_ROUTES) {
    await page.evaluate((path) => {
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, route);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('main').getByText('Loading')).toHaveCount(0);
    expect(await englishLeftOn(page), `English left on ${route}`).toEqual([]);
  }

  await page.getByRole('link', { name: 'BNB 预测' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: '随时随地，预测一切。' })).toBeVisible();
  expect(await englishLeftOn(page), 'English left on /').toEqual([]);

  await page.goto('/predictions');
  await expect(page.getByRole('button', { name: '中文' })).toBeVisible();
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Live Bet Markets' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('A reload starts in English again (the language is held in memory only)', async ({ page }) => {
  await page.goto('/predictions');
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '实时预测市场' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Live Bet Markets' })).toBeVisible();
});

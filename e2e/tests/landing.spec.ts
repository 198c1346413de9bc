import { expect, test } from '../support/fixtures.ts';

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
      if (!times.open && document.querySelector('[role="tooltip"]')) times.open = performance.now();
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

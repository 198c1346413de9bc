import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../support/fixtures.ts';

const ROUTES = [
  { path: '/', name: 'landing' },
  { path: '/predictions', name: 'predictions' },
  { path: '/oracle-predictions', name: 'oracle-predictions' },
  { path: '/market/1', name: 'market' },
  { path: '/my-bets', name: 'my-bets' },
  { path: '/leaderboard', name: 'leaderboard' },
  // A public profile (a demo player's P&L and history, or the empty state).
  { path: '/u/0x70997970C51812dc3A010C7d01b50e0d17dc79C8', name: 'profile' },
  { path: '/no-such-page', name: 'not-found' },
];

// A 360 px screenshot of every route, kept as a run artifact (e2e/artifacts is ignored by git).
const SCREENSHOT_DIR = new URL('../artifacts/screenshots/', import.meta.url);

for (const width of [360, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 360 ? 740 : 800 } });

    for (const route of ROUTES) {
      test(`${route.path} has no serious or critical accessibility violation`, async ({ page }, testInfo) => {
        await page.goto(route.path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        const results = await new AxeBuilder({ page })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
          .analyze();
        const blocking = results.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map(
            (violation) =>
              `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
          );
        expect(blocking).toEqual([]);

        if (width === 360) {
          mkdirSync(SCREENSHOT_DIR, { recursive: true });
          const path = new URL(`${route.name}-360.png`, SCREENSHOT_DIR).pathname;
          await page.screenshot({ path, fullPage: true });
          await testInfo.attach(`${route.name}-360`, { path, contentType: 'image/png' });
        }
      });
    }
  });
}

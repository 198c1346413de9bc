import { expect, test } from '../support/fixtures.ts';

test('An unknown route shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Predict anything, anywhere.' })).toBeVisible();
});

test('A page that fails to load shows the application error page', async ({ page }) => {
  // A route chunk that cannot be fetched (a deploy removed it, the network dropped) fails to render.
  await page.route(/\/assets\/leaderboard-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/leaderboard');
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
});

test('The leaderboard shows its table or its empty state from the API', async ({ page }) => {
  await page.goto('/leaderboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeVisible();
  await expect(page.getByText('Daily prizes: Coming Soon')).toBeVisible();
  await expect(page.getByRole('table').or(page.getByText('No winners yet. Be the first!'))).toBeVisible();
});

test('The leaderboard says so when the API fails, and can try again', async ({ page }) => {
  await page.route('**/api/leaderboard?*', (route) =>
    route.fulfill({ status: 503, json: { error: { code: 'CHAIN_UNAVAILABLE', message: 'down' } } }),
  );
  await page.goto('/leaderboard');
  await expect(page.getByRole('alert')).toContainText('Failed to load leaderboard');
  await page.unroute('**/api/leaderboard?*');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('An empty leaderboard invites the user to be the first', async ({ page }) => {
  await page.route('**/api/leaderboard?*', (route) => route.fulfill({ json: { entries: [] } }));
  await page.goto('/leaderboard');
  await expect(page.getByText('No winners yet. Be the first!')).toBeVisible();
});

test('Back on a leaderboard opened from a shared link goes to the home page', async ({ page }) => {
  await page.goto('/leaderboard');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Predict anything, anywhere.' })).toBeVisible();
});

import { createPublicClient, http } from 'viem';
import { expect, rpcUrl, test } from '../support/fixtures.ts';
import { DEV_ACCOUNTS, installTestWallet } from '../support/test-wallet.ts';

test('The landing page shows its headline and the two app cards', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Predict anything, anywhere.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Predictions', exact: true })).toHaveAttribute(
    'href',
    '/predictions',
  );
  await expect(page.getByRole('link', { name: 'Oracle Predictions', exact: true })).toHaveAttribute(
    'href',
    '/oracle-predictions',
  );
  await expect(page.getByRole('heading', { name: 'More Apps Coming Soon' })).toBeVisible();
});

test('The predictions page renders with the shared top bar', async ({ page }) => {
  await page.goto('/predictions');
  await expect(page.getByRole('heading', { level: 1, name: 'Live Bet Markets' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible();
});

test('The test wallet connects through wagmi and the top bar shows the shortened address', async ({
  page,
}) => {
  await installTestWallet(page, { account: DEV_ACCOUNTS.player1, rpcUrl: rpcUrl() });
  await page.goto('/predictions');
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await expect(page.getByRole('button', { name: 'Wallet 0x7099...79C8' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('0x7099...79C8');
});

test('The dev chain mines a block every 2 s while nobody transacts, as BSC does', async () => {
  const client = createPublicClient({ transport: http(rpcUrl()) });
  const first = await client.getBlockNumber({ cacheTime: 0 });
  await new Promise((resolve) => setTimeout(resolve, 6_500));
  const second = await client.getBlockNumber({ cacheTime: 0 });
  // Three intervals pass in 6.5 s; at least two blocks leave room for a slow machine.
  expect(second - first).toBeGreaterThanOrEqual(2n);
});

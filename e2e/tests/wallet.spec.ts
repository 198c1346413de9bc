import type { Page } from '@playwright/test';
import { expect, rpcUrl, test } from '../support/fixtures.ts';
import { DEV_ACCOUNTS, installTestWallet, testWallet } from '../support/test-wallet.ts';

const SHORT_PLAYER_1 = '0x7099...79C8';

test.beforeEach(async ({ page }) => {
  await installTestWallet(page, { account: DEV_ACCOUNTS.player1, rpcUrl: rpcUrl() });
});

async function connect(page: Page) {
  await page.goto('/predictions');
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await expect(page.getByRole('button', { name: `Wallet ${SHORT_PLAYER_1}` })).toBeVisible();
}

test('Wallet Info shows the address, the network name and the balance with 4 decimals', async ({
  page,
  request,
}) => {
  const config: { chainName: string } = await (await request.get('/api/config')).json();
  await connect(page);
  await page.getByRole('button', { name: `Wallet ${SHORT_PLAYER_1}` }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('Wallet Info')).toBeVisible();
  await expect(menu).toContainText(SHORT_PLAYER_1);
  await expect(menu).toContainText(config.chainName);
  await expect(menu.getByTestId('wallet-balance')).toHaveText(/^\d{1,3}(,\d{3})*\.\d{4} BNB$/);
});

test('Copy Address puts the full address on the clipboard and says so', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await connect(page);
  await page.getByRole('button', { name: `Wallet ${SHORT_PLAYER_1}` }).click();
  await page.getByRole('menuitem', { name: 'Copy Address' }).click();
  await expect(page.getByText('Address copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(DEV_ACCOUNTS.player1);
});

test('View on Explorer links to the address page in a new tab without an opener', async ({ page }) => {
  await connect(page);
  await page.getByRole('button', { name: `Wallet ${SHORT_PLAYER_1}` }).click();
  const link = page.getByRole('menuitem', { name: 'View on Explorer' });
  await expect(link).toHaveAttribute('href', new RegExp(`/address/${DEV_ACCOUNTS.player1}$`));
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
});

test('Disconnect returns the top bar to Connect Wallet', async ({ page }) => {
  await connect(page);
  await page.getByRole('button', { name: `Wallet ${SHORT_PLAYER_1}` }).click();
  await page.getByRole('menuitem', { name: 'Disconnect' }).click();
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible();
});

test('A wallet on another chain shows Wrong Network, and clicking it disconnects', async ({ page }) => {
  await connect(page);
  await testWallet(page).setChainId(1);
  await page.getByRole('button', { name: 'Wrong Network' }).click();
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible();
});

test('Switch network asks the wallet for the deployment’s chain', async ({ page, request }) => {
  const config: { chainId: number; chainName: string } = await (await request.get('/api/config')).json();
  await connect(page);
  await testWallet(page).setChainId(1);
  await page.getByRole('button', { name: `Switch to ${config.chainName}` }).click();
  await expect(page.getByRole('button', { name: `Wallet ${SHORT_PLAYER_1}` })).toBeVisible();
  expect((await testWallet(page).state()).chainId).toBe(config.chainId);
});

test('A rejected connection shows the wallet’s message', async ({ page }) => {
  await page.goto('/predictions');
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible();
  await testWallet(page).rejectNextRequest();
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await expect(page.getByText('User rejected the request.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeEnabled();
});

test('With several wallets installed the user chooses one, MetaMask listed first', async ({ page }) => {
  await installTestWallet(page, {
    account: DEV_ACCOUNTS.player2,
    rpcUrl: rpcUrl(),
    rdns: 'io.metamask',
    name: 'MetaMask',
  });
  await page.goto('/predictions');
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a wallet' });
  await expect(dialog.getByRole('listitem')).toHaveText([/MetaMask/, /Test Wallet/]);
  await dialog.getByRole('button', { name: /MetaMask/ }).click();
  await expect(page.getByRole('button', { name: 'Wallet 0x3C44...93BC' })).toBeVisible();
});

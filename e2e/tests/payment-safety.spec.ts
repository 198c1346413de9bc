import type { Page } from '@playwright/test';
import { parseEther } from 'viem';
import { createMarketViaApi, devAddress } from '../support/api.ts';
import { setCode } from '../support/chain.ts';
import { expect, rpcUrl, test } from '../support/fixtures.ts';
import { connectWallet } from '../support/helpers.ts';
import { installTestWallet } from '../support/test-wallet.ts';

// Review F14: a payment sent through a contract is never credited as a bet, so the app says so
// before anything is paid, and a contract wallet is not offered the payment at all.

async function openJoinPayment(page: Page, account: `0x${string}`) {
  const { market } = await createMarketViaApi({
    from: devAddress(17),
    description: `Payment safety ${Date.now()}`,
    prediction: 'YES',
    amountWei: parseEther('0.01'),
  });
  await installTestWallet(page, { account, rpcUrl: rpcUrl() });
  await page.goto(`/market/${market.id}`);
  await connectWallet(page);
  await page.getByRole('button', { name: 'Join Bet' }).first().click();
  const join = page.getByRole('dialog', { name: 'Join Prediction' });
  await join.getByText('YES', { exact: true }).click();
  await join.getByLabel('Amount (BNB)').fill('0.01');
  await join.getByRole('button', { name: 'Join Bet' }).click();
  return page.getByRole('dialog', { name: 'Send Payment to Vault' });
}

test('The payment dialog says that only payments sent directly from the wallet count', async ({ page }) => {
  const payment = await openJoinPayment(page, devAddress(18));
  await expect(payment.getByText(/Send from this wallet directly/)).toBeVisible();
  await expect(payment.getByRole('button', { name: 'Send Payment' })).toBeEnabled();
});

test('A contract wallet is told why and offered no payment', async ({ page }) => {
  const account = devAddress(19);
  await setCode(account, '0x60006000fd');
  try {
    const payment = await openJoinPayment(page, account);
    await expect(payment.getByRole('alert')).toContainText('This wallet is a smart contract');
    await expect(payment.getByRole('button', { name: 'Send Payment' })).toBeDisabled();
  } finally {
    await setCode(account, '0x');
  }
});

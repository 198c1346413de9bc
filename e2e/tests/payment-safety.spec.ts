import type { Page } from '@playwright/test';
import { parseEther } from 'viem';
import { createMarketViaApi, devAddress } from '../support/api.ts';
import { setCode } from '../support/chain.ts';
import { expect, rpcUrl, test } from '../support/fixtures.ts';
import { connectWallet } from '../support/helpers.ts';
import { installTestWallet } from '../support/test-wallet.ts';

// Decision 025 "Deposits": every stake is a deposit into the escrow contract, and the bettor is
// whoever calls `deposit`, so a smart-account wallet (a Safe, a smart account) bets as itself and is
// paid back to itself; PancakeSwap's `notContract` lock-out is not copied. The dialog says whose
// stake it is before anything is paid.

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

test("The payment dialog says the stake is deposited into the escrow in the wallet's name", async ({
  page,
}) => {
  const payment = await openJoinPayment(page, devAddress(18));
  await expect(payment.getByText(/deposited into the escrow contract in this wallet's name/)).toBeVisible();
  await expect(payment.getByRole('button', { name: 'Send Payment' })).toBeEnabled();
});

test('A contract wallet is told it bets as itself, and is offered the payment', async ({ page }) => {
  const account = devAddress(19);
  await setCode(account, '0x60006000fd');
  try {
    const payment = await openJoinPayment(page, account);
    await expect(payment.getByText(/This wallet is a smart contract .* it bets as itself/)).toBeVisible();
    await expect(payment.getByRole('button', { name: 'Send Payment' })).toBeEnabled();
  } finally {
    await setCode(account, '0x');
  }
});

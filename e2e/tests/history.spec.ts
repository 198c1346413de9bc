import { shortenAddress } from '@pm/core/address';
import { HISTORY_PAGE_DEFAULT } from '@pm/core/contract/history-query';
import { parseEther } from 'viem';
import { createMarketViaApi, devAddress, joinMarketViaApi } from '../support/api.ts';
import { freshAccount, setAiVerdict } from '../support/chain.ts';
import { expect, test } from '../support/fixtures.ts';
import { createContestedMarket, openWithWallet, settleMarkets } from '../support/helpers.ts';

// A wallet's history and P&L (decision 012) after a win, a loss and a refund, on My Bets and on the
// public profile reached from the leaderboard. Markets are judged by the stub AI.

const player = devAddress(13);
const other = devAddress(10);

test('My Bets and the public profile show a win, a loss and a refund with their net and the P&L summary', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  const titles = {
    win: `History e2e ${stamp}: the win`,
    loss: `History e2e ${stamp}: the loss`,
    refund: `History e2e ${stamp}: the refund`,
  };
  // Judged YES: the player wins 0.02 on the first market (0.01 against 0.02) and loses 0.01 on the second.
  const win = await createContestedMarket({
    description: titles.win,
    yes: { from: player, amountWei: parseEther('0.01') },
    no: { from: other, amountWei: parseEther('0.02') },
  });
  const loss = await createContestedMarket({
    description: titles.loss,
    yes: { from: other, amountWei: parseEther('0.01') },
    no: { from: player, amountWei: parseEther('0.01') },
  });
  await setAiVerdict({ verdict: 'YES', confidence: 95, analysis: 'The history e2e judge says YES.' });
  await settleMarkets([win.id, loss.id]);
  // Judged NO with nobody on NO: the player's stake comes back.
  const refund = await createMarketViaApi({
    from: player,
    description: titles.refund,
    prediction: 'YES',
    amountWei: parseEther('0.01'),
  });
  await setAiVerdict({ verdict: 'NO', confidence: 95, analysis: 'The history e2e judge says NO.' });
  await settleMarkets([refund.market.id]);

  // The public profile, from the leaderboard.
  await page.goto('/leaderboard');
  await page.getByRole('link', { name: `Profile of ${shortenAddress(player)}` }).click();
  await expect(page).toHaveURL(new RegExp(`/u/${player}$`, 'i'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Player ${shortenAddress(player)}`);
  const summary = page.getByRole('region', { name: 'Profit and loss' });
  await expect(summary).toContainText('Net P&L+0.0100 BNB');
  await expect(summary).toContainText('Win rate50%');
  await expect(summary).toContainText('Best win+0.0200 BNB');
  await expect(summary).toContainText('Total wagered0.0300 BNB');
  await expect(summary).toContainText('3 bets: 1 won, 1 lost, 1 refunded, 0 open');
  const history = page.getByRole('list', { name: 'Bet history' });
  const row = (title: string) => history.getByRole('listitem').filter({ hasText: title });
  await expect(row(titles.win)).toContainText('Won');
  await expect(row(titles.win)).toContainText('Stake0.0100 BNB');
  await expect(row(titles.win)).toContainText('Payout0.0300 BNB');
  await expect(row(titles.win)).toContainText('Net+0.0200 BNB');
  await expect(row(titles.loss)).toContainText('Lost');
  await expect(row(titles.loss)).toContainText('Payout0.0000 BNB');
  await expect(row(titles.loss)).toContainText('Net-0.0100 BNB');
  await expect(row(titles.refund)).toContainText('Refunded');
  await expect(row(titles.refund)).toContainText('Net0.0000 BNB');
  // Read-only: nobody claims from someone else's profile.
  await expect(history.getByRole('button')).toHaveCount(0);

  // The filters narrow the list on the server.
  await page.getByLabel('Status').selectOption({ label: 'Lost' });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history).toContainText(titles.loss);

  // My Bets: the same figures for the connected wallet, with a claim on the win and the refund.
  const mine = await openWithWallet(browser, player, '/predictions');
  await mine.getByRole('button', { name: /^Wallet 0x/ }).click();
  await mine.getByRole('menuitem', { name: 'My Bets' }).click();
  await expect(mine.getByRole('region', { name: 'Profit and loss' })).toContainText('Net P&L+0.0100 BNB');
  const myHistory = mine.getByRole('list', { name: 'Bet history' });
  await expect(
    myHistory
      .getByRole('listitem')
      .filter({ hasText: titles.win })
      .getByRole('button', { name: 'Claim Prize' }),
  ).toBeVisible();
  await expect(
    myHistory
      .getByRole('listitem')
      .filter({ hasText: titles.refund })
      .getByRole('button', { name: 'Claim Prize' }),
  ).toBeVisible();
  await expect(
    myHistory.getByRole('listitem').filter({ hasText: titles.loss }).getByRole('button'),
  ).toHaveCount(0);
  await mine.context().close();
});

test('The profile of something that is not an address says so in the page', async ({ page }) => {
  await page.goto('/u/0x1234');
  await expect(page.getByRole('alert')).toContainText('“0x1234” is not a wallet address.');
});

test('A history longer than a page shows the newest page first and the rest on “Load more”', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A wallet of its own, with one bet more than a page: its market's creation and 20 joins.
  const wallet = await freshAccount();
  const stake = parseEther('0.005');
  const { market } = await createMarketViaApi({
    from: wallet,
    description: `History paging e2e ${Date.now()}`,
    prediction: 'YES',
    amountWei: stake,
  });
  for (let bet = 0; bet < HISTORY_PAGE_DEFAULT; bet += 1) {
    await joinMarketViaApi({ marketId: market.id, from: wallet, prediction: 'YES', amountWei: stake });
  }
  const total = HISTORY_PAGE_DEFAULT + 1;

  await page.goto(`/u/${wallet}`);
  await expect(page.getByRole('region', { name: 'Profit and loss' })).toContainText(
    `${total} bets: 0 won, 0 lost, 0 refunded, ${total} open`,
  );
  const history = page.getByRole('list', { name: 'Bet history' });
  await expect(history.getByRole('listitem')).toHaveCount(HISTORY_PAGE_DEFAULT);
  const more = page.getByRole('button', { name: 'Load more' });
  await more.click();
  await expect(history.getByRole('listitem')).toHaveCount(total);
  // The last page: nothing more to load.
  await expect(more).toHaveCount(0);
});

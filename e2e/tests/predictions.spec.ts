import type { Page } from '@playwright/test';
import { MARKET_BETS_PAGE_DEFAULT } from '@pm/core/contract/market-bets';
import { MARKETS_PAGE_DEFAULT } from '@pm/core/contract/markets';
import { parseEther } from 'viem';
import {
  createMarketViaApi,
  devAddress,
  getMarket,
  getOpenMarketsPage,
  inLanes,
  joinMarketViaApi,
} from '../support/api.ts';
import { advanceChainTime, balanceOf, freshAccount, setAiVerdict } from '../support/chain.ts';
import { openMarketClaim } from '../support/escrow.ts';
import { expect, rpcUrl, test } from '../support/fixtures.ts';
import { connectWallet, openWithWallet, settleMarkets } from '../support/helpers.ts';
import { installTestWallet, testWallet } from '../support/test-wallet.ts';

// A custom market end to end: two wallets in the browser, real payments on the local chain, the stub AI
// judge, and a claim whose chain balance change is checked to the wei.

async function pay(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Send Payment to Vault' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send Payment' }).click();
}

test('A market is created and joined from two wallets, judged, and the winner claims exactly stake plus profit', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const creator = devAddress(16);
  const joiner = devAddress(17);
  const description = `Will the e2e market ${Date.now()} be judged YES?`;
  const instructions = 'Resolve YES only if the e2e judge says so; otherwise NO.';

  const creatorPage = await openWithWallet(browser, creator, '/predictions');
  await creatorPage.getByRole('button', { name: 'Create Bet' }).first().click();
  const form = creatorPage.getByRole('dialog', { name: 'Create Prediction Market' });
  await form.getByLabel('Category').selectOption('crypto');
  await form.getByLabel('Bet Description').fill(description);
  await form.getByLabel('AI resolution instructions').fill(instructions);
  await form.getByText('YES', { exact: true }).click();
  await form.getByLabel('Amount (BNB)').fill('0.01');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await pay(creatorPage);
  await expect(creatorPage.getByText('Market created successfully!')).toBeVisible({ timeout: 20_000 });

  const card = creatorPage.getByRole('article').filter({ hasText: description });
  await card.getByRole('link', { name: description }).click();
  await expect(creatorPage).toHaveURL(/\/market\/\d+$/);
  const marketId = Number(creatorPage.url().split('/').pop());
  // What decides the market is on its page, so a bettor can read it before paying.
  await expect(creatorPage.getByRole('region', { name: 'Resolution instructions' })).toContainText(
    instructions,
  );

  // The second wallet joins from the list; the creator's open market page updates by realtime.
  const joinerPage = await openWithWallet(browser, joiner, '/predictions');
  await joinerPage
    .getByRole('article')
    .filter({ hasText: description })
    .getByRole('button', { name: 'Join Bet' })
    .click();
  const join = joinerPage.getByRole('dialog', { name: 'Join Prediction' });
  // …and in the join dialog, before the joiner pays.
  const criteria = join.getByRole('region', { name: 'What decides this market' });
  await expect(criteria).toContainText(description);
  await expect(criteria).toContainText(instructions);
  await join.getByText('NO', { exact: true }).click();
  await join.getByLabel('Amount (BNB)').fill('0.02');
  await join.getByRole('button', { name: 'Join Bet' }).click();
  await pay(joinerPage);
  await expect(joinerPage.getByText('Bet placed successfully!')).toBeVisible({ timeout: 20_000 });
  await creatorPage.bringToFront();
  await expect(creatorPage.getByRole('region', { name: 'NO', exact: true })).toContainText('0.0200 BNB', {
    timeout: 10_000,
  });
  await expect(creatorPage.getByRole('region', { name: 'YES', exact: true })).toContainText('Creator');

  // The deadline passes, the stub judge says YES, settlement pays the YES side.
  await setAiVerdict({ verdict: 'YES', confidence: 93, analysis: 'The e2e judge saw it happen.' });
  await settleMarkets([marketId]);
  await expect(creatorPage.getByText('Settled: YES')).toBeVisible({ timeout: 15_000 });

  // In-app navigation (a reload would drop the test wallet's connection): Wallet menu → My Bets.
  await creatorPage.getByRole('button', { name: /^Wallet 0x/ }).click();
  await creatorPage.getByRole('menuitem', { name: 'My Bets' }).click();
  await expect(creatorPage.getByRole('heading', { level: 1, name: 'My Bets' })).toBeVisible();
  const row = creatorPage.getByRole('main').getByRole('listitem').filter({ hasText: description });
  await expect(row).toContainText('Won');
  // The escrow pays once the settlement's delay has passed on the chain's clock (decision 026).
  await openMarketClaim(creator, marketId);
  const before = await balanceOf(creator);
  await row.getByRole('button', { name: 'Claim Prize' }).click();
  await expect(creatorPage.getByText(/Successfully claimed 0\.0300 BNB from 1 winning bets!/)).toBeVisible({
    timeout: 20_000,
  });
  expect((await balanceOf(creator)) - before).toBe(parseEther('0.03'));
  await expect(row).toContainText('Claimed');

  await creatorPage.context().close();
  await joinerPage.context().close();
});

test('The create and join forms show the spec’s messages for a missing wallet, a small amount and a rejected signature', async ({
  page,
}) => {
  await page.goto('/predictions');
  await page.getByRole('button', { name: 'Create Bet' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create Prediction Market' });
  await expect(form.getByText('Connect your wallet to create a market.')).toBeVisible();
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Please connect your wallet')).toBeVisible();
  await page.keyboard.press('Escape');

  await installTestWallet(page, { account: devAddress(18), rpcUrl: rpcUrl() });
  await page.reload();
  await connectWallet(page);
  await page.getByRole('button', { name: 'Create Bet' }).first().click();
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Please select a category')).toBeVisible();
  await form.getByLabel('Category').selectOption('sports');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Please enter a bet description')).toBeVisible();
  await form.getByLabel('Bet Description').fill('Will the rejected e2e market exist?');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Please select your prediction')).toBeVisible();
  await form.getByText('NO', { exact: true }).click();
  await form.getByLabel('Amount (BNB)').fill('0.001');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Minimum amount is 0.005 BNB')).toBeVisible();

  await form.getByLabel('Amount (BNB)').fill('0.005');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await testWallet(page).rejectNextSend();
  await pay(page);
  await expect(page.getByText('User rejected the request.')).toBeVisible();
});

test('Joining after the deadline is refused: the escrow takes no deposit past the close', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const description = `Closing e2e market ${Date.now()}`;
  const page = await openWithWallet(browser, devAddress(19), '/predictions');
  await page.getByRole('button', { name: 'Create Bet' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create Prediction Market' });
  await form.getByLabel('Category').selectOption('gaming');
  await form.getByLabel('Bet Description').fill(description);
  await form.getByText('YES', { exact: true }).click();
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  await pay(page);
  await expect(page.getByText('Market created successfully!')).toBeVisible({ timeout: 20_000 });

  await page
    .getByRole('article')
    .filter({ hasText: description })
    .getByRole('button', { name: 'Join Bet' })
    .click();
  const join = page.getByRole('dialog', { name: 'Join Prediction' });
  await join.getByText('YES', { exact: true }).click();
  // Time passes on the chain past the market's close: the escrow contract itself refuses the deposit
  // (BettingClosed, decision 026), so nothing is paid and nothing is recorded.
  await advanceChainTime(3601);
  await join.getByRole('button', { name: 'Join Bet' }).click();
  await pay(page);
  // The wallet's send fails (the toast says why) and the dialog is ready to send again; the server
  // recorded nothing: the market still holds the creator's bet alone.
  const dialog = page.getByRole('dialog', { name: 'Send Payment to Vault' });
  await expect(dialog.getByRole('button', { name: 'Send Payment' })).toBeEnabled({ timeout: 20_000 });
  const listed = (await getOpenMarketsPage()).markets.find((market) => market.description === description);
  expect(listed).toMatchObject({ yesCount: 1, noCount: 0 });
});

test('Market texts carrying HTML and script payloads render as text and run nothing', async ({ page }) => {
  test.setTimeout(60_000);
  const payloads = {
    title: `<img src=x onerror="window.__xss='title';alert('title')"> ${Date.now()}`,
    description: `<script>window.__xss='description';alert('description')</script><svg onload="window.__xss='svg'">`,
    resolutionInstructions: `"><img src=x onerror="window.__xss='instructions';alert('instructions')"><a href="javascript:alert(1)">x</a>`,
  };
  const { market } = await createMarketViaApi({
    from: devAddress(15),
    prediction: 'YES',
    amountWei: parseEther('0.005'),
    ...payloads,
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await page.goto('/predictions');
  await expect(page.getByRole('article').filter({ hasText: payloads.title })).toBeVisible();
  await page.goto(`/market/${market.id}`);
  await expect(page.getByRole('heading', { name: payloads.title })).toBeVisible();
  await expect(page.getByText(payloads.description, { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Resolution instructions' })).toContainText(
    payloads.resolutionInstructions,
  );
  // Nothing the payloads carry became markup, and nothing ran.
  await expect(
    page.locator('main img[src="x"], main script, main svg[onload], main a[href^="javascript:"]'),
  ).toHaveCount(0);
  expect(await page.evaluate(() => Reflect.get(window, '__xss'))).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test('An operator voids a market from its page with a typed-data signature; the stake is refunded', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const description = `Operator e2e market ${Date.now()}`;
  const { market } = await createMarketViaApi({
    from: devAddress(14),
    description,
    prediction: 'NO',
    amountWei: parseEther('0.005'),
  });
  // Dev account #3 is the e2e stack's OPERATOR_ADDRESSES (global-setup.ts).
  const page = await openWithWallet(browser, devAddress(3), `/market/${market.id}`);
  const controls = page.getByRole('region', { name: 'Operator' });
  await expect(controls).toBeVisible();
  await expect(controls.getByRole('button', { name: 'Resolve YES' })).toHaveCount(0);
  await controls.getByLabel('Reason shown to bettors').fill('Duplicate of another market.');
  await controls.getByRole('button', { name: 'Void and refund' }).click();
  await expect(page.getByText('Market voided: every stake will be refunded')).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText('Voided: every stake is refunded')).toBeVisible({ timeout: 10_000 });
  const after = await getMarket(market.id);
  expect(after.market).toMatchObject({ result: 'VOID', aiVerdict: 'Duplicate of another market.' });
  expect(after.bets.every((bet) => bet.status === 'refunded')).toBe(true);
  await expect(controls).toHaveCount(0);
  await page.context().close();
});

// Lean pages (decision 016). Payments from several accounts at once, so setting up a board with more
// than one page and a market with more than one page of bets takes seconds, not minutes. Fresh
// accounts of their own: these tests settle what they create, and the refunds and winnings must not
// land on an account another spec counts the claimable bets of (review-window.spec.ts: #4, #5).
const freshLanes = () => Promise.all(Array.from({ length: 10 }, () => freshAccount()));

test('The board shows one page of open markets and loads the next as the visitor scrolls', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const lanes = await freshLanes();
  const open = (await getOpenMarketsPage()).counts.all ?? 0;
  const missing = Math.max(0, MARKETS_PAGE_DEFAULT + 3 - open);
  const stamp = Date.now();
  const created: number[] = [];
  await inLanes(
    Array.from({ length: missing }, (_, i) => i),
    lanes,
    async (i, from) => {
      const { market } = await createMarketViaApi({
        from,
        description: `Paging e2e market ${stamp} #${i}`,
        prediction: 'YES',
        amountWei: parseEther('0.005'),
      });
      created.push(market.id);
    },
  );
  const first = await getOpenMarketsPage();
  expect(first.markets).toHaveLength(MARKETS_PAGE_DEFAULT);
  const second = await getOpenMarketsPage(first.nextCursor);
  const later = second.markets[0]?.title ?? '';
  expect(later).not.toBe('');

  await page.goto('/predictions');
  const list = page.getByRole('list', { name: 'Open markets' });
  await expect(list.getByRole('article')).toHaveCount(MARKETS_PAGE_DEFAULT);
  const laterCard = list
    .getByRole('article')
    .filter({ has: page.getByRole('link', { name: later, exact: true }) });
  await expect(laterCard).toHaveCount(0);
  // Scrolling down to the end of the first page brings the next by itself; the button stays the
  // way for a keyboard (tested in the web unit tests).
  const more = list.getByRole('button', { name: 'Load more' });
  await expect(more).toBeAttached();
  await page.mouse.wheel(0, 20_000);
  await expect(laterCard).toBeVisible({ timeout: 15_000 });
  expect(await list.getByRole('article').count()).toBeGreaterThan(MARKETS_PAGE_DEFAULT);
  // Every market once.
  const links = await list
    .getByRole('article')
    .evaluateAll((cards) => cards.map((card) => card.querySelector('a')?.getAttribute('href')));
  expect(new Set(links).size).toBe(links.length);
  // The pages and their "Load more" row fit a 360 px phone.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Settled here, so their judging does not land in a later file's idle minute (push.spec.ts).
  await settleMarkets(created);
});

test('A market page shows the newest bets, participants from the server, and older bets after Show more', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const lanes = await freshLanes();
  const { market } = await createMarketViaApi({
    from: devAddress(15),
    description: `Busy e2e market ${Date.now()}`,
    prediction: 'NO',
    amountWei: parseEther('0.005'),
  });
  // One page of joins and one more: the creator's bet (the oldest) is on the second page.
  await inLanes(
    Array.from({ length: MARKET_BETS_PAGE_DEFAULT }, (_, i) => i),
    lanes,
    (i, from) =>
      joinMarketViaApi({
        marketId: market.id,
        from,
        prediction: i % 2 ? 'YES' : 'NO',
        amountWei: parseEther('0.01'),
      }),
  );
  const detail = await getMarket(market.id);
  expect(detail.bets).toHaveLength(MARKET_BETS_PAGE_DEFAULT);
  expect(detail.betsNextCursor).not.toBeNull();
  expect(detail.participants).toBe(lanes.length + 1);

  await page.goto(`/market/${market.id}`);
  const participants = page.getByText('Participants', { exact: true });
  await expect(participants.locator('xpath=following-sibling::dd')).toHaveText(String(lanes.length + 1));
  // The side panels list the first page; the creator's bet is older.
  await expect(page.getByRole('region', { name: 'YES', exact: true }).getByRole('listitem')).toHaveCount(
    MARKET_BETS_PAGE_DEFAULT / 2,
  );
  await expect(page.getByRole('region', { name: 'NO', exact: true })).not.toContainText('Creator');

  await page.getByRole('button', { name: 'Show more bets' }).click();
  const older = page.getByRole('list', { name: 'Earlier bets' });
  await expect(older.getByRole('listitem')).toHaveCount(1);
  await expect(older.getByRole('listitem')).toContainText('Creator');
  await expect(older.getByRole('status')).toHaveText('That is every bet on this market.');
  await expect(page.getByRole('button', { name: 'Show more bets' })).toHaveCount(0);
  // The older bets fit a 360 px phone.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await settleMarkets([market.id]);
});

import type { Page } from '@playwright/test';
import { ConfigResponseSchema } from '@pm/core/contract/config';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { parseEther } from 'viem';
import { devAddress, eventually, getMarket, joinMarketViaApi } from '../support/api.ts';
import { advanceChainTime, balanceOf, setAiVerdict } from '../support/chain.ts';
import { openMarketClaim } from '../support/escrow.ts';
import { baseUrl, expect, test } from '../support/fixtures.ts';
import { connectWallet, createContestedMarket, openWithWallet } from '../support/helpers.ts';

// The review window end to end (decision 011): the AI's verdict is proposed, a bettor flags it with a wallet signature, the
// window ends and nothing pays, an operator overturns it from the market page, and only then does
// the other side claim, checked to the wei on chain. The e2e stack's window is 40 s (global-setup).
// On the escrow the verdict's settlement is posted on chain when it is proposed,
// the window its delay; a flag's bond is a deposit that disputes it (decision 026), so one flag per
// window: the Chinese-speaking bettor flags, the English one sees the form, then the flag. Overturned,
// the bond is a leaf of the new payout list, claimed with the flagger's winnings.

/** max(0.01 BNB, 5% of the 0.04 BNB pool): the minimum. */
const BOND = parseEther('0.01');

/** Opens My Bets from the wallet menu (no reload: the language is held in memory). */
async function openMyBets(page: Page, menu: RegExp, item: string) {
  await page.getByRole('button', { name: menu }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

async function serverTimeMs(): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/config`);
  return Date.parse(ConfigResponseSchema.parse(await response.json()).serverTime);
}

async function claimableCount(address: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/users/${address}/claimable`);
  return ClaimableResponseSchema.parse(await response.json()).markets.count;
}

test("A proposed verdict is flagged with a bond (the form in English and Chinese), overturned by an operator; only then is it claimed exactly, the bond with its flagger's winnings", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const yesBettor = devAddress(4);
  const noBettor = devAddress(5);
  // The Chinese-speaking flagger: a dev account no other spec bets with (a flag is signed, and an
  // impersonated fresh account cannot sign; Hardhat holds the dev accounts' keys).
  const zhBettor = devAddress(2);
  const description = `Will the review window e2e market ${Date.now()} be overturned?`;
  const market = await createContestedMarket({
    description,
    yes: { from: yesBettor, amountWei: parseEther('0.01') },
    no: { from: noBettor, amountWei: parseEther('0.02') },
  });
  await joinMarketViaApi({
    marketId: market.id,
    from: zhBettor,
    prediction: 'NO',
    amountWei: parseEther('0.01'),
  });

  await setAiVerdict({ verdict: 'YES', confidence: 88, analysis: 'The e2e judge believes it happened.' });
  // Opened before the jump in chain time so the page's code is loaded and compiled, then reloaded
  // after it (the page reads the server's clock when it loads): the 40 s window has to hold a
  // signature, a bond payment and the flag, in both pages at once.
  const page = await openWithWallet(browser, noBettor, `/market/${market.id}`);
  const zhPage = await openWithWallet(browser, zhBettor, `/market/${market.id}`);
  await advanceChainTime(3601);
  // The server's clock follows the chain's within a few seconds: reload once it is past the deadline.
  await expect.poll(serverTimeMs, { timeout: 30_000 }).toBeGreaterThan(Date.parse(market.deadline));
  for (const each of [page, zhPage]) {
    await each.reload();
    // The test wallet forgets its connection on reload, as a locked wallet would.
    await connectWallet(each);
  }
  await zhPage.getByRole('button', { name: '中文' }).click();
  await eventually(async () => (await getMarket(market.id)).market.review, 30_000);

  // Proposed: the verdict, its confidence and a countdown; the In review badge; nothing to claim.
  const review = page.getByRole('region', { name: 'Verdict under review' });
  await expect(review).toContainText('Proposed verdict: YES');
  await expect(review).toContainText('Confidence 88%');
  await expect(review).toContainText('The e2e judge believes it happened.');
  await expect(review.getByRole('status')).toContainText(/Pays out in \d+:\d\d unless a bettor flags it/);
  await expect(page.getByText('In review', { exact: true })).toBeVisible();
  expect(await claimableCount(yesBettor)).toBe(0);
  const zhReview = zhPage.getByRole('region', { name: '裁决审核中' });
  await expect(zhReview).toContainText('提议裁决：YES');

  // Both NO bettors see the flag form with the contract's bond and its fate, each in their language.
  // The Chinese one flags: sign, deposit the bond (a dispute of the settlement on chain), post.
  const form = review.getByRole('form', { name: 'Flag this verdict' });
  await expect(form).toContainText('Bond: 0.01 BNB', { timeout: 20_000 });
  await expect(form).toContainText('your bond comes back in full plus a reward');
  const zhForm = zhReview.getByRole('form', { name: '对此裁决提出异议' });
  await expect(zhForm).toContainText('保证金：0.01 BNB', { timeout: 20_000 });
  await expect(zhForm).toContainText('若运营方推翻裁决，保证金全额退还');
  await zhForm.getByLabel('裁决为什么有误？').fill('活动已取消：见主办方公告。');
  await zhForm.getByRole('button', { name: '签名、缴纳保证金并提出异议' }).click();
  const payment = zhPage.getByRole('dialog', { name: '向金库付款' });
  await expect(payment).toBeVisible({ timeout: 15_000 });
  await payment.getByRole('button', { name: '发送付款' }).click();
  await expect(zhPage.getByText('您的异议已记录：运营方将审核该裁决。')).toBeVisible({ timeout: 20_000 });
  const zhAfterBond = await balanceOf(zhBettor);
  const timeline = page.getByRole('region', { name: 'Resolution timeline' });
  await expect(timeline).toContainText('Flagged by 0x');
  await expect(timeline).toContainText('with a bond of 0.01 BNB');
  await expect(timeline).toContainText('“活动已取消：见主办方公告。”');
  await expect(review).toContainText('Flagged by 1 bettor(s)');
  // The dispute sent the settlement back on chain: no second bond can dispute it, so no form offers one.
  await expect(form).toHaveCount(0);
  const zhTimeline = zhPage.getByRole('region', { name: '裁决时间线' });
  await expect(zhTimeline).toContainText('提出异议，保证金 0.01 BNB');

  // The window ends: a flagged verdict does not settle on its own, and nothing is claimable.
  const proposal = (await getMarket(market.id)).market.review;
  if (!proposal) throw new Error('no proposal');
  await expect.poll(serverTimeMs, { timeout: 60_000 }).toBeGreaterThan(Date.parse(proposal.endsAt) + 6_000);
  expect((await getMarket(market.id)).market.status).toBe('settling');
  expect(await claimableCount(yesBettor)).toBe(0);
  expect(await claimableCount(noBettor)).toBe(0);

  // Dev account #3 is the e2e stack's operator: it overturns the verdict to NO from the page.
  const operatorPage = await openWithWallet(browser, devAddress(3), `/market/${market.id}`);
  const controls = operatorPage.getByRole('region', { name: 'Operator' });
  await expect(controls).toContainText('AI proposal: YES · flags: 1');
  await controls.getByLabel('Reason shown to bettors').fill('The event was cancelled; the flag is right.');
  await controls.getByRole('button', { name: 'Overturn to NO' }).click();
  await expect(operatorPage.getByText('Market settled NO')).toBeVisible({ timeout: 15_000 });
  await operatorPage.context().close();

  const settled = await getMarket(market.id);
  expect(settled.market).toMatchObject({ status: 'settled', result: 'NO' });
  expect(settled.timeline?.map((event) => event.kind)).toEqual([
    'proposed',
    'flagged',
    'overturned',
    'settled',
    'bond_returned',
  ]);
  await expect(page.getByText('Settled: NO')).toBeVisible({ timeout: 15_000 });
  await expect(timeline).toContainText('Overturned to NO by operator');
  // The bond's fate on the timeline, in both languages.
  await expect(timeline).toContainText(/Bond of 0x\S+ returned: 0\.01 BNB \(verdict overturned/);
  await expect(zhTimeline).toContainText(/0x\S+ 的保证金已退还：0\.01 BNB（裁决被推翻/);

  // Only now, once the new settlement's delay has passed on chain: the NO bettor claims stake + its
  // share of the YES pool (2/3 of 0.01 BNB, rounded down; the e2e stack charges no fee), to the wei.
  await openMarketClaim(noBettor, market.id);
  const before = await balanceOf(noBettor);
  const claimable = page.getByRole('region', { name: 'Claimable winnings' });
  await claimable.getByRole('button', { name: 'Claim' }).click();
  await expect(page.getByText(/Successfully claimed 0\.026\d BNB/)).toBeVisible({ timeout: 20_000 });
  expect((await balanceOf(noBettor)) - before).toBe(parseEther('0.02') + (parseEther('0.01') * 2n) / 3n);
  expect(await claimableCount(yesBettor)).toBe(0);

  // My Bets lists the bond as a row of its own with its fate, in the flagger's language, to claim with
  // its winnings: the bond back in full (no fee, so no reward) and its bet's stake + 1/3 of 0.01 BNB.
  await openMyBets(zhPage, /^钱包 0x/, '我的下注');
  const zhBondRow = zhPage
    .getByRole('list', { name: '下注记录' })
    .getByRole('listitem')
    .filter({ hasText: description })
    .filter({ hasText: '异议保证金' });
  await expect(zhBondRow).toContainText('已退还：裁决被推翻');
  await expect(zhBondRow).toContainText('保证金0.0100 BNB');
  await expect(zhBondRow).toContainText('退还0.0100 BNB');
  await zhBondRow.getByRole('button', { name: '领取保证金' }).click();
  await expect
    .poll(() => balanceOf(zhBettor), { timeout: 30_000 })
    .toBe(zhAfterBond + BOND + parseEther('0.01') + parseEther('0.01') / 3n);
  await expect(zhBondRow.getByRole('button')).toHaveCount(0, { timeout: 15_000 });
  await page.context().close();
  await zhPage.context().close();
});

import { ConfigResponseSchema } from '@pm/core/contract/config';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { parseEther } from 'viem';
import { devAddress, eventually, getMarket } from '../support/api.ts';
import { advanceChainTime, balanceOf, setAiVerdict } from '../support/chain.ts';
import { baseUrl, expect, test } from '../support/fixtures.ts';
import { connectWallet, createContestedMarket, openWithWallet } from '../support/helpers.ts';

// Issue 11 end to end: the AI's verdict is proposed, a bettor flags it with a wallet signature, the
// window ends and nothing pays, an operator overturns it from the market page, and only then does
// the other side claim, checked to the wei on chain. The e2e stack's window is 40 s (global-setup).
// Issue 22: the flag carries a bond paid from the wallet; overturned, it comes back on chain by itself.

/** max(0.01 BNB, 5% of the 0.03 BNB pool): the minimum. */
const BOND = parseEther('0.01');

async function claimableCount(address: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/users/${address}/claimable`);
  return ClaimableResponseSchema.parse(await response.json()).markets.count;
}

test('A proposed verdict is flagged by a bettor, overturned by an operator, and only then claimed exactly', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const yesBettor = devAddress(4);
  const noBettor = devAddress(5);
  const description = `Will the review window e2e market ${Date.now()} be overturned?`;
  const market = await createContestedMarket({
    description,
    yes: { from: yesBettor, amountWei: parseEther('0.01') },
    no: { from: noBettor, amountWei: parseEther('0.02') },
  });

  await setAiVerdict({ verdict: 'YES', confidence: 88, analysis: 'The e2e judge believes it happened.' });
  // Opened before the jump in chain time so the page's code is loaded and compiled, then reloaded
  // after it (the page reads the server's clock when it loads): the 40 s window has to hold a
  // signature, a bond payment and the flag.
  const page = await openWithWallet(browser, noBettor, `/market/${market.id}`);
  await advanceChainTime(3601);
  await page.reload();
  // The test wallet forgets its connection on reload, as a locked wallet would.
  await connectWallet(page);
  await eventually(async () => (await getMarket(market.id)).market.review, 30_000);

  // Proposed: the verdict, its confidence and a countdown; the In review badge; nothing to claim.
  const review = page.getByRole('region', { name: 'Verdict under review' });
  await expect(review).toContainText('Proposed verdict: YES');
  await expect(review).toContainText('Confidence 88%');
  await expect(review).toContainText('The e2e judge believes it happened.');
  await expect(review.getByRole('status')).toContainText(/Pays out in \d+:\d\d unless a bettor flags it/);
  await expect(page.getByText('In review', { exact: true })).toBeVisible();
  expect(await claimableCount(yesBettor)).toBe(0);

  // The NO bettor flags it: the form shows the bond and its fate; sign, pay the bond, post.
  const form = review.getByRole('form', { name: 'Flag this verdict' });
  await expect(form).toContainText('Bond: 0.01 BNB');
  await expect(form).toContainText('your bond comes back in full plus a reward');
  await form.getByLabel('Why is the verdict wrong?').fill('It was cancelled: see the organiser’s notice.');
  await form.getByRole('button', { name: 'Sign, pay the bond and flag' }).click();
  const payment = page.getByRole('dialog', { name: 'Send Payment to Vault' });
  await expect(payment).toBeVisible({ timeout: 15_000 });
  await payment.getByRole('button', { name: 'Send Payment' }).click();
  await expect(page.getByText('Your flag was recorded: an operator will review the verdict.')).toBeVisible({
    timeout: 20_000,
  });
  const afterBond = await balanceOf(noBettor);
  const timeline = page.getByRole('region', { name: 'Resolution timeline' });
  await expect(timeline).toContainText('Flagged by 0x');
  await expect(timeline).toContainText('with a bond of 0.01 BNB');
  await expect(timeline).toContainText('“It was cancelled: see the organiser’s notice.”');
  await expect(review).toContainText('Flagged by 1 bettor(s)');

  // The window ends: a flagged verdict does not settle on its own, and nothing is claimable.
  const proposal = (await getMarket(market.id)).market.review;
  if (!proposal) throw new Error('no proposal');
  await expect
    .poll(
      async () =>
        Date.parse(
          ConfigResponseSchema.parse(await (await fetch(`${baseUrl()}/api/config`)).json()).serverTime,
        ),
      {
        timeout: 60_000,
      },
    )
    .toBeGreaterThan(Date.parse(proposal.endsAt) + 6_000);
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
  // The bond's fate on the timeline, and the bond back in the wallet by itself (the refund path).
  await expect(timeline).toContainText(/Bond of 0x\S+ returned: 0\.01 BNB \(verdict overturned/);
  await expect.poll(() => balanceOf(noBettor), { timeout: 30_000 }).toBe(afterBond + BOND);

  // Only now: the NO bettor claims stake + the YES pool (the e2e stack charges no fee), to the wei.
  const before = await balanceOf(noBettor);
  const claimable = page.getByRole('region', { name: 'Claimable winnings' });
  await claimable.getByRole('button', { name: 'Claim' }).click();
  await expect(page.getByText(/Successfully claimed 0\.0300 BNB/)).toBeVisible({ timeout: 20_000 });
  expect((await balanceOf(noBettor)) - before).toBe(parseEther('0.03'));
  expect(await claimableCount(yesBettor)).toBe(0);
  await page.context().close();
});

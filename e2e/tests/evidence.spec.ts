import { parseEther } from 'viem';
import { eventually, getMarket, joinMarketViaApi } from '../support/api.ts';
import { advanceChainTime, balanceOf, freshAccount, setAiAnalysis, setAiVerdict } from '../support/chain.ts';
import { openMarketClaim } from '../support/escrow.ts';
import { FIXTURE_SENTENCE, STUB_ANALYSIS } from '../support/evidence-stubs.ts';
import { expect, test } from '../support/fixtures.ts';
import { openWithWallet } from '../support/helpers.ts';

// Evidence and Analyze end to end (decisions 018 and 019): Analyze in the create dialog (the suggestion taken in one click), then the
// market is created and joined with real payments, the deadline passes, the server searches the
// loopback SearXNG stand-in, reads the two fixture news sites, the stub judge quotes them word for
// word, the server verifies the quotes, and the Evidence section shows them, in English and in
// Chinese, through the review window to settlement and the winner's claim, checked to the wei.

test('Analyze suggests instructions; the judge’s verified quotes are shown in both languages; the market settles and pays', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // A fresh creator: its claim is this market's alone, whatever other specs left to claim.
  const creator = await freshAccount();
  // An account of its own: a dev account would add this loss to another spec's P&L (history.spec.ts).
  const joiner = await freshAccount();
  const description = `Will the evidence e2e event ${Date.now()} take place before the deadline?`;

  // Analyze: the problems the judge sees and its instructions, taken with one click.
  await setAiAnalysis(STUB_ANALYSIS);
  const page = await openWithWallet(browser, creator, '/predictions');
  await page.getByRole('button', { name: 'Create Bet' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create Prediction Market' });
  await form.getByLabel('Category').selectOption('politics');
  await form.getByRole('button', { name: 'Analyze' }).click();
  await expect(page.getByText('Please enter a bet description first')).toBeVisible();
  await form.getByLabel('Bet Description').fill(description);
  await form.getByRole('button', { name: 'Analyze' }).click();
  const analysis = form.getByRole('region', { name: 'Analysis' });
  await expect(analysis.getByRole('list', { name: 'Problems found' })).toContainText(
    `Ambiguous terms: ${STUB_ANALYSIS.problems[0]?.detail}`,
  );
  await analysis.getByRole('button', { name: 'Use these instructions' }).click();
  await expect(form.getByLabel('AI resolution instructions')).toHaveValue(
    STUB_ANALYSIS.suggestedInstructions,
  );

  // Created on YES from the dialog with a real payment; joined on NO by another wallet.
  await form.getByText('YES', { exact: true }).click();
  await form.getByLabel('Amount (BNB)').fill('0.01');
  await form.getByRole('button', { name: 'Create', exact: true }).click();
  const payment = page.getByRole('dialog', { name: 'Send Payment to Vault' });
  await payment.getByRole('button', { name: 'Send Payment' }).click();
  await expect(page.getByText('Market created successfully!')).toBeVisible({ timeout: 20_000 });
  await page
    .getByRole('article')
    .filter({ hasText: description })
    .getByRole('link', { name: description })
    .click();
  await expect(page).toHaveURL(/\/market\/\d+$/);
  const marketId = Number(page.url().split('/').pop());
  await expect(page.getByRole('region', { name: 'Resolution instructions' })).toContainText(
    STUB_ANALYSIS.suggestedInstructions,
  );
  await joinMarketViaApi({ marketId, from: joiner, prediction: 'NO', amountWei: parseEther('0.02') });

  // The page states the deployment's real settings, and no evidence before the deadline.
  const how = page.getByRole('region', { name: 'How resolution works' });
  await expect(how).toContainText('found by search (searxng)');
  await expect(how).toContainText('quotes from at least 2 sites, checked by the server');
  await expect(page.getByRole('region', { name: 'Evidence' })).toHaveCount(0);

  // The deadline passes: the judge reads the sites and proposes YES with quotes the server verified.
  await setAiVerdict({ verdict: 'YES', confidence: 91, analysis: 'Two news sites report it took place.' });
  await advanceChainTime(3601);
  const proposed = await eventually(async () => {
    const detail = await getMarket(marketId);
    return detail.market.review && detail.evidence ? detail : null;
  }, 45_000);
  const evidence = proposed.evidence;
  if (!evidence) throw new Error('no evidence');
  expect(evidence.verification).toMatchObject({ status: 'verified', distinctSites: 2, minSites: 2 });
  expect(new Set(evidence.citations.map((citation) => citation.site))).toEqual(
    new Set(['127.0.0.1', 'localhost']),
  );

  const section = page.getByRole('region', { name: 'Evidence' });
  await expect(section).toBeVisible({ timeout: 15_000 });
  await expect(section.getByRole('status')).toContainText('Verified ✔');
  const sources = section.getByRole('list', { name: 'Quoted sources' });
  for (const citation of evidence.citations) {
    expect(citation.quote).toContain(FIXTURE_SENTENCE);
    const item = sources.getByRole('listitem').filter({ hasText: citation.quote });
    await expect(item.locator('blockquote')).toHaveText(citation.quote);
    await expect(item).toContainText(citation.site);
    const hash = citation.contentSha256 ?? '';
    await expect(item.getByText(hash.slice(0, 10), { exact: true })).toHaveAttribute(
      'title',
      new RegExp(hash),
    );
    const link = item.getByRole('link').first();
    await expect(link).toHaveAttribute('href', citation.url);
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expect(link).toHaveAttribute('target', '_blank');
  }

  // In Chinese: the same quotes, sites and hashes under translated headings.
  await page.getByRole('button', { name: '中文' }).click();
  const zhSection = page.getByRole('region', { name: '证据' });
  await expect(zhSection.getByRole('status')).toContainText('已验证 ✔');
  const zhSources = zhSection.getByRole('list', { name: '引用来源' });
  for (const citation of evidence.citations) {
    const item = zhSources.getByRole('listitem').filter({ hasText: citation.quote });
    await expect(item).toContainText(citation.site);
    await expect(item).toContainText((citation.contentSha256 ?? '').slice(0, 10));
  }
  await expect(page.getByRole('region', { name: '结算方式' })).toContainText('至少 2 个网站');
  await page.getByRole('button', { name: 'English' }).click();

  // The review window (20 s on the e2e stack) ends unflagged: settled YES, the evidence stays.
  await eventually(async () => (await getMarket(marketId)).market.status === 'settled', 60_000);
  await expect(page.getByText('Settled: YES')).toBeVisible({ timeout: 15_000 });
  await expect(section.getByRole('status')).toContainText('Verified ✔');

  // The creator claims stake + the NO pool (the e2e stack charges no fee), to the wei, once the
  // escrow's settlement delay has passed on the chain's clock (decision 026).
  await openMarketClaim(creator, marketId);
  const before = await balanceOf(creator);
  await page
    .getByRole('region', { name: 'Claimable winnings' })
    .getByRole('button', { name: 'Claim' })
    .click();
  await expect(page.getByText(/Successfully claimed 0\.0300 BNB/)).toBeVisible({ timeout: 20_000 });
  expect((await balanceOf(creator)) - before).toBe(parseEther('0.03'));
  await page.context().close();
});

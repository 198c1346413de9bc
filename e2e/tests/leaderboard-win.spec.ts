import { shortenAddress } from '@pm/core/address';
import { parseEther } from 'viem';
import { claimViaApi, devAddress, eventually } from '../support/api.ts';
import { balanceOf, setAiVerdict } from '../support/chain.ts';
import { openMarketClaim } from '../support/escrow.ts';
import { expect, test } from '../support/fixtures.ts';
import { createContestedMarket, settleMarkets } from '../support/helpers.ts';

test('A settled win reaches the leaderboard, and its claim pays exactly stake plus profit', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const winner = devAddress(11);
  const loser = devAddress(12);
  const market = await createContestedMarket({
    description: 'Will the leaderboard e2e test find its winner?',
    yes: { from: winner, amountWei: parseEther('0.01') },
    no: { from: loser, amountWei: parseEther('0.02') },
  });

  await setAiVerdict({ verdict: 'YES', confidence: 96, analysis: 'The e2e judge found it happened.' });
  const [settled] = await settleMarkets([market.id]);
  expect(settled).toMatchObject({ result: 'YES', aiConfidence: 96 });

  // The escrow pays once the settlement's delay has passed on the chain's clock (decision 026).
  await openMarketClaim(winner, market.id);
  const before = await balanceOf(winner);
  const claim = await claimViaApi(winner, 'markets');
  expect(claim).toMatchObject({ success: true, totalWei: parseEther('0.03').toString() });
  // Relayed from the escrow, the operator key paying the gas: the winner receives exactly stake + the
  // losing pool.
  await eventually(async () => (await balanceOf(winner)) - before === parseEther('0.03') || null, 60_000);
  expect((await balanceOf(winner)) - before).toBe(parseEther('0.03'));

  await page.goto('/leaderboard');
  const row = page.getByRole('row').filter({ hasText: shortenAddress(winner) });
  await expect(row).toBeVisible();
  await expect(row).toContainText('0.0200 BNB');
});

import { parseEther } from 'viem';
import { devAddress, eventually } from '../support/api.ts';
import { balanceOf } from '../support/chain.ts';
import { publishedClaim } from '../support/escrow.ts';
import { expect, test } from '../support/fixtures.ts';
import {
  connectWallet,
  getRounds,
  openWithWallet,
  setDevPrice,
  waitForLiveRound,
} from '../support/helpers.ts';

// One oracle round played through in the browser, with the stack's short rounds (60 s, betting
// 30 s): UP from one wallet, DOWN from another (deposits into the escrow), the test sets the simulated
// price at lock and at close, the round settles on the escrow, and once its payouts open the winner
// claims (the server relays claimMany) and its chain balance rises by exactly the pool.

/** Our round wherever the API shows it now (current, previous or recent). */
async function roundByEpoch(epoch: number) {
  const now = await getRounds();
  return [now.current, now.next, now.previous, ...now.recent].find((round) => round?.epoch === epoch) ?? null;
}

test('Two wallets bet UP and DOWN, the price decides the round, and the winner claims exactly the pool', async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const bull = devAddress(14);
  const bear = devAddress(15);

  // A live round with time enough to place two bets before it locks.
  const live = await waitForLiveRound(18);
  await setDevPrice('600');

  const bullPage = await openWithWallet(browser, bull, '/oracle-predictions');
  const bearPage = await openWithWallet(browser, bear, '/oracle-predictions');
  const liveRegion = (page: typeof bullPage) =>
    page.getByRole('region', { name: `LIVE Round #${live.epoch}` });
  await expect(liveRegion(bullPage)).toBeVisible();

  // A person acts on the tab in front; a background tab's animations are throttled.
  await bullPage.bringToFront();
  await bullPage.getByRole('button', { name: /^UP/ }).click();
  await bullPage.getByLabel('Amount (BNB)').fill('0.05');
  await bullPage.getByRole('button', { name: 'Bet UP' }).click();
  await expect(bullPage.getByText('BULL bet placed! 0.05 BNB sent to treasury')).toBeVisible({
    timeout: 15_000,
  });

  await bearPage.bringToFront();
  await bearPage.getByRole('button', { name: /^DOWN/ }).click();
  await bearPage.getByLabel('Amount (BNB)').fill('0.03');
  await bearPage.getByRole('button', { name: 'Bet DOWN' }).click();
  await expect(bearPage.getByText('BEAR bet placed! 0.03 BNB sent to treasury')).toBeVisible({
    timeout: 15_000,
  });

  // The pools show both bets.
  await expect(liveRegion(bullPage)).toContainText('0.08');

  // Locked at 600: betting on it now is refused with the spec's message.
  const locked = await eventually(async () => {
    const round = await roundByEpoch(live.epoch);
    return round && round.status !== 'live' ? round : null;
  }, 60_000);
  expect({ status: locked.status, result: locked.result }).toEqual({ status: 'locked', result: null });
  expect(Number(locked.lockPrice)).toBe(600);
  await bearPage.getByRole('button', { name: 'Bet DOWN' }).click();
  await expect(bearPage.getByText('You can only bet on live rounds')).toBeVisible();

  // Closes higher: BULL wins.
  await setDevPrice('610');
  const ended = await eventually(async () => {
    const round = await roundByEpoch(live.epoch);
    return round?.status === 'ended' ? round : null;
  }, 60_000);
  expect(ended.result).toBe('bull');

  // The concluded-round modal appears once for the newly ended epoch.
  await bullPage.bringToFront();
  const modal = bullPage.getByRole('dialog', { name: `Round #${live.epoch} concluded` });
  await expect(modal).toBeVisible({ timeout: 15_000 });
  await modal.getByRole('button', { name: 'Got it' }).click();
  await bullPage.reload();
  await expect(bullPage.getByRole('heading', { level: 1, name: 'Oracle Predictions' })).toBeVisible();
  await expect(modal).toBeHidden();
  // The test wallet forgets its connection on reload, as a locked wallet would.
  await connectWallet(bullPage);
  await expect(bullPage.getByRole('region', { name: 'Claimable winnings' })).toBeVisible();

  // A round ends every minute on this stack: a later round's concluded modal is dismissed whenever it
  // covers what the test clicks.
  const concluded = bullPage.getByRole('dialog', { name: /concluded/ });
  await bullPage.addLocatorHandler(concluded, async () => {
    await concluded.getByRole('button', { name: 'Got it' }).click();
  });
  // The escrow pays once the round's settlement is on chain and its delay (the contract's minimum) passed.
  const claim = await publishedClaim(bull, live.epoch);
  expect(claim.payoutWei).toBe(parseEther('0.08').toString());
  const before = await balanceOf(bull);
  const claimable = bullPage.getByRole('region', { name: 'Claimable winnings' });
  await claimable.getByRole('button', { name: 'Claim' }).click();
  await expect(
    bullPage.getByText(/Successfully claimed 0\.08|Your payout of 0\.08 BNB is on its way/),
  ).toBeVisible({ timeout: 20_000 });
  // Relayed by the operator key: the winner pays no gas and receives exactly the pool.
  await eventually(async () => (await balanceOf(bull)) - before === parseEther('0.08') || null, 60_000);

  await bullPage.context().close();
  await bearPage.context().close();
});

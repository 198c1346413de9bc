import type { Page } from '@playwright/test';
import { ConfigResponseSchema } from '@pm/core/contract/config';
import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Address, createPublicClient, getAddress, type Hex, http, parseEther } from 'viem';
import { eventually, placeOracleBetViaApi } from '../support/api.ts';
import { balanceOf, freshAccount } from '../support/chain.ts';
import { publishedClaim } from '../support/escrow.ts';
import { baseUrl, expect, rpcUrl, test } from '../support/fixtures.ts';
import { getRounds, openWithWallet, setDevPrice, waitForLiveRound } from '../support/helpers.ts';

// Decision 026 "Claim": a round's winner takes its payout from the escrow with its own wallet,
// no server relay. The server's relay is made to fail (the page's POST /api/claims answers 503, as a server
// that cannot relay would); the claimable card then offers "Claim with my wallet", the wallet sends the
// contract's claim with the published proof, and the chain pays the winner exactly its payout. Once in
// English, once in Chinese: two winners of the same round.

const client = () => createPublicClient({ transport: http(rpcUrl()) });

/** Wei as the web shows BNB: 4 decimals, cut toward zero (no grouping below 1,000). */
const bnb = (wei: bigint) =>
  `${wei / 10n ** 18n}.${((wei / 10n ** 14n) % 10_000n).toString().padStart(4, '0')} BNB`;

/** Our round wherever the API shows it now (current, previous or recent). */
async function roundByEpoch(epoch: number) {
  const now = await getRounds();
  return [now.current, now.next, now.previous, ...now.recent].find((round) => round?.epoch === epoch) ?? null;
}

async function escrowAddress(): Promise<Address> {
  const config = ConfigResponseSchema.parse(await (await fetch(`${baseUrl()}/api/config`)).json());
  if (!config.escrow) throw new Error('the stack names no escrow in GET /api/config');
  return getAddress(config.escrow.address);
}

/**
 * The page's relayed claims fail as a server that cannot relay answers them. A round ends every minute
 * on this stack: its concluded-round modal is dismissed whenever it covers what the test clicks.
 */
async function failRelays(page: Page): Promise<void> {
  const concluded = page.getByRole('dialog', { name: /concluded|已结束/ });
  await page.addLocatorHandler(concluded, async () => {
    await concluded.getByRole('button', { name: /^(Got it|知道了)$/ }).click();
  });
  await page.route('**/api/claims', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'PAYOUT_FAILED', message: 'Failed to claim winnings' } }),
    }),
  );
}

/** The escrow's `Claimed` event of `stakeId`: who was paid what, and in which transaction. */
async function claimedEvent(escrow: Address, stakeId: bigint) {
  const [event] = await client().getContractEvents({
    address: escrow,
    abi: predictionEscrowAbi,
    eventName: 'Claimed',
    args: { stakeId },
    fromBlock: 0n,
  });
  return event ?? null;
}

/** What `owner` received from its own claim: the payout, less the gas its wallet paid for it. */
async function checkPaid(escrow: Address, owner: Address, claim: EscrowClaim, before: bigint) {
  const stakeId = BigInt(claim.stakeId);
  expect(
    await client().readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'stakes',
      args: [stakeId],
    }),
  ).toBe(`0x${'0'.repeat(64)}`);
  const event = await claimedEvent(escrow, stakeId);
  expect(event?.args).toEqual({ stakeId, market: claim.market, owner, amount: BigInt(claim.payoutWei) });
  const receipt = await client().getTransactionReceipt({ hash: event?.transactionHash as Hex });
  // Sent by the winner itself, not the operator's relay.
  expect(getAddress(receipt.from)).toBe(owner);
  const gas = receipt.gasUsed * receipt.effectiveGasPrice;
  expect((await balanceOf(owner)) - before).toBe(BigInt(claim.payoutWei) - gas);
}

test('A claim submitted by the wallet itself: a round winner takes its payout from the escrow, in English and Chinese', async ({
  browser,
}) => {
  test.setTimeout(330_000);
  const escrow = await escrowAddress();
  const english = await freshAccount();
  const chinese = await freshAccount();
  const loser = await freshAccount();

  const live = await waitForLiveRound(15);
  await setDevPrice('600');
  await placeOracleBetViaApi({
    epoch: live.epoch,
    from: english,
    position: 'bull',
    amountWei: parseEther('0.05'),
  });
  await placeOracleBetViaApi({
    epoch: live.epoch,
    from: chinese,
    position: 'bull',
    amountWei: parseEther('0.02'),
  });
  await placeOracleBetViaApi({
    epoch: live.epoch,
    from: loser,
    position: 'bear',
    amountWei: parseEther('0.03'),
  });
  // Locked at 600, closes at 610: BULL wins.
  await eventually(async () => {
    const round = await roundByEpoch(live.epoch);
    return round && round.status !== 'live';
  }, 60_000);
  await setDevPrice('610');

  // English: the relay fails, the wallet claims itself.
  const englishClaim = await publishedClaim(english, live.epoch);
  const page = await openWithWallet(browser, english, '/oracle-predictions');
  await failRelays(page);
  const card = page.getByRole('region', { name: 'Claimable winnings' });
  await card.getByRole('button', { name: 'Claim', exact: true }).click();
  await expect(page.getByText('Failed to claim winnings', { exact: false }).first()).toBeVisible();
  const amount = bnb(BigInt(englishClaim.payoutWei));
  const own = card.getByRole('button', { name: `Claim with my wallet: round #${live.epoch}, ${amount}` });
  await expect(own).toBeVisible();
  const englishBefore = await balanceOf(english);
  await own.click();
  await expect(card.getByRole('status')).toHaveText(
    `Confirmed: ${amount} from round #${live.epoch} was paid to your wallet.`,
    { timeout: 20_000 },
  );
  await expect(own).toBeHidden();
  await checkPaid(escrow, english, englishClaim, englishBefore);
  await page.context().close();

  // Chinese: the same, for the round's other winner.
  const chineseClaim = await publishedClaim(chinese, live.epoch);
  const zhPage = await openWithWallet(browser, chinese, '/oracle-predictions');
  await failRelays(zhPage);
  await zhPage.getByRole('button', { name: '中文' }).click();
  await expect(zhPage.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const zhCard = zhPage.getByRole('region', { name: '可领取奖金' });
  await zhCard.getByRole('button', { name: '领取', exact: true }).click();
  const zhAmount = bnb(BigInt(chineseClaim.payoutWei));
  const zhOwn = zhCard.getByRole('button', { name: `用我的钱包领取：第 ${live.epoch} 轮，${zhAmount}` });
  await expect(zhOwn).toBeVisible();
  const chineseBefore = await balanceOf(chinese);
  await zhOwn.click();
  await expect(zhCard.getByRole('status')).toHaveText(
    `已确认：第 ${live.epoch} 轮的 ${zhAmount} 已支付到你的钱包。`,
    {
      timeout: 20_000,
    },
  );
  await checkPaid(escrow, chinese, chineseClaim, chineseBefore);
  await zhPage.context().close();
});

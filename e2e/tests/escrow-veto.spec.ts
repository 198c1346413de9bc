import type { Page } from '@playwright/test';
import { ConfigResponseSchema } from '@pm/core/contract/config';
import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { marketKey } from '@pm/escrow/market-key';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_ESCROW_ROLES } from '../../apps/server/src/config/dev-accounts.ts';
import { eventually, getMarket } from '../support/api.ts';
import { advanceChainTime, balanceOf, freshAccount, setAiVerdict } from '../support/chain.ts';
import { baseUrl, expect, rpcUrl, test } from '../support/fixtures.ts';
import { createContestedMarket, openWithWallet } from '../support/helpers.ts';

// docs/architecture.md "Following the chain": the escrow's guardian vetoes a judged market's pending
// settlement on chain, without the server asking, and the app follows the `Vetoed` event: the market
// shows voided in both languages, the winner is offered its stake back as a refund (not a win), and
// the relayed claim pays exactly that stake. The escape hatch (`Escaped`, anyone's refund once a market
// is unsettled for the escrow's escape delay) is left to the server's test
// (apps/server/test/escrow-market-fates.test.ts): it needs the chain's clock moved on by days, and the
// e2e stack's chain is shared by every spec.

/** Stakes with four decimals, so what the page shows (4 decimals) is the stake exactly. */
const YES_STAKE = parseEther('0.0137');
const NO_STAKE = parseEther('0.0251');

const STATE = { Settled: 2, Refunding: 3 } as const;

const client = () => createPublicClient({ transport: http(rpcUrl()) });

async function escrowAddress(): Promise<Address> {
  const config = ConfigResponseSchema.parse(await (await fetch(`${baseUrl()}/api/config`)).json());
  if (!config.escrow) throw new Error('the stack names no escrow in GET /api/config');
  return getAddress(config.escrow.address);
}

async function onChain(escrow: Address, key: Hex) {
  const [pool, , claimableAt, state] = await client().readContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'markets',
    args: [key],
  });
  return { pool, claimableAt, state };
}

/** `owner`'s escrow claim of its bet on `marketId` as GET /api/users/:address/claimable offers it. */
async function offeredClaim(owner: Address, marketId: number): Promise<EscrowClaim | null> {
  const response = await fetch(`${baseUrl()}/api/users/${owner}/claimable`);
  const claimable = ClaimableResponseSchema.parse(await response.json());
  return claimable.markets.bets.find((bet) => bet.marketId === marketId)?.escrowClaim ?? null;
}

/** The guardian's key (dev-accounts.ts) sends `veto(key)`; the stack mines every 2 s, this mines now. */
async function guardianVetoes(escrow: Address, key: Hex): Promise<void> {
  const guardian = createWalletClient({
    account: privateKeyToAccount(DEV_ESCROW_ROLES.guardian.privateKey),
    transport: http(rpcUrl()),
  });
  const hash = await guardian.writeContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'veto',
    args: [key],
    chain: null,
  });
  await createTestClient({ mode: 'hardhat', transport: http(rpcUrl()) }).mine({ blocks: 1 });
  const receipt = await client().waitForTransactionReceipt({ hash, pollingInterval: 200 });
  expect(receipt.status).toBe('success');
}

/** Opens My Bets from the wallet menu (no reload: the test wallet forgets its connection on one). */
async function openMyBets(page: Page) {
  await page.getByRole('button', { name: /^Wallet 0x/ }).click();
  await page.getByRole('menuitem', { name: 'My Bets' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Bets' })).toBeVisible();
}

test('A settlement the guardian vetoes on chain in its review shows voided (English and Chinese), and its winner claims back exactly its stake', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const escrow = await escrowAddress();
  // Fresh accounts: the refund is checked to the wei, and no other spec's claim can be mixed in.
  const winner = await freshAccount();
  const loser = await freshAccount();
  const description = `Will the veto e2e market ${Date.now()} be refunded?`;
  const market = await createContestedMarket({
    description,
    yes: { from: winner, amountWei: YES_STAKE },
    no: { from: loser, amountWei: NO_STAKE },
  });
  if (!market.escrowId) throw new Error(`market ${market.id} has no escrow id`);
  const key = marketKey(market.escrowId as Hex, market.closesAt);

  // The judge says YES once the market's deadline has passed; its settlement is posted on chain when
  // proposed, pending for the review window (at least the contract's 60 s). The review is the chain's
  // dispute window (docs/architecture.md "Review window"), so the guardian vetoes within it, while the
  // market is still in review: once the window ends, the payouts are open and no veto can land.
  await setAiVerdict({ verdict: 'YES', confidence: 91, analysis: 'The e2e judge saw it happen.' });
  await advanceChainTime(3601);
  const pending = await eventually(async () => {
    const held = await onChain(escrow, key);
    return held.state === STATE.Settled ? held : null;
  }, 75_000);
  expect((await getMarket(market.id)).market).toMatchObject({ status: 'settling' });
  expect(pending.claimableAt, 'the payouts opened before the guardian could veto').toBeGreaterThan(
    Number((await client().getBlock()).timestamp),
  );
  await guardianVetoes(escrow, key);
  expect((await onChain(escrow, key)).state).toBe(STATE.Refunding);

  // The market-fates job follows the event once its block is final: the page shows it voided.
  const page = await openWithWallet(browser, winner, `/market/${market.id}`);
  await expect(page.getByText('Voided: every stake is refunded')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Settled: YES')).toHaveCount(0);
  expect((await getMarket(market.id)).market).toMatchObject({ status: 'settled', result: 'VOID' });
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByText('已作废：全部退还本金')).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // Both bettors are offered exactly their stakes back as refunds (no proof: the contract refunds).
  const refund = await offeredClaim(winner, market.id);
  expect(refund).toMatchObject({ refund: true, proof: [], payoutWei: YES_STAKE.toString() });
  expect(await offeredClaim(loser, market.id)).toMatchObject({
    refund: true,
    payoutWei: NO_STAKE.toString(),
  });

  // The winner's My Bets: the bet is refunded, not won, and its claim offers the stake.
  await openMyBets(page);
  const row = page.getByRole('list', { name: 'Bet history' }).getByRole('listitem').filter({
    hasText: description,
  });
  await expect(row).toContainText('Refunded');
  await expect(row).not.toContainText('Won');
  await expect(row).toContainText('You can claim 0.0137 BNB.');
  const before = await balanceOf(winner);
  await row.getByRole('button', { name: 'Claim Prize' }).click();
  await expect(page.getByText(/Successfully claimed 0\.0137 BNB/)).toBeVisible({ timeout: 20_000 });
  // Relayed (the operator's key pays the gas): the stake comes back to the wei.
  await expect.poll(() => balanceOf(winner), { timeout: 30_000 }).toBe(before + YES_STAKE);
  await expect(row).toContainText('Claimed');
  expect(await offeredClaim(winner, market.id)).toBeNull();
  expect((await onChain(escrow, key)).pool).toBe(NO_STAKE);
  await page.context().close();
});

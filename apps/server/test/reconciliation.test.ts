import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { marketIntent } from '@pm/pay-and-post/market-intent';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPayoutsJob } from '../src/payouts/payouts-job.ts';
import { createVaultSigner } from '../src/payouts/vault-signer.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let helpers: ReturnType<typeof marketHelpers>;
let reconcile: () => Promise<unknown>;
let runPayouts: () => Promise<void>;

beforeAll(async () => {
  t = await startTestApp();
  helpers = marketHelpers(t);
  // The job exactly as the server wires it, with the markets and oracle handlers.
  const job = t.features.jobs.find((candidate) => candidate.name === 'vault-reconciliation');
  if (!job) throw new Error('the server runs a vault reconciliation job');
  reconcile = () => job.run();
  const signer = createVaultSigner(t.config);
  if (!signer) throw new Error('no vault key');
  const payouts = createPayoutsJob({
    db: t.db,
    chain: t.chain.publicClient,
    signer,
    chainId: 31337,
    confirmations: 1,
    maxFeePerGas: t.config.payouts.maxFeePerGas,
    refundMinWei: t.config.payouts.refundMinWei,
  });
  runPayouts = () => payouts.run();
});
afterAll(() => t?.close());

const balanceOf = (address: `0x${string}`) => t.chain.publicClient.getBalance({ address });

describe('vault reconciliation', () => {
  test('a bet deposited on chain whose request never arrived is recorded from its event', async () => {
    const { market } = await helpers.createMarket({ description: 'Will reconciliation find the lost bet?' });
    const txHash = await helpers.payBet(market.id, {
      player: 1,
      prediction: 'NO',
      amountWei: parseEther('0.02'),
    });
    // Markets are paid into the escrow (decision 026): escrow reconciliation reads the deposit.
    const escrowJob = t.features.jobs.find((job) => job.name === 'escrow-reconciliation');
    await escrowJob?.run();
    const detail = MarketDetailResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/markets/${market.id}` })).json(),
    );
    const bet = detail.bets.find((candidate) => candidate.txHash === txHash.toLowerCase());
    expect(bet).toMatchObject({ prediction: 'NO', amountWei: parseEther('0.02').toString() });
    expect(detail.market.totalNoWei).toBe(parseEther('0.02').toString());
    expect((await helpers.paymentRow(txHash))?.status).toBe('recorded');
  });

  test('a transfer to the vault paying for a market bet is no bet any more: it is refunded', async () => {
    const { market } = await helpers.createMarket({ description: 'Paid the old way' });
    const txHash = await helpers.pay(
      helpers.player(2),
      { kind: 'bet', marketId: market.id, prediction: 'YES' },
      parseEther('0.01'),
    );
    await reconcile();
    expect(await helpers.paymentRow(txHash)).toMatchObject({ status: 'refund_due' });
    const detail = MarketDetailResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/markets/${market.id}` })).json(),
    );
    expect(detail.bets.some((bet) => bet.txHash === txHash.toLowerCase())).toBe(false);
  });

  test('a plain transfer without an intent is refunded to its sender once its grace has passed', async () => {
    const wallet = helpers.extraWallet(9);
    const txHash = await helpers.pay(wallet, null, parseEther('0.003'));
    await reconcile();
    expect(await helpers.paymentRow(txHash)).toBeUndefined();
    await t.advanceTime(601);
    await reconcile();
    expect(await helpers.paymentRow(txHash)).toMatchObject({
      status: 'refund_due',
      refundReason: 'NO_INTENT',
    });
    const before = await balanceOf(wallet.account.address);
    await runPayouts();
    await runPayouts();
    expect((await balanceOf(wallet.account.address)) - before).toBe(parseEther('0.003'));
    expect((await helpers.paymentRow(txHash))?.status).toBe('refunded');
  });

  test('a create paid on chain whose request never arrived is refunded after its grace', async () => {
    const wallet = helpers.extraWallet(10);
    const txHash = await helpers.pay(
      wallet,
      marketIntent({ category: 'crypto', duration: 'hourly', description: 'Lost create' }, 'YES'),
      parseEther('0.01'),
    );
    await t.advanceTime(601);
    await reconcile();
    expect(await helpers.paymentRow(txHash)).toMatchObject({
      status: 'refund_due',
      refundReason: 'UNCLAIMED_CREATE',
    });
  });

  test('a bet on a market that does not exist is kept as a refund', async () => {
    const wallet = helpers.player(2);
    const txHash = await helpers.pay(
      wallet,
      { kind: 'bet', marketId: 987_654, prediction: 'YES' },
      parseEther('0.01'),
    );
    await reconcile();
    expect(await helpers.paymentRow(txHash)).toMatchObject({ status: 'refund_due' });
  });
});

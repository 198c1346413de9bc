import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { eq } from 'drizzle-orm';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEV_PLAYERS } from '../src/config/dev-accounts.ts';
import { bets, oracleBets, payments, payouts } from '../src/db/schema.ts';
import { type ClaimsDeps, claimWinnings } from '../src/payouts/claims-service.ts';
import { advanceOpenPayouts } from '../src/payouts/payout-processor.ts';
import type { PayoutProcessorDeps } from '../src/payouts/payout-processor-deps.ts';
import { createPayoutsJob } from '../src/payouts/payouts-job.ts';
import { createVaultSigner, type VaultSigner } from '../src/payouts/vault-signer.ts';
import { insertEndedRound, insertPayment, insertSettledMarket } from './support/fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let signer: VaultSigner;
let claims: ClaimsDeps;
// Each test pays a different dev account, so balance deltas are exact and independent.
let nextPlayer = 0;
const freshPlayer = () => {
  const index = 4 + nextPlayer++;
  // Hardhat dev accounts #4.. from the same mnemonic, derived by viem in test-chain's clients.
  return `0x${(BigInt('0x1000000000000000000000000000000000000000') + BigInt(index)).toString(16)}` as const;
};

beforeAll(async () => {
  t = await startTestApp();
  const vault = createVaultSigner(t.config);
  if (!vault) throw new Error('the local config has a vault key');
  signer = vault;
  claims = {
    db: t.db,
    chain: t.chain.publicClient,
    signer,
    chainId: 31337,
    confirmations: 1,
    claimWaitMs: 5_000,
    maxFeePerGas: t.config.payouts.maxFeePerGas,
  };
});
afterAll(() => t?.close());

const balanceOf = (address: `0x${string}`) => t.chain.publicClient.getBalance({ address });
const processor = (overrides: Partial<PayoutProcessorDeps> = {}): PayoutProcessorDeps => ({
  ...claims,
  signer,
  ...overrides,
});

describe('claims', () => {
  test('a claim pays stake plus profit of every winning bet in one transfer, and marks them claimed', async () => {
    const winner = freshPlayer();
    const { bets: placed } = await insertSettledMarket(t.db, {
      result: 'YES',
      bets: [
        {
          address: winner,
          prediction: 'YES',
          amount: parseEther('0.01'),
          status: 'won',
          profit: parseEther('0.02'),
        },
        {
          address: winner,
          prediction: 'YES',
          amount: parseEther('0.005'),
          status: 'won',
          profit: parseEther('0.01'),
        },
        { address: DEV_PLAYERS[0].address, prediction: 'NO', amount: parseEther('0.03'), status: 'lost' },
      ],
    });
    const before = await balanceOf(winner);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/claims',
      payload: { userAddress: winner.toUpperCase().replace('0X', '0x'), scope: 'markets' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      totalWei: parseEther('0.045').toString(),
      betsCount: 2,
      payoutStatus: 'confirmed',
      message: 'Successfully claimed 0.045 BNB from 2 winning bets!',
    });
    expect((await balanceOf(winner)) - before).toBe(parseEther('0.045'));
    const statuses = await t.db
      .select({ status: bets.status })
      .from(bets)
      .where(eq(bets.userAddress, winner));
    expect(statuses.map((row) => row.status)).toEqual(['claimed', 'claimed']);
    expect(placed).toHaveLength(3);

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/claims',
      payload: { userAddress: winner, scope: 'all' },
    });
    expect(again.json()).toMatchObject({ success: false, totalWei: '0', message: 'No winnings to claim' });
  });

  test('claimable lists winnings, refunds and round payouts for the address in any case', async () => {
    const player = freshPlayer();
    await insertSettledMarket(t.db, {
      result: 'NO',
      bets: [
        {
          address: player,
          prediction: 'NO',
          amount: parseEther('0.01'),
          status: 'won',
          profit: parseEther('0.004'),
        },
      ],
    });
    await insertSettledMarket(t.db, {
      result: 'VOID',
      bets: [{ address: player, prediction: 'YES', amount: parseEther('0.02'), status: 'refunded' }],
    });
    await insertEndedRound(t.db, {
      epoch: 1001,
      result: 'bull',
      bets: [{ address: player, position: 'bull', amount: parseEther('0.01'), payout: parseEther('0.03') }],
    });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/${player.toUpperCase().replace('0X', '0x')}/claimable`,
    });
    const body = ClaimableResponseSchema.parse(response.json());
    expect(body.markets.totalWei).toBe(parseEther('0.034').toString());
    expect(body.markets.bets.map((bet) => bet.status).sort()).toEqual(['refunded', 'won']);
    expect(body.oracle.totalWei).toBe(parseEther('0.03').toString());
    expect(body.oracle.bets[0]?.roundResult).toBe('bull');
  });

  test('an oracle claim pays the round payouts and marks them claimed', async () => {
    const player = freshPlayer();
    const [bet] = await insertEndedRound(t.db, {
      epoch: 1002,
      result: 'bear',
      bets: [{ address: player, position: 'bear', amount: parseEther('0.01'), payout: parseEther('0.025') }],
    });
    const before = await balanceOf(player);
    const body = await claimWinnings(claims, { userAddress: player, scope: 'oracle' });
    expect(body).toMatchObject({
      success: true,
      totalWei: parseEther('0.025').toString(),
      payoutStatus: 'confirmed',
    });
    expect((await balanceOf(player)) - before).toBe(parseEther('0.025'));
    const [row] = await t.db
      .select()
      .from(oracleBets)
      .where(eq(oracleBets.id, bet?.id ?? -1));
    expect(row?.claimed).toBe(true);
  });

  test('two claims at once pay exactly once', async () => {
    const winner = freshPlayer();
    await insertSettledMarket(t.db, {
      result: 'YES',
      bets: [
        {
          address: winner,
          prediction: 'YES',
          amount: parseEther('0.01'),
          status: 'won',
          profit: parseEther('0.01'),
        },
      ],
    });
    const before = await balanceOf(winner);
    const [first, second] = await Promise.all([
      claimWinnings(claims, { userAddress: winner, scope: 'markets' }),
      claimWinnings(claims, { userAddress: winner, scope: 'all' }),
    ]);
    // The second either joins the first payout or finds nothing left: never a second transfer.
    expect([first.success, second.success]).toContain(true);
    expect((await balanceOf(winner)) - before).toBe(parseEther('0.02'));
    const rows = await t.db.select().from(payouts).where(eq(payouts.toAddress, winner));
    expect(rows).toHaveLength(1);
  });

  test('a server that stops between signing and broadcast pays exactly once after restart', async () => {
    const winner = freshPlayer();
    await insertSettledMarket(t.db, {
      result: 'YES',
      bets: [
        {
          address: winner,
          prediction: 'YES',
          amount: parseEther('0.01'),
          status: 'won',
          profit: parseEther('0.005'),
        },
      ],
    });
    const before = await balanceOf(winner);
    await expect(
      claimWinnings({ ...claims, crashAfter: 'signed' }, { userAddress: winner, scope: 'markets' }),
    ).rejects.toMatchObject({
      code: 'PAYOUT_FAILED',
    });
    const [stored] = await t.db.select().from(payouts).where(eq(payouts.toAddress, winner));
    expect(stored?.status).toBe('signed');
    expect(await balanceOf(winner)).toBe(before);

    // "Restart": a fresh processor finds the stored raw transaction and sends those same bytes.
    await advanceOpenPayouts(processor());
    await advanceOpenPayouts(processor());
    const [after] = await t.db.select().from(payouts).where(eq(payouts.toAddress, winner));
    expect(after?.status).toBe('confirmed');
    expect(after?.txHashes).toEqual([stored?.txHash]);
    expect((await balanceOf(winner)) - before).toBe(parseEther('0.015'));
    const statuses = await t.db
      .select({ status: bets.status })
      .from(bets)
      .where(eq(bets.userAddress, winner));
    expect(statuses).toEqual([{ status: 'claimed' }]);
  });

  test('a server that stops after broadcast, before the receipt, pays exactly once after restart', async () => {
    const winner = freshPlayer();
    await insertSettledMarket(t.db, {
      result: 'NO',
      bets: [
        {
          address: winner,
          prediction: 'NO',
          amount: parseEther('0.02'),
          status: 'won',
          profit: parseEther('0.01'),
        },
      ],
    });
    const before = await balanceOf(winner);
    await expect(
      claimWinnings({ ...claims, crashAfter: 'broadcast' }, { userAddress: winner, scope: 'markets' }),
    ).rejects.toMatchObject({ code: 'PAYOUT_FAILED' });
    // The transfer went out before the "crash".
    expect((await balanceOf(winner)) - before).toBe(parseEther('0.03'));

    await advanceOpenPayouts(processor());
    const rows = await t.db.select().from(payouts).where(eq(payouts.toAddress, winner));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('confirmed');
    expect((await balanceOf(winner)) - before).toBe(parseEther('0.03'));
    const again = await claimWinnings(claims, { userAddress: winner, scope: 'all' });
    expect(again.success).toBe(false);
  });

  test('a payout stuck unmined is replaced at the same nonce with at least 12.5% higher fees, and pays once', async () => {
    const winner = freshPlayer();
    await insertSettledMarket(t.db, {
      result: 'YES',
      bets: [
        {
          address: winner,
          prediction: 'YES',
          amount: parseEther('0.01'),
          status: 'won',
          profit: parseEther('0.001'),
        },
      ],
    });
    const before = await balanceOf(winner);
    await t.chain.testClient.setAutomine(false);
    try {
      const pending = await claimWinnings(
        { ...claims, claimWaitMs: 300 },
        { userAddress: winner, scope: 'markets' },
      );
      expect(pending).toMatchObject({ success: true, payoutStatus: 'pending' });
      const [first] = await t.db.select().from(payouts).where(eq(payouts.toAddress, winner));
      const later = Date.now() + 120_000;
      await advanceOpenPayouts(processor({ now: () => later, replaceAfterMs: 60_000 }));
      const [replaced] = await t.db.select().from(payouts).where(eq(payouts.toAddress, winner));
      expect(replaced?.nonce).toBe(first?.nonce);
      expect(replaced?.txHashes).toHaveLength(2);
      expect((replaced?.maxFeePerGas ?? 0n) * 1000n).toBeGreaterThanOrEqual(
        (first?.maxFeePerGas ?? 0n) * 1125n,
      );
      expect((replaced?.maxPriorityFeePerGas ?? 0n) * 1000n).toBeGreaterThanOrEqual(
        (first?.maxPriorityFeePerGas ?? 0n) * 1125n,
      );
      await t.chain.testClient.mine({ blocks: 1 });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    await advanceOpenPayouts(processor());
    const [done] = await t.db.select().from(payouts).where(eq(payouts.toAddress, winner));
    expect(done?.status).toBe('confirmed');
    expect((await balanceOf(winner)) - before).toBe(parseEther('0.011'));
  });

  test('claims answer 503 CLAIMS_UNAVAILABLE when no vault key is configured', async () => {
    const response = await claimWinnings(
      { ...claims, signer: null },
      { userAddress: freshPlayer(), scope: 'all' },
    ).catch((error: unknown) => error);
    expect(response).toMatchObject({ code: 'CLAIMS_UNAVAILABLE', status: 503 });
  });
});

describe('refunds', () => {
  test('a payment owed back is refunded to its sender by the payouts job, exactly once', async () => {
    const payer = freshPlayer();
    const payment = await insertPayment(t.db, {
      from: payer,
      amount: parseEther('0.007'),
      status: 'refund_due',
    });
    const before = await balanceOf(payer);
    const job = createPayoutsJob({ ...claims, signer, refundMinWei: 0n });
    await job.run();
    await job.run();
    expect((await balanceOf(payer)) - before).toBe(parseEther('0.007'));
    const [row] = await t.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row?.status).toBe('refunded');
    await job.run();
    expect((await balanceOf(payer)) - before).toBe(parseEther('0.007'));
  });
});

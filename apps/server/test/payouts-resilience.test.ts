import { payoutReissueTypedData } from '@pm/core/vault-transfers';
import { eq } from 'drizzle-orm';
import { createPublicClient, custom, type Hash, type PublicClient, parseEther, parseGwei } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../src/config/config.ts';
import { bets, payments, payouts } from '../src/db/schema.ts';
import { runOpsCommand } from '../src/ops/ops-commands.ts';
import { payoutsCommands } from '../src/ops/payouts-commands.ts';
import { type ClaimsDeps, claimWinnings } from '../src/payouts/claims-service.ts';
import { advanceOpenPayouts } from '../src/payouts/payout-processor.ts';
import type { PayoutProcessorDeps } from '../src/payouts/payout-processor-deps.ts';
import { createPayoutsJob } from '../src/payouts/payouts-job.ts';
import { createVaultSigner, type VaultSigner } from '../src/payouts/vault-signer.ts';
import { insertPayment, insertSettledMarket } from './support/fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { localChain } from './support/test-chain.ts';

// Security review F1 (payouts job half), F6, F11, F16 (refund-held half): payouts that always
// finish, on a real Hardhat node. Each test pays fresh addresses, so balance deltas are exact.

let t: TestApp;
let signer: VaultSigner;
let claims: ClaimsDeps;
let vaultFunds: bigint;
let nextAddress = 0;
const freshAddress = () =>
  `0x${(BigInt('0x2000000000000000000000000000000000000000') + BigInt(++nextAddress)).toString(16)}` as const;

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
    claimWaitMs: 3_000,
    maxFeePerGas: t.config.payouts.maxFeePerGas,
  };
  vaultFunds = await balanceOf(signer.address);
});
afterAll(() => t?.close());

const balanceOf = (address: `0x${string}`) => t.chain.publicClient.getBalance({ address });
const processor = (overrides: Partial<PayoutProcessorDeps> = {}): PayoutProcessorDeps => ({
  ...claims,
  signer,
  ...overrides,
});
const payoutsJob = (overrides: Partial<PayoutProcessorDeps> & { refundMinWei?: bigint } = {}) =>
  createPayoutsJob({ ...claims, signer, refundMinWei: 0n, ...overrides });
const payoutsTo = (address: string) => t.db.select().from(payouts).where(eq(payouts.toAddress, address));
const paymentById = async (id: number) => (await t.db.select().from(payments).where(eq(payments.id, id)))[0];

async function winnings(address: `0x${string}`, amount: bigint) {
  const { bets: placed } = await insertSettledMarket(t.db, {
    result: 'YES',
    bets: [{ address, prediction: 'YES', amount, status: 'won', profit: 0n }],
  });
  return placed;
}

async function ops(argv: string[], chain: PublicClient = t.chain.publicClient) {
  const lines: string[] = [];
  const code = await runOpsCommand(
    argv,
    { db: t.db, config: t.config, clock: t.clock, chain, out: (line) => lines.push(line) },
    payoutsCommands,
  );
  return { code, text: lines.join('\n') };
}

/** Puts the vault's balance back, whatever a test did to it. */
async function refillVault() {
  await t.chain.testClient.setBalance({ address: signer.address, value: vaultFunds });
}

describe('the payouts job cannot be poisoned (F1)', () => {
  test('a dust refund (1 wei) is held, never paid at a loss, and the refunds after it are paid', async () => {
    // A 0-wei refund cannot exist any more (the payments table refuses amount 0: money-path.test.ts);
    // the cheapest poison left is dust that costs more gas to return than it is worth.
    const poison = await insertPayment(t.db, { from: freshAddress(), amount: 1n, status: 'refund_due' });
    const payer = freshAddress();
    const honest = await insertPayment(t.db, {
      from: payer,
      amount: parseEther('0.007'),
      status: 'refund_due',
    });
    const job = payoutsJob();
    await job.run();
    await job.run();
    expect(await balanceOf(payer)).toBe(parseEther('0.007'));
    expect((await paymentById(honest.id))?.status).toBe('refunded');
    expect(await paymentById(poison.id)).toMatchObject({ status: 'refund_held', refundPayoutId: null });
    expect((await paymentById(poison.id))?.refundLastError).toMatch(/gas cost/);
  });

  test('a refund row that cannot be processed records its error and next try, and the job refunds the rest', async () => {
    const poison = await insertPayment(t.db, {
      from: 'not-an-address',
      amount: parseEther('0.01'),
      status: 'refund_due',
    });
    const payer = freshAddress();
    const honest = await insertPayment(t.db, {
      from: payer,
      amount: parseEther('0.003'),
      status: 'refund_due',
    });
    const job = payoutsJob();
    await job.run();
    await job.run();
    await job.run();
    expect(await balanceOf(payer)).toBe(parseEther('0.003'));
    expect((await paymentById(honest.id))?.status).toBe('refunded');
    const failed = await paymentById(poison.id);
    expect(failed).toMatchObject({ status: 'refund_due', refundPayoutId: null, refundAttempts: 1 });
    expect(failed?.refundLastError).toMatch(/not an address/);
    expect(failed?.refundNextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    // The row is set aside for now, so no payout was ever made for it.
    expect(await payoutsTo('not-an-address')).toEqual([]);
  });

  test('open payouts are advanced even when the refund step fails', async () => {
    const winner = freshAddress();
    await winnings(winner, parseEther('0.02'));
    await t.chain.testClient.setAutomine(false);
    try {
      const pending = await claimWinnings(
        { ...claims, claimWaitMs: 300 },
        { userAddress: winner, scope: 'all' },
      );
      expect(pending.payoutStatus).toBe('pending');
      await t.chain.testClient.mine({ blocks: 1 });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    await insertPayment(t.db, { from: freshAddress(), amount: parseEther('0.01'), status: 'refund_due' });
    // An RPC that cannot tell fees: the refund step cannot price anything.
    const job = payoutsJob({ chain: chainWithout(['eth_maxPriorityFeePerGas', 'eth_feeHistory']) });
    await expect(job.run()).resolves.toBeUndefined();
    const [claim] = await payoutsTo(winner);
    expect(claim?.status).toBe('confirmed');
    expect(await balanceOf(winner)).toBe(parseEther('0.02'));
  });
});

describe('recipients with code (F6)', () => {
  test('a recipient whose code needs more than 21000 gas is paid in full', async () => {
    const winner = freshAddress();
    await winnings(winner, parseEther('0.01'));
    // SSTORE on receipt: about 22k gas of execution, as a smart account's receive hook might use.
    await t.chain.testClient.setCode({ address: winner, bytecode: '0x600160005500' });
    const answer = await claimWinnings(claims, { userAddress: winner, scope: 'markets' });
    expect(answer).toMatchObject({ success: true, payoutStatus: 'confirmed' });
    expect(await balanceOf(winner)).toBe(parseEther('0.01'));
    const [row] = await payoutsTo(winner);
    expect(row?.gasLimit).toBeGreaterThan(21_000n);
  });

  test('a recipient whose code reverts gets PAYOUT_FAILED, its bets are claimable again, and a later claim pays', async () => {
    const winner = freshAddress();
    const [bet] = await winnings(winner, parseEther('0.01'));
    await t.chain.testClient.setCode({ address: winner, bytecode: '0x60006000fd' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/claims',
      payload: { userAddress: winner, scope: 'all' },
    });
    expect(response.statusCode).toBe(502);
    expect(response.json().error).toMatchObject({ code: 'PAYOUT_FAILED' });
    expect(response.json().error.message).toMatch(/cannot pay .* still claimable/);
    const [failed] = await payoutsTo(winner);
    expect(failed).toMatchObject({
      status: 'failed',
      nonce: null,
      released: { bets: [bet?.id], oracleBets: [], payments: [] },
    });
    const claimable = await t.app.inject({ method: 'GET', url: `/api/users/${winner}/claimable` });
    expect(claimable.json().markets.totalWei).toBe(parseEther('0.01').toString());

    await t.chain.testClient.setCode({ address: winner, bytecode: '0x' });
    const again = await claimWinnings(claims, { userAddress: winner, scope: 'all' });
    expect(again).toMatchObject({ success: true, payoutStatus: 'confirmed' });
    expect(await balanceOf(winner)).toBe(parseEther('0.01'));
  });

  test('a payout whose receipt reverts is failed, and the ops CLI re-issues it to an address the winner signed for', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const winner = owner.address.toLowerCase();
    const [bet] = await winnings(owner.address, parseEther('0.03'));
    await t.chain.testClient.setAutomine(false);
    try {
      const pending = await claimWinnings(
        { ...claims, claimWaitMs: 300 },
        { userAddress: winner, scope: 'all' },
      );
      expect(pending.payoutStatus).toBe('pending');
      // The account turns into a smart account that refuses BNB after the payout was signed.
      await t.chain.testClient.setCode({ address: owner.address, bytecode: '0x60006000fd' });
      await t.chain.testClient.mine({ blocks: 1 });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    await advanceOpenPayouts(processor());
    const [failed] = await payoutsTo(winner);
    expect(failed?.status).toBe('failed');
    expect(failed?.lastError).toMatch(/reverted on chain/);
    const [released] = await t.db
      .select()
      .from(bets)
      .where(eq(bets.id, bet?.id ?? -1));
    expect(released).toMatchObject({ payoutId: null, status: 'won' });
    if (!failed) throw new Error('no failed payout');

    const newAddress = freshAddress();
    const expiry = BigInt(Math.floor(t.clock.now().getTime() / 1000) + 600);
    const sign = (payoutId: number, to: `0x${string}`, until: bigint) =>
      owner.signTypedData(
        payoutReissueTypedData({ chainId: 31337, payoutId, newAddress: to, expiry: until }),
      );
    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = await stranger.signTypedData(
      payoutReissueTypedData({ chainId: 31337, payoutId: failed.id, newAddress, expiry }),
    );
    const reissue = (signature: Hash, until = expiry) =>
      ops([
        'payouts:reissue',
        String(failed.id),
        '--to',
        newAddress,
        '--expiry',
        String(until),
        '--signature',
        signature,
      ]);

    expect((await reissue(forged)).text).toMatch(/^Refused: The signature is not/);
    const past = expiry - 3600n;
    expect((await reissue(await sign(failed.id, newAddress, past), past)).text).toBe(
      'Refused: The signature has expired.',
    );
    const done = await reissue(await sign(failed.id, newAddress, expiry));
    expect(done.code).toBe(0);
    expect(done.text).toMatch(new RegExp(`to ${newAddress} created \\(re-issue of #${failed.id}\\)`));
    const job = payoutsJob();
    await job.run();
    await job.run();
    expect(await balanceOf(newAddress)).toBe(parseEther('0.03'));
    const [claimed] = await t.db
      .select()
      .from(bets)
      .where(eq(bets.id, bet?.id ?? -1));
    expect(claimed?.status).toBe('claimed');
    // The same signature cannot pay twice.
    expect((await reissue(await sign(failed.id, newAddress, expiry))).text).toMatch(
      /Nothing of payout .* is left to pay/,
    );
  });
});

describe('one payout never blocks the others, fees stay bounded (F11)', () => {
  test('a payout the vault cannot fund waits unsigned while later payouts go out', async () => {
    const big = freshAddress();
    const small = freshAddress();
    await winnings(big, parseEther('1'));
    await winnings(small, parseEther('0.001'));
    await t.chain.testClient.setBalance({ address: signer.address, value: parseEther('0.05') });
    try {
      await expect(claimWinnings(claims, { userAddress: big, scope: 'all' })).rejects.toMatchObject({
        code: 'PAYOUT_FAILED',
      });
      const [waiting] = await payoutsTo(big);
      expect(waiting).toMatchObject({ status: 'created', nonce: null });
      expect(waiting?.lastError).toMatch(/vault short of funds/);
      const answer = await claimWinnings(claims, { userAddress: small, scope: 'all' });
      expect(answer.payoutStatus).toBe('confirmed');
      expect(await balanceOf(small)).toBe(parseEther('0.001'));
    } finally {
      await refillVault();
    }
    const job = payoutsJob();
    await job.run();
    await job.run();
    expect(await balanceOf(big)).toBe(parseEther('1'));
    const [paid] = await payoutsTo(big);
    expect(paid?.status).toBe('confirmed');
  });

  test('a claim request never raises a queued payout fees, and the job replacements stop at the ceiling', async () => {
    const winner = freshAddress();
    await winnings(winner, parseEther('0.004'));
    const ceiling = parseGwei('4');
    await t.chain.testClient.setAutomine(false);
    try {
      await claimWinnings({ ...claims, claimWaitMs: 0 }, { userAddress: winner, scope: 'all' });
      const [first] = await payoutsTo(winner);
      let later = Date.now();
      for (let i = 0; i < 5; i++) {
        later += 61_000;
        await claimWinnings(
          { ...claims, claimWaitMs: 0, now: () => later },
          { userAddress: winner, scope: 'all' },
        );
      }
      const [afterClaims] = await payoutsTo(winner);
      expect(afterClaims?.txHashes).toEqual(first?.txHashes);
      for (let i = 0; i < 30; i++) {
        later += 61_000;
        await advanceOpenPayouts(processor({ now: () => later, maxFeePerGas: ceiling }));
      }
      const [bumped] = await payoutsTo(winner);
      expect(bumped?.txHashes.length).toBeGreaterThan(1);
      expect(bumped?.maxFeePerGas).toBeLessThanOrEqual(ceiling);
      expect(bumped?.maxPriorityFeePerGas).toBeLessThanOrEqual(ceiling);
      await t.chain.testClient.mine({ blocks: 1 });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    await advanceOpenPayouts(processor());
    expect((await payoutsTo(winner))[0]?.status).toBe('confirmed');
    expect(await balanceOf(winner)).toBe(parseEther('0.004'));
  });

  test('a payout whose nonce a foreign transaction used is signed again at a fresh nonce and pays once', async () => {
    const winner = freshAddress();
    await winnings(winner, parseEther('0.006'));
    await t.chain.testClient.setAutomine(false);
    let first: typeof payouts.$inferSelect | undefined;
    try {
      await claimWinnings({ ...claims, claimWaitMs: 0 }, { userAddress: winner, scope: 'all' });
      [first] = await payoutsTo(winner);
      await t.chain.testClient.dropTransaction({ hash: hashOf(first?.txHash) });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    // The vault key used elsewhere (an operator's withdrawal) takes the payout's nonce.
    await t.chain.vault.sendTransaction({ to: freshAddress(), value: 1n, nonce: Number(first?.nonce) });
    const job = payoutsJob();
    for (let i = 0; i < 4; i++) await job.run();
    const rows = await payoutsTo(winner);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('confirmed');
    expect(rows[0]?.nonce).toBeGreaterThan(first?.nonce ?? 0n);
    expect(await balanceOf(winner)).toBe(parseEther('0.006'));
  });

  test('a signed payout the vault can no longer fund frees its nonce, and the payouts behind it go out', async () => {
    const big = freshAddress();
    const small = freshAddress();
    await winnings(big, parseEther('0.5'));
    await winnings(small, parseEther('0.002'));
    await t.chain.testClient.setAutomine(false);
    try {
      await claimWinnings({ ...claims, claimWaitMs: 0 }, { userAddress: big, scope: 'all' });
      await claimWinnings({ ...claims, claimWaitMs: 0 }, { userAddress: small, scope: 'all' });
      for (const row of [...(await payoutsTo(big)), ...(await payoutsTo(small))])
        await t.chain.testClient.dropTransaction({ hash: hashOf(row.txHash) });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    // Funds swept after signing: the big payout can no longer be sent.
    await t.chain.testClient.setBalance({ address: signer.address, value: parseEther('0.1') });
    try {
      const job = payoutsJob();
      for (let i = 0; i < 4; i++) await job.run();
      expect((await payoutsTo(small))[0]?.status).toBe('confirmed');
      expect(await balanceOf(small)).toBe(parseEther('0.002'));
      const [waiting] = await payoutsTo(big);
      expect(waiting).toMatchObject({ status: 'created', nonce: null });
      expect(waiting?.lastError).toMatch(/vault short of funds/);
    } finally {
      await refillVault();
    }
    const job = payoutsJob();
    await job.run();
    await job.run();
    expect((await payoutsTo(big))[0]?.status).toBe('confirmed');
    expect(await balanceOf(big)).toBe(parseEther('0.5'));
  });

  test('a signed payout the node refused for its fee is signed again at today fees', async () => {
    const winner = freshAddress();
    await winnings(winner, parseEther('0.008'));
    await expect(
      claimWinnings({ ...claims, crashAfter: 'signed' }, { userAddress: winner, scope: 'all' }),
    ).rejects.toMatchObject({ code: 'PAYOUT_FAILED' });
    try {
      await t.chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('50') });
      await t.chain.testClient.mine({ blocks: 1 });
      const job = payoutsJob({ maxFeePerGas: parseGwei('100') });
      await job.run();
      expect((await payoutsTo(winner))[0]?.lastError).toMatch(/refused for its fee/);
      await job.run();
      await job.run();
      const [paid] = await payoutsTo(winner);
      expect(paid?.status).toBe('confirmed');
      expect(paid?.txHashes).toHaveLength(2);
      expect(paid?.maxFeePerGas).toBeGreaterThan(parseGwei('40'));
      expect(await balanceOf(winner)).toBe(parseEther('0.008'));
    } finally {
      await t.chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('1') });
      await t.chain.testClient.mine({ blocks: 1 });
    }
  });

  test('the fee ceiling is read from PAYOUT_MAX_FEE_PER_GAS_GWEI', () => {
    expect(loadConfig({}).payouts.maxFeePerGas).toBe(parseGwei('10'));
    expect(loadConfig({ PAYOUT_MAX_FEE_PER_GAS_GWEI: '0.5' }).payouts.maxFeePerGas).toBe(parseGwei('0.5'));
    expect(() => loadConfig({ PAYOUT_MAX_FEE_PER_GAS_GWEI: 'lots' })).toThrow(/PAYOUT_MAX_FEE_PER_GAS_GWEI/);
  });
});

describe('several instances', () => {
  test('two payouts jobs running at once pay each refund and each claim exactly once', async () => {
    const payers = [freshAddress(), freshAddress(), freshAddress()];
    for (const payer of payers)
      await insertPayment(t.db, { from: payer, amount: parseEther('0.002'), status: 'refund_due' });
    const winner = freshAddress();
    await winnings(winner, parseEther('0.009'));
    await t.chain.testClient.setAutomine(false);
    try {
      await claimWinnings({ ...claims, claimWaitMs: 0 }, { userAddress: winner, scope: 'all' });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    const [first, second] = [payoutsJob(), payoutsJob()];
    for (let i = 0; i < 3; i++) await Promise.all([first.run(), second.run()]);
    for (const payer of payers) {
      expect(await balanceOf(payer)).toBe(parseEther('0.002'));
      expect(await payoutsTo(payer)).toHaveLength(1);
    }
    expect(await balanceOf(winner)).toBe(parseEther('0.009'));
    expect((await payoutsTo(winner)).map((row) => row.status)).toEqual(['confirmed']);
  });
});

describe('refunds that cost more than they return (F16)', () => {
  test('a refund below its gas cost is held, listed by payouts:status, and paid by payouts:pay-held', async () => {
    const payer = freshAddress();
    const dust = await insertPayment(t.db, { from: payer, amount: 1_000n, status: 'refund_due' });
    const job = payoutsJob();
    await job.run();
    expect(await paymentById(dust.id)).toMatchObject({ status: 'refund_held', refundPayoutId: null });
    expect((await paymentById(dust.id))?.refundLastError).toMatch(/does not exceed its gas cost/);
    expect(await balanceOf(payer)).toBe(0n);

    const status = await ops(['payouts:status']);
    expect(status.text).toMatch(
      new RegExp(`payment #${dust.id} refund held .*1000 wei.* → ${payer}  age \\d+s`),
    );
    expect(status.text).toMatch(
      /#\d+ claim failed {2}nonce - .* attempts 0 {2}age \d+s\n {4}last error: a transfer to/,
    );

    const paid = await ops(['payouts:pay-held', String(dust.id)]);
    expect(paid.text).toMatch(/refund payout #\d+ of .* created/);
    await job.run();
    await job.run();
    expect(await balanceOf(payer)).toBe(1_000n);
    expect((await paymentById(dust.id))?.status).toBe('refunded');
  });

  test('a refund below REFUND_MIN_WEI is held', async () => {
    const payment = await insertPayment(t.db, {
      from: freshAddress(),
      amount: parseEther('0.001'),
      status: 'refund_due',
    });
    await payoutsJob({ refundMinWei: parseEther('0.002') }).run();
    expect(await paymentById(payment.id)).toMatchObject({ status: 'refund_held' });
    expect((await paymentById(payment.id))?.refundLastError).toMatch(/below REFUND_MIN_WEI/);
  });
});

function hashOf(value: string | null | undefined): Hash {
  if (!value || !/^0x[0-9a-f]{64}$/.test(value)) throw new Error(`not a hash: ${value}`);
  return `0x${value.slice(2)}`;
}

/** The test node behind a transport that fails the given methods, as an RPC outage would. */
function chainWithout(failing: string[]): PublicClient {
  return createPublicClient({
    chain: localChain,
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (failing.includes(method)) throw new Error(`${method} is unavailable`);
        const response = await fetch(t.chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        const body = RpcResponseSchema.parse(await response.json());
        if (body.error) throw new Error(body.error.message);
        return body.result;
      },
    }),
  });
}

const RpcResponseSchema = z.object({
  result: z.unknown().optional(),
  error: z.object({ message: z.string() }).optional(),
});

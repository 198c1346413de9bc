import { MAX_PENDING_PAYMENTS_PER_SENDER } from '@pm/core/constants';
import { postBet } from '@pm/pay-and-post/pay-and-post-bet';
import { payForMarket, placeMarketOrder } from '@pm/pay-and-post/pay-and-post-market';
import { walletPayer } from '@pm/pay-and-post/payer';
import { eq } from 'drizzle-orm';
import { parseEther, stringToHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chainCursors, escrowDeposits, paymentRequests, payments } from '../src/db/schema.ts';
import { paymentsCommands } from '../src/ops/payments-commands.ts';
import { createFaultyChainClient, type FaultyChainClient } from './support/faulty-chain.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { runOps } from './support/ops-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 010: no single bad transaction, request or fault stops the money moving. Each test
// reproduces one such fault against the real node and database.

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
let rpc: FaultyChainClient;

const reconcileEscrow = () => t.job('escrow-reconciliation').run();
const runPendingPayments = () => t.job('pending-payments').run();

async function depositRowOf(txHash: string) {
  const [row] = await t.db
    .select()
    .from(escrowDeposits)
    .where(eq(escrowDeposits.txHash, txHash.toLowerCase()));
  return row;
}

async function requestRow(txHash: string) {
  const [row] = await t.db
    .select()
    .from(paymentRequests)
    .where(eq(paymentRequests.txHash, txHash.toLowerCase()));
  return row;
}

beforeAll(async () => {
  // The server's RPC client has faults at hand.
  t = await startTestApp(
    { PAYMENT_WAIT_MS: '1500' },
    {
      chainClient: (rpcUrl) => {
        rpc = createFaultyChainClient(rpcUrl);
        return rpc.client;
      },
    },
  );
  m = marketHelpers(t);
});
afterAll(() => t?.close());

describe('poison payments', () => {
  test('a 0-wei payment posted as a bet is refused before verification and stores nothing', async () => {
    const { market } = await m.createMarket({ description: 'Poison 0 wei' });
    // The escrow refuses a deposit of 0 (ZeroAmount): a 0-wei bet can only be claimed, never paid.
    await expect(m.payBet(market.id, { amountWei: 0n })).rejects.toThrow();
    const poison = await m.postJoin(market.id, { amountWei: 0n, txHash: `0x${'ef'.repeat(32)}` });
    expect(poison.response.statusCode).toBe(400);
    expect(poison.response.json().error.code).toBe('VALIDATION_FAILED');
    expect(await m.paymentRow(poison.txHash)).toBeUndefined();

    // The honest under-minimum deposit after it is still kept, to be given back by the escrow.
    const owed = await m.postJoin(market.id, { amountWei: parseEther('0.001') });
    expect(owed.response.json().error.code).toBe('AMOUNT_TOO_LOW');
    expect(await m.paymentRow(owed.txHash)).toMatchObject({
      status: 'escrow_refund',
      amount: parseEther('0.001'),
    });
  });

  test('the database refuses a payment of 0 wei', async () => {
    await expect(
      t.db.insert(payments).values({
        chainId: 31337,
        txHash: `0x${'ab'.repeat(32)}`,
        fromAddress: m.player(1).account.address.toLowerCase(),
        amount: 0n,
        intent: '',
        blockNumber: 1n,
        blockTime: new Date(),
        purpose: 'unknown',
        status: 'escrow_refund',
        stakeId: 1n,
        logIndex: 0,
      }),
    ).rejects.toThrow();
  });

  test('a market id past what the database stores is not found, never a server error', async () => {
    const read = await t.app.inject({ method: 'GET', url: '/api/markets/3000000000' });
    expect(read.statusCode).toBe(404);
    expect(read.json().error.code).toBe('MARKET_NOT_FOUND');
    const join = await m.postJoin(3_000_000_000, { txHash: `0x${'cd'.repeat(32)}` });
    expect(join.response.statusCode).toBe(404);
    const claim = await t.app.inject({
      method: 'POST',
      url: '/api/claims',
      payload: { userAddress: m.player(1).account.address, scope: 'all', betId: 3_000_000_000 },
    });
    expect(claim.statusCode).toBe(400);
  });

  test('a 1-wei plain transfer to the escrow naming market 3000000000 reverts: it moves nothing, and the bet after it is recorded', async () => {
    const { market } = await m.createMarket({ description: 'Poison intent' });
    const attacker = m.extraWallet(11);
    const escrow = t.config.escrow.address;
    if (!escrow) throw new Error('the test app deploys an escrow');
    // The contract takes typed deposits only (docs/decisions/025): nothing arrives without an owner.
    await expect(
      m.pay(attacker, null, 1n, { to: escrow, data: stringToHex('pm1:bet:3000000000:YES') }),
    ).rejects.toThrow();
    // A bet deposited whose tab closed before posting it: escrow reconciliation records it.
    const honest = await m.payBet(market.id, { player: 2, prediction: 'NO', amountWei: parseEther('0.02') });
    await reconcileEscrow();
    expect(await m.paymentRow(honest)).toMatchObject({ status: 'recorded', amount: parseEther('0.02') });
  });
});

describe('reconciliation never skips and never stops', () => {
  test('an RPC outage while recording leaves the transfer queued, and it is recorded once the RPC is back', async () => {
    const { market } = await m.createMarket({ description: 'RPC outage' });
    const txHash = await m.payBet(market.id, {
      wallet: m.extraWallet(13),
      prediction: 'YES',
      amountWei: parseEther('0.03'),
    });
    const { blockNumber } = await t.chain.publicClient.getTransactionReceipt({ hash: txHash });

    rpc.fail('eth_getTransactionByHash');
    await reconcileEscrow();
    rpc.heal();
    // The scan went past the block (nothing can hold it), but nothing was stored as handled.
    const [cursor] = await t.db.select().from(chainCursors).where(eq(chainCursors.name, 'escrow-deposits'));
    expect(cursor?.blockNumber).toBeGreaterThanOrEqual(blockNumber);
    expect(await m.paymentRow(txHash)).toBeUndefined();
    const queued = await depositRowOf(txHash);
    expect(queued).toMatchObject({ resolvedAt: null, attempts: 1 });
    expect(queued?.lastError).toMatch(/CHAIN_UNAVAILABLE|limit exceeded/i);

    await t.advanceTime(11); // past the first backoff
    await reconcileEscrow();
    expect(await m.paymentRow(txHash)).toMatchObject({ status: 'recorded' });
    expect(await depositRowOf(txHash)).toMatchObject({ outcome: 'recorded' });
  });

  test('a request that meets an RPC outage answers 503 CHAIN_UNAVAILABLE, not a server error', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3_100)); // past the health check's cache
    rpc.fail('eth_blockNumber');
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('CHAIN_UNAVAILABLE');
    } finally {
      rpc.heal();
    }
  });

  test('a create waiting for its request does not hold back the bets paid after it', async () => {
    const { market } = await m.createMarket({ description: 'Grace does not block' });
    const creator = m.extraWallet(12);
    const escrow = t.config.escrow.address;
    if (!escrow) throw new Error('the test app deploys an escrow');
    // A creation deposited whose tab closed before posting it.
    const order = await placeMarketOrder(walletPayer(creator), {
      terms: { category: 'crypto', duration: 'hourly', description: 'posted late' },
      prediction: 'YES',
      amountWei: parseEther('0.01'),
    });
    const create = await payForMarket(walletPayer(creator), escrow, order);
    const bet = await m.payBet(market.id, { wallet: m.extraWallet(16), amountWei: parseEther('0.01') });
    await reconcileEscrow();
    expect(await m.paymentRow(bet)).toMatchObject({ status: 'recorded' });
    expect(await depositRowOf(create)).toMatchObject({ resolvedAt: null });
    // The browser posts the create within the grace: it becomes the market, not a refund.
    const posted = await m.postCreate(
      { description: 'posted late' },
      {
        player: 0,
        txHash: create,
        escrowId: order.escrowId,
        closesAt: order.closesAt,
        body: { creatorAddress: creator.account.address },
      },
    );
    expect(posted.response.statusCode).toBe(201);
    await t.advanceTime(601);
    await reconcileEscrow();
    expect(await m.paymentRow(create)).toMatchObject({ status: 'recorded' });
    expect(await depositRowOf(create)).toMatchObject({ outcome: 'known' });
  });

  test('the same paid request sent twice at once records one bet and answers both with it', async () => {
    const { market } = await m.createMarket({ description: 'Twice at once' });
    const wallet = m.extraWallet(17);
    const bet = { marketId: market.id, prediction: 'NO', amountWei: parseEther('0.01') } as const;
    const txHash = await m.payBet(market.id, { wallet, ...bet });
    const [a, b] = await Promise.all(
      [0, 1].map(async () => {
        const posted = await postBet(m.api, { ...bet, userAddress: wallet.account.address, txHash });
        return posted.response;
      }),
    );
    expect([a?.statusCode, b?.statusCode]).toEqual([201, 201]);
    expect(a?.json().bet.id).toBe(b?.json().bet.id);
  });
});

describe('pending requests end', () => {
  test('a bet naming a random transaction hash is TX_NOT_FOUND after a few RPC reads', async () => {
    const { market } = await m.createMarket({ description: 'Random hash' });
    rpc.resetCalls();
    const { response } = await m.postJoin(market.id, { txHash: `0x${'12'.repeat(32)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('TX_NOT_FOUND');
    // Looked up (not refused before verification), and only a few times: a made-up hash costs little.
    expect(rpc.calls('eth_getTransactionByHash')).toBeGreaterThanOrEqual(1);
    expect(rpc.calls('eth_getTransactionByHash')).toBeLessThanOrEqual(6);
    expect(await m.paymentRow(`0x${'12'.repeat(32)}`)).toBeUndefined();
  });

  test('a payment dropped from the mempool is forgotten after its expiry, and nothing is recorded', async () => {
    const { market } = await m.createMarket({ description: 'Dropped payment' });
    await t.chain.testClient.setAutomine(false);
    let txHash: `0x${string}`;
    try {
      const posted = await m.postJoin(market.id, { wallet: m.extraWallet(18) });
      txHash = posted.txHash;
      expect(posted.response.statusCode).toBe(202);
      await t.chain.testClient.dropTransaction({ hash: txHash });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    await runPendingPayments();
    expect(await requestRow(txHash)).toMatchObject({ resolvedAt: null, lastError: 'TX_NOT_FOUND' });

    await t.advanceTime(1801);
    await runPendingPayments();
    expect(await requestRow(txHash)).toMatchObject({ lastError: 'EXPIRED' });
    expect((await requestRow(txHash))?.resolvedAt).not.toBeNull();
    expect(await m.paymentRow(txHash)).toBeUndefined();
  });

  test('a sender may keep only so many payments waiting to confirm', async () => {
    const { market } = await m.createMarket({ description: 'Too many waiting' });
    const sender = m.extraWallet(19).account.address.toLowerCase();
    await t.db.insert(paymentRequests).values(
      Array.from({ length: MAX_PENDING_PAYMENTS_PER_SENDER }, (_, i) => ({
        chainId: 31337,
        txHash: `0x${i.toString(16).padStart(64, 'f')}`,
        fromAddress: sender,
        purpose: 'market_bet',
        request: {},
      })),
    );
    await t.chain.testClient.setAutomine(false);
    try {
      const posted = await m.postJoin(market.id, { wallet: m.extraWallet(19) });
      expect(posted.response.statusCode).toBe(429);
      expect(posted.response.json().error.code).toBe('RATE_LIMITED');
      expect(await requestRow(posted.txHash)).toBeUndefined();
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
  });
});

describe('the operator’s view (ops)', () => {
  const ops = (...argv: string[]) => runOps(t, paymentsCommands, ...argv);

  test('payments:status lists what the money path is still working on', async () => {
    const { code, output } = await ops('payments:status');
    expect(code).toBe(0);
    expect(output).toMatch(/Escrow deposits being settled: \d+/);
    expect(output).toMatch(/Refused escrow deposits being given back: \d+/);
    expect(output).toMatch(/Payment requests waiting for their transaction: \d+/);
  });
});

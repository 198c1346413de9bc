import { MIN_MARKET_BET_WEI } from '@pm/core/constants';
import {
  ListMarketsResponseSchema,
  MarketDetailResponseSchema,
  PendingPaymentResponseSchema,
} from '@pm/core/contract/markets';
import { UserBetsResponseSchema } from '@pm/core/contract/users';
import { marketContentHash } from '@pm/core/intent';
import { marketKey } from '@pm/escrow/market-key';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { keccak256, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bets, markets, outbox, paymentRequests, userStats } from '../src/db/schema.ts';
import { PROMPT_VERSION } from '../src/resolution/resolver-prompt.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;

beforeAll(async () => {
  // A short wait for payments that never appear keeps the error-path tests quick.
  t = await startTestApp({ PAYMENT_WAIT_MS: '1000' });
  m = marketHelpers(t);
});
afterAll(() => t?.close());

const runJob = (name: string) => t.job(name).run();

const marketCount = async () => (await t.db.select({ id: markets.id }).from(markets)).length;

describe('creating a market', () => {
  test('a paid market is created with the creator bet, totals, its escrow id and key, and the close its deposit named', async () => {
    const before = await t.db.select({ id: outbox.id }).from(outbox).orderBy(desc(outbox.id)).limit(1);
    const fields = {
      description: '  Will BNB close above $700 today?\nSecond line with details.',
      category: 'crypto' as const,
      duration: 'hourly' as const,
      prediction: 'NO' as const,
      resolutionInstructions: 'Use the Binance close.',
    };
    const { response, txHash, payload } = await m.postCreate(fields, { amountWei: parseEther('0.02') });
    expect(response.statusCode).toBe(201);
    const { market, bet } = response.json();
    const creator = m.player(0).account.address.toLowerCase();

    expect(market).toMatchObject({
      creatorAddress: creator,
      title: 'Will BNB close above $700 today?',
      description: fields.description,
      resolutionInstructions: 'Use the Binance close.',
      betType: 'custom_bet',
      category: 'crypto',
      duration: 'hourly',
      status: 'active',
      totalYesWei: '0',
      totalNoWei: parseEther('0.02').toString(),
      yesCount: 0,
      noCount: 1,
      result: null,
      aiVerdict: null,
      aiConfidence: null,
      aiSources: [],
      resolver: { model: 'operator', promptVersion: PROMPT_VERSION, contentHash: marketContentHash(fields) },
    });
    const created = Date.parse(market.createdAt);
    // Decision 026: the deadline is exactly the close the deposit named, an hour from its block.
    expect(market.closesAt).toBe(payload.closesAt);
    expect(Date.parse(market.deadline)).toBe(Number(payload.closesAt) * 1000);
    expect(Math.abs(Date.parse(market.deadline) - created - 3600_000)).toBeLessThan(60_000);
    expect(market.escrowId).toBe(String(payload.escrowId).toLowerCase());
    expect(market.escrowKey).toBe(marketKey(market.escrowId, market.closesAt).toLowerCase());
    expect(Math.abs(created - t.clock.now().getTime())).toBeLessThan(10_000);
    expect(bet).toMatchObject({
      marketId: market.id,
      userAddress: creator,
      prediction: 'NO',
      amountWei: parseEther('0.02').toString(),
      potentialPayoutWei: parseEther('0.04').toString(),
      returnWei: null,
      profitWei: null,
      status: 'pending',
      isCreator: true,
      txHash: txHash.toLowerCase(),
    });

    expect((await m.paymentRow(txHash))?.status).toBe('recorded');
    // The creator's bet is the deposit's stake.
    const [betRow] = await t.db.select().from(bets).where(eq(bets.id, bet.id));
    expect(betRow?.stakeId).toBe((await m.paymentRow(txHash))?.stakeId);
    expect(betRow?.stakeId).not.toBeNull();
    const [stats] = await t.db.select().from(userStats).where(eq(userStats.address, creator));
    expect(stats?.totalBets).toBeGreaterThanOrEqual(1);
    const events = await t.db
      .select({ topic: outbox.topic, payload: outbox.payload })
      .from(outbox)
      .where(gt(outbox.id, before[0]?.id ?? 0));
    expect(events).toEqual(
      expect.arrayContaining([
        { topic: 'markets', payload: { id: market.id } },
        { topic: 'bets', payload: { id: bet.id, marketId: market.id } },
        { topic: 'vault', payload: {} },
      ]),
    );
  });

  test('a daily market closes 24 hours after it is created and keeps the title it was given', async () => {
    const { market } = await m.createMarket({ duration: 'daily', title: 'My own title', category: 'sports' });
    const span = Date.parse(market.deadline) - Date.parse(market.createdAt);
    expect(Math.abs(span - 86_400_000)).toBeLessThan(60_000);
    expect(Date.parse(market.deadline)).toBe(market.closesAt * 1000);
    expect(market.title).toBe('My own title');
  });

  test('a blank description is refused with the spec message and the payment is kept as a refund', async () => {
    const count = await marketCount();
    const { response, txHash } = await m.postCreate({ description: ' \n\t ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'Please enter a bet description' },
    });
    expect(await marketCount()).toBe(count);
    // Given back by the escrow (decision 026).
    expect(await m.paymentRow(txHash)).toMatchObject({
      status: 'escrow_refund',
      refundReason: 'VALIDATION_FAILED',
    });
  });

  test('an amount below 0.005 BNB is AMOUNT_TOO_LOW and the payment is kept as a refund', async () => {
    const count = await marketCount();
    const { response, txHash } = await m.postCreate({}, { amountWei: MIN_MARKET_BET_WEI - 1n });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'AMOUNT_TOO_LOW', message: 'Minimum amount is 0.005 BNB' });
    expect(await marketCount()).toBe(count);
    expect(await m.paymentRow(txHash)).toMatchObject({
      status: 'escrow_refund',
      refundReason: 'AMOUNT_TOO_LOW',
    });
  });

  test('exactly 0.005 BNB is enough', async () => {
    const { market } = await m.createMarket({}, { amountWei: MIN_MARKET_BET_WEI });
    expect(market.totalYesWei).toBe(MIN_MARKET_BET_WEI.toString());
  });

  test('a missing category or prediction answers the spec message', async () => {
    const base = {
      txHash: keccak256(toHex('no category')),
      creatorAddress: m.player(0).account.address,
      description: 'x',
      duration: 'hourly',
      amountWei: '5000000000000000',
    };
    const noCategory = await t.app.inject({
      method: 'POST',
      url: '/api/markets',
      payload: { ...base, prediction: 'YES' },
    });
    expect(noCategory.statusCode).toBe(400);
    expect(noCategory.json().error.message).toContain('Please select a category');
    const noPrediction = await t.app.inject({
      method: 'POST',
      url: '/api/markets',
      payload: { ...base, category: 'crypto' },
    });
    expect(noPrediction.json().error.message).toContain('Please select your prediction');
  });

  test('a description over 2000 characters and unknown fields are refused', async () => {
    const long = await m.postCreate(
      {},
      { txHash: keccak256(toHex('long')), body: { description: 'x'.repeat(2001) } },
    );
    expect(long.response.statusCode).toBe(400);
    const extra = await m.postCreate({}, { txHash: keccak256(toHex('extra')), body: { isAdmin: true } });
    expect(extra.response.statusCode).toBe(400);
    expect(extra.response.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('payment errors on the real endpoints', () => {
  test('an unknown transaction is TX_NOT_FOUND and nothing is recorded', async () => {
    const count = await marketCount();
    const { response } = await m.postCreate({}, { txHash: keccak256(toHex('never sent')) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('TX_NOT_FOUND');
    expect(await marketCount()).toBe(count);
  });

  test('a payment to another address is WRONG_RECIPIENT', async () => {
    const { response } = await m.postCreate({}, { pay: { to: m.player(2).account.address } });
    expect(response.json().error.code).toBe('WRONG_RECIPIENT');
  });

  test('a payment claimed by another address is WRONG_SENDER', async () => {
    const { response } = await m.postCreate({}, { body: { creatorAddress: m.player(1).account.address } });
    expect(response.json().error.code).toBe('WRONG_SENDER');
  });

  test('a body amount that differs from the paid value is WRONG_AMOUNT', async () => {
    const { response } = await m.postCreate({}, { pay: { value: parseEther('0.02') } });
    expect(response.json().error.code).toBe('WRONG_AMOUNT');
  });

  test('a market text other than the one the payment committed to is INTENT_MISMATCH', async () => {
    const { response } = await m.postCreate({}, { body: { description: 'Something else entirely' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INTENT_MISMATCH');
  });

  test('a join paid for the other side is INTENT_MISMATCH', async () => {
    const { market } = await m.createMarket();
    const { response } = await m.postJoin(market.id, { prediction: 'NO', body: { prediction: 'YES' } });
    expect(response.json().error.code).toBe('INTENT_MISMATCH');
  });

  test('the same create sent again answers with the same market and records nothing twice', async () => {
    const { response, payload } = await m.postCreate();
    expect(response.statusCode).toBe(201);
    const again = await t.app.inject({ method: 'POST', url: '/api/markets', payload });
    expect(again.statusCode).toBe(201);
    expect(again.json().market.id).toBe(response.json().market.id);
    expect(again.json().bet.id).toBe(response.json().bet.id);
    const rows = await t.db.select().from(markets).where(eq(markets.id, response.json().market.id));
    expect((rows[0]?.yesCount ?? 0) + (rows[0]?.noCount ?? 0)).toBe(1);
  });

  test('a payment used for another request is TX_ALREADY_USED, whichever endpoint it is posted to', async () => {
    const { response, txHash, payload } = await m.postCreate();
    expect(response.statusCode).toBe(201);
    const otherDescription = await t.app.inject({
      method: 'POST',
      url: '/api/markets',
      payload: { ...payload, description: `${String(payload.description)} (changed)` },
    });
    expect(otherDescription.statusCode).toBe(409);
    expect(otherDescription.json().error.code).toBe('TX_ALREADY_USED');
    const asJoin = await m.postJoin(response.json().market.id, { player: 0, txHash });
    expect(asJoin.response.statusCode).toBe(409);
    expect(asJoin.response.json().error.code).toBe('TX_ALREADY_USED');
  });

  test('joining below 0.005 BNB is AMOUNT_TOO_LOW and the payment is kept as a refund', async () => {
    const { market } = await m.createMarket();
    const { response, txHash } = await m.postJoin(market.id, { amountWei: parseEther('0.004') });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('AMOUNT_TOO_LOW');
    expect((await m.paymentRow(txHash))?.status).toBe('escrow_refund');
  });

  test('joining a market that does not exist is 404 MARKET_NOT_FOUND', async () => {
    const { response, txHash } = await m.postJoin(999_999);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'MARKET_NOT_FOUND', message: 'Market not found' } });
    // No key to check the deposit against: escrow reconciliation reads it and gives it back.
    expect(await m.paymentRow(txHash)).toBeUndefined();
  });
});

describe('joining a market', () => {
  test('a join records the bet and moves the totals and counts of its side', async () => {
    const { market } = await m.createMarket({ prediction: 'YES' }, { amountWei: parseEther('0.01') });
    const upper = `0x${m.player(2).account.address.slice(2).toUpperCase()}`;
    const { response, txHash } = await m.postJoin(market.id, {
      player: 2,
      prediction: 'NO',
      amountWei: parseEther('0.03'),
      body: { userAddress: upper },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.bet).toMatchObject({
      marketId: market.id,
      userAddress: m.player(2).account.address.toLowerCase(),
      prediction: 'NO',
      amountWei: parseEther('0.03').toString(),
      potentialPayoutWei: parseEther('0.06').toString(),
      isCreator: false,
      status: 'pending',
      txHash: txHash.toLowerCase(),
    });
    expect(body.market).toMatchObject({
      totalYesWei: parseEther('0.01').toString(),
      totalNoWei: parseEther('0.03').toString(),
      yesCount: 1,
      noCount: 1,
      // A bet moves the totals, not the market's updatedAt (decision 024: its update stays in its page).
      updatedAt: market.updatedAt,
    });
  });

  test('a deposit mined before the deadline but posted after it is MARKET_CLOSED, given back by the escrow', async () => {
    const { market } = await m.createMarket();
    const txHash = await m.payBet(market.id, { player: 2 });
    await t.advanceTime(3601);
    const bettor = m.player(2).account.address.toLowerCase();
    const betsPlaced = async () =>
      (await t.db.select().from(userStats).where(eq(userStats.address, bettor)))[0]?.totalBets ?? 0;
    const placedBefore = await betsPlaced();
    const lastEvent = async () =>
      (await t.db.select({ id: sql`coalesce(max(${outbox.id}), 0)`.mapWith(Number) }).from(outbox))[0]?.id ??
      0;
    const eventsBefore = await lastEvent();
    const { response } = await m.postJoin(market.id, { player: 2, txHash });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'MARKET_CLOSED',
      message: 'This market has closed and is no longer accepting bets',
    });
    expect(await m.paymentRow(txHash)).toMatchObject({
      status: 'escrow_refund',
      refundReason: 'MARKET_CLOSED',
    });
    const detail = MarketDetailResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/markets/${market.id}` })).json(),
    );
    expect(detail.market).toMatchObject({ yesCount: 1, noCount: 0, totalYesWei: market.totalYesWei });
    expect(detail.bets).toHaveLength(1);
    // The bet, the bettor's count and the bet's events are written before the market is checked
    // (decision 024): the refusal rolls every one of them back.
    expect(await betsPlaced()).toBe(placedBefore);
    const newEvents = await t.db.select().from(outbox).where(gt(outbox.id, eventsBefore));
    expect(newEvents.filter((event) => event.topic === 'bets')).toEqual([]);
  });

  test('a deposit after the deadline is refused by the contract itself: nothing is paid', async () => {
    const { market } = await m.createMarket();
    await t.advanceTime(3601);
    await expect(m.payBet(market.id, { player: 2 })).rejects.toThrow();
  });

  test('50 concurrent joins leave totals and counts equal to the sum of the recorded bets', async () => {
    const { market } = await m.createMarket({}, { amountWei: parseEther('0.01') });
    const joins = [];
    for (let i = 0; i < 50; i++) {
      const wallet = m.extraWallet(4 + (i % 10));
      const prediction = i % 3 === 0 ? ('NO' as const) : ('YES' as const);
      const amountWei = MIN_MARKET_BET_WEI + BigInt(i) * 1_000_000_000_000n;
      const txHash = await m.payBet(market.id, { wallet, prediction, amountWei });
      joins.push({ wallet, prediction, amountWei, txHash });
    }
    const responses = await Promise.all(joins.map((join) => m.postJoin(market.id, join)));
    expect(responses.map(({ response }) => response.statusCode)).toEqual(joins.map(() => 201));

    const rows = await t.db.select().from(bets).where(eq(bets.marketId, market.id));
    const sum = (side: string) =>
      rows.filter((row) => row.prediction === side).reduce((a, row) => a + row.amount, 0n);
    const [after] = await t.db.select().from(markets).where(eq(markets.id, market.id));
    expect(rows).toHaveLength(51);
    expect(after?.totalYesAmount).toBe(sum('YES'));
    expect(after?.totalNoAmount).toBe(sum('NO'));
    expect(after?.yesCount).toBe(rows.filter((row) => row.prediction === 'YES').length);
    expect(after?.noCount).toBe(rows.filter((row) => row.prediction === 'NO').length);
    const sent = joins.reduce((a, join) => a + join.amountWei, 0n) + parseEther('0.01');
    expect((after?.totalYesAmount ?? 0n) + (after?.totalNoAmount ?? 0n)).toBe(sent);
  });
});

describe('payments not final yet', () => {
  test('a create whose payment is still in the mempool answers 202 and is recorded by the job once mined', async () => {
    await t.chain.testClient.setAutomine(false);
    let pending: Awaited<ReturnType<typeof m.postCreate>>;
    try {
      pending = await m.postCreate({ description: 'Recorded later' });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    expect(pending.response.statusCode).toBe(202);
    expect(PendingPaymentResponseSchema.parse(pending.response.json()).txHash).toBe(
      pending.txHash.toLowerCase(),
    );
    await t.chain.testClient.mine({ blocks: 1 });
    await runJob('pending-payments');

    const [created] = await t.db.select().from(markets).where(eq(markets.description, 'Recorded later'));
    expect(created?.yesCount).toBe(1);
    const [request] = await t.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.txHash, pending.txHash.toLowerCase()));
    expect(request?.resolvedAt).not.toBeNull();
    // The browser's own request arriving after the job recorded it gets the market, not an error.
    const again = await t.app.inject({ method: 'POST', url: '/api/markets', payload: pending.payload });
    expect(again.statusCode).toBe(201);
    expect(again.json().market.id).toBe(created?.id);
  });

  test('a pending join mined after the deadline reverts on chain: the replay is refused and nothing is kept', async () => {
    const { market } = await m.createMarket();
    await t.chain.testClient.setAutomine(false);
    let pending: Awaited<ReturnType<typeof m.postJoin>>;
    try {
      pending = await m.postJoin(market.id);
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    expect(pending.response.statusCode).toBe(202);
    await t.advanceTime(3601);
    await runJob('pending-payments');
    // The contract refused the deposit at its block (past the close): no money moved, nothing to give back.
    expect(await m.paymentRow(pending.txHash)).toBeUndefined();
    const [request] = await t.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.txHash, pending.txHash.toLowerCase()));
    expect(request?.resolvedAt).not.toBeNull();
    const [after] = await t.db.select().from(markets).where(eq(markets.id, market.id));
    expect(after?.yesCount).toBe(1);
  });
});

describe('reading markets', () => {
  test('open markets are active and settling ones, newest first, with counts per category', async () => {
    await m.createMarket({ category: 'politics' });
    await runJob('market-settlement'); // no AI here: expired markets move to settling and wait
    const response = await t.app.inject({ method: 'GET', url: '/api/markets' });
    expect(response.statusCode).toBe(200);
    const { markets: list, counts } = ListMarketsResponseSchema.parse(response.json());
    expect(list.some((market) => market.status === 'settling')).toBe(true);
    expect(list.every((market) => market.status !== 'settled')).toBe(true);
    const created = list.map((market) => Date.parse(market.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(counts.all).toBe(list.length);
    expect(counts.politics).toBe(list.filter((market) => market.category === 'politics').length);
    expect(counts.gaming).toBe(0);

    const sports = ListMarketsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/markets?category=sports&status=open' })).json(),
    );
    expect(sports.markets.length).toBeGreaterThan(0);
    expect(sports.markets.every((market) => market.category === 'sports')).toBe(true);
    expect(sports.counts).toEqual(counts);
  });

  test('the limit bounds the list, and bad filters are refused', async () => {
    const one = await t.app.inject({ method: 'GET', url: '/api/markets?limit=1' });
    expect(one.json().markets).toHaveLength(1);
    const bad = await t.app.inject({ method: 'GET', url: '/api/markets?category=weather' });
    expect(bad.statusCode).toBe(400);
  });

  test('one market comes with its bets newest first; an unknown id is 404', async () => {
    const { market } = await m.createMarket();
    await m.joinMarket(market.id, { player: 1, prediction: 'NO' });
    await m.joinMarket(market.id, { player: 2, prediction: 'YES' });
    const detail = MarketDetailResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/markets/${market.id}` })).json(),
    );
    expect(detail.bets.map((bet) => bet.userAddress)).toEqual(
      [2, 1, 0].map((i) => m.player(i).account.address.toLowerCase()),
    );
    expect(detail.bets.at(-1)?.isCreator).toBe(true);
    const missing = await t.app.inject({ method: 'GET', url: '/api/markets/424242' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('MARKET_NOT_FOUND');
  });

  test("a wallet's bets come newest first with their market, whatever the address case", async () => {
    const address = m.player(2).account.address;
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/${address.toUpperCase().replace('0X', '0x')}/bets`,
    });
    expect(response.statusCode).toBe(200);
    const { bets: list } = UserBetsResponseSchema.parse(response.json());
    const [{ count } = { count: 0 }] = await t.db
      .select({ count: sql`count(*)`.mapWith(Number) })
      .from(bets)
      .where(and(eq(bets.userAddress, address.toLowerCase())));
    expect(list).toHaveLength(count);
    expect(list.every((bet) => bet.userAddress === address.toLowerCase())).toBe(true);
    const times = list.map((bet) => Date.parse(bet.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const [first] = list;
    const [market] = await t.db
      .select()
      .from(markets)
      .where(eq(markets.id, first?.marketId ?? 0));
    expect(first?.market).toEqual({
      title: market?.title,
      status: market?.status,
      result: null,
      category: market?.category,
      deadline: market?.deadline.toISOString(),
    });
  });

  test('an address that is not one is refused', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/users/0x1234/bets' });
    expect(response.statusCode).toBe(400);
  });
});

describe('analyzing a question without AI', () => {
  test('the answer says no AI is configured (an operator decides), and a new market has no evidence yet', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/markets/analyze',
      payload: { description: 'Will BNB close above $700 today?', duration: 'hourly' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      aiConfigured: false,
      decidable: null,
      problems: [],
      suggestedInstructions: null,
      model: null,
    });
    const { market } = await m.createMarket({ prediction: 'YES' }, { amountWei: parseEther('0.01') });
    const detail = await t.app.inject(`/api/markets/${market.id}`);
    expect(detail.json().evidence).toBeNull();
  });
});

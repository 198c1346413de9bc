import { HistoryResponseSchema } from '@pm/core/contract/history';
import { ListMarketsResponseSchema, MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { priceMarketContentHash } from '@pm/core/price-market';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bets, markets } from '../src/db/schema.ts';
import { priceSettlementGiveUpMs } from '../src/price-markets/price-settlement-job.ts';
import { createSettlementJob } from '../src/settlement/settlement-job.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { priceMarketHelpers } from './support/price-market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 020: Price Oracle markets, created against a fresh sample and settled from the
// first fresh sample at or after the deadline, with no AI and no review window.

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
let p: ReturnType<typeof priceMarketHelpers>;

beforeAll(async () => {
  t = await startTestApp({ PAYMENT_WAIT_MS: '1000' });
  m = marketHelpers(t);
  p = priceMarketHelpers(t, m);
});
afterAll(() => t?.close());

const runJob = (name: string) => t.job(name).run();
/** The deadline passes: the markets job closes it, the price job settles it (no sampler run). */
const settleJobs = async () => {
  await runJob('market-settlement');
  await runJob('price-market-settlement');
};
const detail = async (id: number) =>
  MarketDetailResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/markets/${id}` })).json());
const marketCount = async () => (await t.db.select({ id: markets.id }).from(markets)).length;

describe('creating a price market', () => {
  test('with no price of the coin yet, the creation is PRICE_UNAVAILABLE and the payment is kept as a refund', async () => {
    const count = await marketCount();
    const { response, txHash } = await p.postCreatePrice({ targetSymbol: 'ADA', targetPrice: '1' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('PRICE_UNAVAILABLE');
    expect(await marketCount()).toBe(count);
    expect(await m.paymentRow(txHash)).toMatchObject({
      status: 'escrow_refund',
      refundReason: 'PRICE_UNAVAILABLE',
    });
  });

  test('a paid creation records the terms, the start price, the feed and a title the server wrote', async () => {
    await p.setPrice('BTC', '97000.12345678');
    const { market, bet } = await p.createPriceMarket({ targetPrice: '100000.5' });
    const deadline = new Date(market.deadline);
    // Decision 026: the close the creation's deposit named, an hour from its block.
    expect(deadline.getTime()).toBe(market.closesAt * 1000);
    expect(Math.abs(deadline.getTime() - new Date(market.startTime).getTime() - 3600_000)).toBeLessThan(
      60_000,
    );
    expect(market.escrowId).toMatch(/^0x[0-9a-f]{64}$/);
    const hhmm = deadline.toISOString().slice(11, 16);
    const day = deadline.toISOString().slice(0, 10);
    expect(market).toMatchObject({
      betType: 'price_prediction',
      category: 'crypto',
      title: `Will BTC be above $100,000.50 at ${hhmm} UTC on ${day}?`,
      targetSymbol: 'BTC',
      comparisonType: 'above',
      targetPrice: '100000.50',
      startPrice: '97000.12345678',
      priceFeed: 'simulated',
      settlementPrice: null,
      status: 'active',
      totalYesWei: parseEther('0.01').toString(),
    });
    expect(market.resolver.contentHash).toBe(
      priceMarketContentHash({
        targetSymbol: 'BTC',
        comparisonType: 'above',
        targetPrice: '100000.5',
        duration: 'hourly',
      }),
    );
    expect(bet).toMatchObject({ isCreator: true, prediction: 'YES' });
  });

  test('a price older than ORACLE_MAX_AGE_S is stale: PRICE_UNAVAILABLE, refund recorded', async () => {
    await p.setPrice('XRP', '2.5');
    await t.advanceTime(t.config.prices.maxAgeS + 1);
    const { response, txHash } = await p.postCreatePrice({ targetSymbol: 'XRP', targetPrice: '3' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('PRICE_UNAVAILABLE');
    expect(await m.paymentRow(txHash)).toMatchObject({
      status: 'escrow_refund',
      refundReason: 'PRICE_UNAVAILABLE',
    });
  });

  test('a target other than the one the payment committed to, even "100000.00" for "100000", is INTENT_MISMATCH', async () => {
    await p.setPrice('BTC', '97000');
    const { response } = await p.postCreatePrice(
      { targetPrice: '100000.00' },
      { paidTerms: { targetPrice: '100000' } },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INTENT_MISMATCH');
    for (const paidTerms of [
      { targetSymbol: 'ETH' as const },
      { comparisonType: 'below' as const },
      { duration: 'daily' as const },
    ]) {
      const other = await p.postCreatePrice({}, { paidTerms });
      expect(other.response.json().error.code).toBe('INTENT_MISMATCH');
    }
  });

  test('a payment for the other side is INTENT_MISMATCH', async () => {
    const { response } = await p.postCreatePrice({ prediction: 'YES' }, { paidTerms: { prediction: 'NO' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INTENT_MISMATCH');
  });

  test('the same creation sent again answers the same market; its payment cannot pay for anything else', async () => {
    const { response, payload, txHash } = await p.postCreatePrice();
    expect(response.statusCode).toBe(201);
    const again = await t.app.inject({ method: 'POST', url: '/api/markets', payload });
    expect(again.statusCode).toBe(201);
    expect(again.json().market.id).toBe(response.json().market.id);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/markets',
      payload: { ...payload, targetPrice: '1' },
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('TX_ALREADY_USED');
    const asJoin = await m.postJoin(response.json().market.id, { player: 0, txHash });
    expect(asJoin.response.json().error.code).toBe('TX_ALREADY_USED');
  });

  test('bad terms are refused before any payment is read', async () => {
    for (const body of [
      { targetPrice: '0' },
      { targetPrice: '-5' },
      { targetPrice: '1.234' },
      { targetPrice: '1e5' },
      { targetSymbol: 'SHIB' },
      { comparisonType: 'equal' },
      { description: 'a custom field' },
    ]) {
      const { response } = await p.postCreatePrice({}, { body });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  test('below 0.005 BNB is AMOUNT_TOO_LOW and kept as a refund', async () => {
    const { response, txHash } = await p.postCreatePrice({}, { amountWei: parseEther('0.001') });
    expect(response.json().error.code).toBe('AMOUNT_TOO_LOW');
    expect(await m.paymentRow(txHash)).toMatchObject({ status: 'escrow_refund' });
  });
});

describe('settling a price market at its deadline', () => {
  test('above, and the first reading after the deadline is above the target: YES, paid like any market', async () => {
    await p.setPrice('ETH', '3000');
    const { market } = await p.createPriceMarket({ targetSymbol: 'ETH', targetPrice: '3100' });
    await m.joinMarket(market.id, { player: 1, prediction: 'NO', amountWei: parseEther('0.02') });
    // Before the deadline nothing settles, whatever the price.
    await p.setPrice('ETH', '3500');
    await settleJobs();
    expect((await detail(market.id)).market.status).toBe('active');
    await t.advanceTime(3601);
    await p.setPrice('ETH', '3100.00000001');
    await settleJobs();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'YES',
      settlementPrice: '3100.00000001',
      priceFeed: 'simulated',
      settlementRoundId: null,
    });
    expect(Date.parse(after.market.settlementUpdatedAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(market.deadline),
    );
    const rows = await t.db.select().from(bets).where(eq(bets.marketId, market.id));
    expect(rows.map((row) => [row.prediction, row.status]).sort()).toEqual([
      ['NO', 'lost'],
      ['YES', 'won'],
    ]);
    // The whole pool goes to the one winner (no fee configured).
    expect(rows.find((row) => row.prediction === 'YES')?.payoutAmount).toBe(parseEther('0.03'));
    expect(after.timeline?.at(-1)).toMatchObject({ kind: 'settled', actor: 'price-feed', result: 'YES' });
  });

  test('below, and the price ends above: NO', async () => {
    await p.setPrice('SOL', '180');
    const { market } = await p.createPriceMarket({
      targetSymbol: 'SOL',
      comparisonType: 'below',
      targetPrice: '170',
    });
    await t.advanceTime(3601);
    await p.setPrice('SOL', '170.01');
    await settleJobs();
    expect((await detail(market.id)).market).toMatchObject({ result: 'NO', settlementPrice: '170.01000000' });
  });

  test('a settlement price exactly equal to the target is NO, above or below', async () => {
    await p.setPrice('AVAX', '35');
    const above = await p.createPriceMarket({
      targetSymbol: 'AVAX',
      comparisonType: 'above',
      targetPrice: '40.25',
    });
    const below = await p.createPriceMarket({
      targetSymbol: 'AVAX',
      comparisonType: 'below',
      targetPrice: '40.25',
    });
    await t.advanceTime(3601);
    await p.setPrice('AVAX', '40.25');
    await settleJobs();
    for (const { market } of [above, below]) {
      expect((await detail(market.id)).market).toMatchObject({
        result: 'NO',
        settlementPrice: '40.25000000',
      });
    }
  });

  test('the first fresh reading after the deadline decides, not a later one', async () => {
    await p.setPrice('DOGE', '0.35');
    const { market } = await p.createPriceMarket({ targetSymbol: 'DOGE', targetPrice: '0.4' });
    await t.advanceTime(3601);
    await p.setPrice('DOGE', '0.39');
    await t.advanceTime(5);
    await p.setPrice('DOGE', '0.45');
    await settleJobs();
    expect((await detail(market.id)).market).toMatchObject({ result: 'NO', settlementPrice: '0.39000000' });
  });

  test('no fresh reading after the deadline, nor in the feed’s own readings: it waits, then is VOID and every stake is refunded', async () => {
    await p.setPrice('BNB', '600');
    const { market } = await p.createPriceMarket({ targetSymbol: 'BNB', targetPrice: '650' });
    await m.joinMarket(market.id, { player: 2, prediction: 'NO' });
    await t.advanceTime(3601);
    // Nothing was sampled since: not decided yet, still waiting for a reading.
    await settleJobs();
    expect((await detail(market.id)).market).toMatchObject({ status: 'settling', result: null });
    const waitS = priceSettlementGiveUpMs(t.config.prices.maxAgeS, t.config.ai.resolutionTimeoutS) / 1000;
    await t.advanceTime(waitS);
    await settleJobs();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({ status: 'settled', result: 'VOID', settlementPrice: null });
    // The simulated walk's last BNB reading before the deadline is the one at creation, an hour old.
    expect(after.market.aiVerdict).toMatch(/was sampled or is in the feed's own history/);
    const rows = await t.db.select().from(bets).where(eq(bets.marketId, market.id));
    expect(rows.every((row) => row.status === 'refunded' && row.payoutAmount === row.amount)).toBe(true);
  });

  test('a reading sampled after the deadline but whose feed time is older than ORACLE_MAX_AGE_S does not count', async () => {
    // The simulated feed's time is the sampling time, so a sample taken ORACLE_MAX_AGE_S + 5 s after
    // the deadline has a feed time outside the window: it is not the deadline's price.
    await p.setPrice('BTC', '97000');
    const { market } = await p.createPriceMarket({ targetPrice: '90000' });
    await t.advanceTime(3601 + t.config.prices.maxAgeS + 5);
    await p.setPrice('BTC', '99000');
    await settleJobs();
    expect((await detail(market.id)).market.status).toBe('settling');
    // And no later sample can qualify: once the wait is over it is void.
    const waitS = priceSettlementGiveUpMs(t.config.prices.maxAgeS, t.config.ai.resolutionTimeoutS) / 1000;
    await t.advanceTime(waitS);
    await settleJobs();
    expect((await detail(market.id)).market).toMatchObject({ status: 'settled', result: 'VOID' });
  });
});

describe('the AI settlement job', () => {
  test('never asks a judge about a price market, even with AI configured; the price job settles it', async () => {
    await p.setPrice('XRP', '2.2');
    const { market } = await p.createPriceMarket({ targetSymbol: 'XRP', targetPrice: '2' });
    await t.advanceTime(3601);
    await p.setPrice('XRP', '2.5');
    const asked: string[] = [];
    const aiJob = createSettlementJob({
      db: t.db,
      clock: t.clock,
      logger: pino({ level: 'silent' }),
      resolver: {
        async resolve(input) {
          asked.push(input.title);
          return { verdict: 'NO', confidence: 99, analysis: 'A judge must not decide this.', sources: [] };
        },
      },
      minConfidence: 70,
      maxAttempts: 3,
      feeBps: 0,
      leaseMs: 61_000,
      resolutionTimeoutS: t.config.ai.resolutionTimeoutS,
      reviewWindowS: 0,
    });
    await aiJob.run();
    expect(asked).toEqual([]);
    expect((await detail(market.id)).market).toMatchObject({ status: 'settling', result: null });
    await runJob('price-market-settlement');
    expect((await detail(market.id)).market).toMatchObject({ status: 'settled', result: 'YES' });
  });
});

describe('the markets list', () => {
  test('?betType= lists only price markets or only custom ones; anything else is refused', async () => {
    await m.createMarket({ description: 'A custom question for the filter' });
    await p.setPrice('ETH', '3000');
    await p.createPriceMarket({ targetSymbol: 'ETH', targetPrice: '3300' });
    const list = async (query: string) =>
      ListMarketsResponseSchema.parse(
        (await t.app.inject({ method: 'GET', url: `/api/markets?${query}` })).json(),
      ).markets;
    for (const status of ['open', 'settled']) {
      const priceOnly = await list(`betType=price_prediction&status=${status}`);
      expect(priceOnly.length).toBeGreaterThan(0);
      expect(priceOnly.every((market) => market.betType === 'price_prediction')).toBe(true);
    }
    const customOnly = await list('betType=custom_bet');
    expect(customOnly.length).toBeGreaterThan(0);
    expect(customOnly.every((market) => market.betType === 'custom_bet')).toBe(true);
    const bad = await t.app.inject({ method: 'GET', url: '/api/markets?betType=oracle' });
    expect(bad.statusCode).toBe(400);
  });
});

describe("a wallet's history", () => {
  test("a bet on a price market carries the market's terms, a custom market's none", async () => {
    await p.setPrice('BNB', '600');
    const { market, bet } = await p.createPriceMarket(
      { targetSymbol: 'BNB', comparisonType: 'below', targetPrice: '550.5' },
      { player: 1 },
    );
    await m.createMarket({ description: 'A custom question beside it' }, { player: 1 });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/${bet.userAddress}/history?game=markets`,
    });
    const { entries } = HistoryResponseSchema.parse(response.json());
    const priceEntry = entries.find((entry) => entry.marketId === market.id);
    expect(priceEntry?.priceTerms).toEqual({
      targetSymbol: 'BNB',
      comparisonType: 'below',
      targetPrice: '550.50',
      deadline: market.deadline,
    });
    expect(priceEntry?.title).toBe(market.title);
    const custom = entries.find((entry) => entry.marketId !== market.id);
    expect(custom?.priceTerms).toBeNull();
  });
});

import { MarketOddsResponseSchema } from '@pm/core/contract/market-odds';
import { ListMarketsResponseSchema } from '@pm/core/contract/markets';
import { MARKET_ODDS_POINTS_MAX } from '@pm/core/yes-share';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listMarketOdds } from '../src/markets/market-odds-repository.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 013: a market's YES share over time (GET /api/markets/:id/odds) and settled markets
// browsable from /predictions (GET /api/markets?status=settled, by cursor).

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
beforeAll(async () => {
  t = await startTestApp();
  m = marketHelpers(t);
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const minute = (n: number) => new Date(Date.UTC(2026, 0, 1, 10, n));

async function oddsOf(marketId: number) {
  const response = await get(`/api/markets/${marketId}/odds`);
  expect(response.statusCode).toBe(200);
  return MarketOddsResponseSchema.parse(response.json());
}

describe('market odds over time', () => {
  test('Paid bets move the YES share: the creator alone is 100 %, then each join moves it', async () => {
    const { market } = await m.createMarket({ prediction: 'YES' }, { amountWei: parseEther('0.01') });
    await m.joinMarket(market.id, { player: 1, prediction: 'NO', amountWei: parseEther('0.03') });
    await m.joinMarket(market.id, { player: 2, prediction: 'YES', amountWei: parseEther('0.02') });

    const odds = await oddsOf(market.id);
    expect(odds.marketId).toBe(market.id);
    expect(odds.points.map((point) => point.yesShareBps)).toEqual([10_000, 2_500, 5_000]);
    expect(odds.points.map((point) => point.bets)).toEqual([1, 2, 3]);
    expect(odds.points.at(-1)).toMatchObject({
      yesWei: parseEther('0.03').toString(),
      noWei: parseEther('0.03').toString(),
    });
    const times = odds.points.map((point) => Date.parse(point.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  test('Shares are exact basis points of the wei sums, oldest bet first, equal times by id', async () => {
    const { marketId } = await insertMarketWithBets(t.db, {
      bets: [
        { prediction: 'NO', amountWei: 2n, at: minute(1) },
        { prediction: 'YES', amountWei: 1n, at: minute(2) },
        { prediction: 'YES', amountWei: 10n ** 30n, at: minute(2) },
        { prediction: 'NO', amountWei: 10n ** 30n + 1n, at: minute(5) },
      ],
    });
    const odds = await oddsOf(marketId);
    expect(odds.points).toEqual([
      { at: minute(1).toISOString(), yesShareBps: 0, yesWei: '0', noWei: '2', bets: 1 },
      { at: minute(2).toISOString(), yesShareBps: 3_333, yesWei: '1', noWei: '2', bets: 2 },
      {
        at: minute(2).toISOString(),
        yesShareBps: 10_000,
        yesWei: (10n ** 30n + 1n).toString(),
        noWei: '2',
        bets: 3,
      },
      {
        at: minute(5).toISOString(),
        yesShareBps: 5_000,
        yesWei: (10n ** 30n + 1n).toString(),
        noWei: (10n ** 30n + 3n).toString(),
        bets: 4,
      },
    ]);
  });

  test(`Many bets are bucketed to at most ${MARKET_ODDS_POINTS_MAX} points, ending on the current odds`, async () => {
    const count = 2 * MARKET_ODDS_POINTS_MAX + 37;
    const { marketId } = await insertMarketWithBets(t.db, {
      bets: Array.from({ length: count }, (_, index) => ({
        prediction: index % 3 === 0 ? ('YES' as const) : ('NO' as const),
        amountWei: 1_000n + BigInt(index),
        at: new Date(minute(0).getTime() + index * 1000),
      })),
    });
    const odds = await oddsOf(marketId);
    expect(odds.points).toHaveLength(MARKET_ODDS_POINTS_MAX);
    const last = odds.points.at(-1);
    const market = (await get(`/api/markets/${marketId}`)).json().market;
    expect(last?.bets).toBe(count);
    expect(last?.yesWei).toBe(market.totalYesWei);
    expect(last?.noWei).toBe(market.totalNoWei);
    const counted = odds.points.map((point) => point.bets);
    expect(counted).toEqual([...counted].sort((a, b) => a - b));
    expect(new Set(counted).size).toBe(counted.length);
    // A smaller cap buckets the same way (the SQL takes the cap as a parameter).
    expect(await listMarketOdds(t.db, marketId, 10)).toHaveLength(10);
  });

  test('A market with no bets has no points; an unknown market is 404 MARKET_NOT_FOUND', async () => {
    const { marketId } = await insertMarketWithBets(t.db, { bets: [] });
    expect((await oddsOf(marketId)).points).toEqual([]);

    const missing = await get('/api/markets/2147483000/odds');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('MARKET_NOT_FOUND');
    const beyond = await get(`/api/markets/${Number.MAX_SAFE_INTEGER}/odds`);
    expect(beyond.statusCode).toBe(404);
    const bad = await get('/api/markets/abc/odds');
    expect(bad.statusCode).toBe(400);
  });
});

describe('settled markets', () => {
  test('The settled list pages by cursor, newest settled first, each with its verdict and confidence', async () => {
    const stake = { amountWei: 10_000_000_000_000_000n };
    const settled = [];
    for (const [index, result] of (['YES', 'NO', 'VOID'] as const).entries()) {
      settled.push(
        await insertMarketWithBets(t.db, {
          status: 'settled',
          result,
          aiConfidence: result === 'VOID' ? undefined : 80 + index,
          title: `Settled ${result}`,
          updatedAt: new Date(Date.UTC(2030, 0, 1, 12, index)),
          bets: [{ ...stake, prediction: 'YES' }],
        }),
      );
    }
    await insertMarketWithBets(t.db, { status: 'active', bets: [{ ...stake, prediction: 'NO' }] });

    const first = await get('/api/markets?status=settled&limit=2');
    expect(first.statusCode).toBe(200);
    const page1 = ListMarketsResponseSchema.parse(first.json());
    expect(page1.markets.map((market) => market.title)).toEqual(['Settled VOID', 'Settled NO']);
    expect(page1.markets.map((market) => [market.result, market.aiConfidence])).toEqual([
      ['VOID', null],
      ['NO', 81],
    ]);
    expect(page1.nextCursor).not.toBeNull();

    const second = await get(
      `/api/markets?status=settled&limit=2&cursor=${encodeURIComponent(page1.nextCursor ?? '')}`,
    );
    const page2 = ListMarketsResponseSchema.parse(second.json());
    expect(page2.markets[0]).toMatchObject({ title: 'Settled YES', result: 'YES', aiConfidence: 80 });
    expect(page2.markets.every((market) => market.status === 'settled')).toBe(true);
    expect(settled.map((market) => market.marketId)).toContain(page2.markets[0]?.id);
  });

  test('A bad status or cursor is refused with 400 and the shared error shape', async () => {
    const status = await get('/api/markets?status=done');
    expect(status.statusCode).toBe(400);
    expect(status.json().error.code).toBe('VALIDATION_FAILED');
    const cursor = await get('/api/markets?status=settled&cursor=not-a-cursor');
    expect(cursor.statusCode).toBe(400);
  });
});

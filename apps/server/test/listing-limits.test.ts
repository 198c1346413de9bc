import {
  MARKET_BETS_PAGE_DEFAULT,
  MARKET_BETS_PAGE_MAX,
  MarketBetsResponseSchema,
} from '@pm/core/contract/market-bets';
import {
  ListMarketsResponseSchema,
  MARKETS_PAGE_DEFAULT,
  MarketDetailResponseSchema,
} from '@pm/core/contract/markets';
import {
  CLAIMABLE_LIST_MAX,
  ClaimableResponseSchema,
  USER_BETS_PAGE_DEFAULT,
  UserBetsResponseSchema,
} from '@pm/core/contract/users';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bets, markets } from '../src/db/schema.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// No request may ask for an unbounded read: every list has a hard cap, and the lists that can grow without
// bound (a wallet's bets, the market board) continue by cursor.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const stake = { amountWei: 10_000_000_000_000_000n };
const get = (url: string) => t.app.inject({ method: 'GET', url });

async function allUserBetPages(address: string, limit: number) {
  const pages: number[][] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `limit=${limit}&cursor=${encodeURIComponent(cursor)}` : `limit=${limit}`;
    const response = await get(`/api/users/${address}/bets?${query}`);
    expect(response.statusCode).toBe(200);
    const page = UserBetsResponseSchema.parse(response.json());
    pages.push(page.bets.map((bet) => bet.id));
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 20);
  return pages;
}

describe("a wallet's bets", () => {
  test('Following nextCursor lists every bet once, newest first, also when bets share a time', async () => {
    const user = '0x00000000000000000000000000000000000000a1';
    const older = await insertMarketWithBets(t.db, {
      now: new Date('2026-01-01T10:00:00Z'),
      bets: [
        { ...stake, prediction: 'YES', user },
        { ...stake, prediction: 'NO', user },
      ],
    });
    const newer = await insertMarketWithBets(t.db, {
      now: new Date('2026-01-02T10:00:00Z'),
      bets: [
        { ...stake, prediction: 'YES', user },
        { ...stake, prediction: 'YES', user },
        { ...stake, prediction: 'NO', user },
      ],
    });
    const pages = await allUserBetPages(user, 2);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    const expected = [...[...newer.betIds].reverse(), ...[...older.betIds].reverse()];
    expect(pages.flat()).toEqual(expected);
  });

  test('Without a limit one page holds the default number of bets, and the limit has a maximum', async () => {
    const user = '0x00000000000000000000000000000000000000a2';
    const many = Array.from({ length: USER_BETS_PAGE_DEFAULT + 5 }, () => ({
      ...stake,
      prediction: 'YES' as const,
      user,
    }));
    await insertMarketWithBets(t.db, { bets: many });
    const first = UserBetsResponseSchema.parse((await get(`/api/users/${user}/bets`)).json());
    expect(first.bets).toHaveLength(USER_BETS_PAGE_DEFAULT);
    expect(first.nextCursor).not.toBeNull();
    const rest = UserBetsResponseSchema.parse(
      (await get(`/api/users/${user}/bets?cursor=${encodeURIComponent(first.nextCursor ?? '')}`)).json(),
    );
    expect(rest.bets).toHaveLength(5);
    expect(rest.nextCursor).toBeNull();
    expect((await get(`/api/users/${user}/bets?limit=201`)).statusCode).toBe(400);
  });

  test('A cursor the server did not write is refused with 400', async () => {
    const user = '0x00000000000000000000000000000000000000a3';
    for (const cursor of ['abc', `1.${2 ** 31}`, '1.1.1']) {
      const response = await get(`/api/users/${user}/bets?cursor=${cursor}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('the market board', () => {
  test('Open markets come a page at a time, newest first, each once', async () => {
    const ids: number[] = [];
    for (const day of ['03', '04', '05']) {
      const { marketId } = await insertMarketWithBets(t.db, {
        status: 'active',
        now: new Date(`2026-02-${day}T10:00:00Z`),
        bets: [],
      });
      ids.push(marketId);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = ListMarketsResponseSchema.parse(
        (await get(`/api/markets?status=open&limit=2${suffix}`)).json(),
      );
      expect(page.markets.length).toBeLessThanOrEqual(2);
      seen.push(...page.markets.map((market) => market.id));
      cursor = page.nextCursor;
    } while (cursor !== null && seen.length < 50);
    // Markets of the other tests are open too (settling); every market shows once, ours newest first.
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
    expect((await get('/api/markets?limit=201')).statusCode).toBe(400);
  });

  test('Settled markets page by their update time', async () => {
    const ids: number[] = [];
    for (const hour of ['10', '11', '12']) {
      const { marketId } = await insertMarketWithBets(t.db, {
        status: 'settled',
        updatedAt: new Date(`2026-03-01T${hour}:00:00Z`),
        bets: [],
      });
      ids.push(marketId);
    }
    const first = ListMarketsResponseSchema.parse((await get('/api/markets?status=settled&limit=2')).json());
    const second = ListMarketsResponseSchema.parse(
      (
        await get(`/api/markets?status=settled&limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`)
      ).json(),
    );
    expect([...first.markets, ...second.markets].map((market) => market.id)).toEqual([...ids].reverse());
    expect(second.nextCursor).toBeNull();
  });
});

describe('the board’s first screen', () => {
  test('Without a limit the open list is one screen of markets, and the default pages reach every open market once', async () => {
    // Long titles: the first page must stay well under 40 kB as markets read in practice.
    for (let i = 0; i < MARKETS_PAGE_DEFAULT + 3; i += 1) {
      await insertMarketWithBets(t.db, {
        status: 'active',
        title:
          `${'A long question about the future of a token, a match or an election, '.repeat(2)}#${i}`.slice(
            -120,
          ),
        bets: [{ ...stake, prediction: 'YES' }],
      });
    }
    const first = await get('/api/markets?status=open');
    expect(first.statusCode).toBe(200);
    const page = ListMarketsResponseSchema.parse(first.json());
    expect(page.markets).toHaveLength(MARKETS_PAGE_DEFAULT);
    expect(page.nextCursor).not.toBeNull();
    expect(first.body.length).toBeLessThan(40_000);

    const seen = page.markets.map((market) => market.id);
    let cursor = page.nextCursor;
    while (cursor !== null && seen.length < 1000) {
      const next = ListMarketsResponseSchema.parse(
        (await get(`/api/markets?status=open&cursor=${encodeURIComponent(cursor)}`)).json(),
      );
      expect(next.markets.length).toBeLessThanOrEqual(MARKETS_PAGE_DEFAULT);
      expect(next.counts).toEqual(page.counts);
      seen.push(...next.markets.map((market) => market.id));
      cursor = next.nextCursor;
    }
    const open = await t.db
      .select({ id: markets.id })
      .from(markets)
      .where(inArray(markets.status, ['active', 'settling']));
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((a, b) => a - b)).toEqual(open.map((row) => row.id).sort((a, b) => a - b));
    expect(page.counts.all).toBe(open.length);
  });
});

describe('a market’s bets, a page at a time', () => {
  const many = 1_050;
  const bettors = [
    '0x00000000000000000000000000000000000000b1',
    '0x00000000000000000000000000000000000000b2',
  ];
  let marketId = 0;
  let betIds: number[] = [];
  const base = Date.parse('2026-04-01T10:00:00Z');

  beforeAll(async () => {
    // 1,050 bets, three to a millisecond (ties fall to the id), by 350 distinct wallets: bettor 1
    // placed every 7th, bettor 2 one bet only; the rest one wallet per bet.
    const seeded = await insertMarketWithBets(t.db, {
      status: 'active',
      bets: Array.from({ length: many }, (_, i) => ({
        ...stake,
        prediction: i % 3 === 0 ? ('NO' as const) : ('YES' as const),
        user:
          i % 7 === 0
            ? bettors[0]
            : i === 500
              ? bettors[1]
              : `0x${(0xc000 + (i % 300)).toString(16).padStart(40, '0')}`,
        at: new Date(base + Math.floor(i / 3)),
      })),
    });
    marketId = seeded.marketId;
    betIds = seeded.betIds;
  });

  const newestFirst = () => [...betIds].reverse();

  test('The detail carries the first page newest first, its cursor and the exact number of bettors', async () => {
    const response = await get(`/api/markets/${marketId}`);
    expect(response.statusCode).toBe(200);
    const detail = MarketDetailResponseSchema.parse(response.json());
    expect(detail.bets.map((bet) => bet.id)).toEqual(newestFirst().slice(0, MARKET_BETS_PAGE_DEFAULT));
    expect(detail.betsNextCursor).not.toBeNull();
    const distinct = await t.db
      .selectDistinct({ address: bets.userAddress })
      .from(bets)
      .where(eq(bets.marketId, marketId));
    expect(detail.participants).toBe(distinct.length);
    expect(detail.participants).toBe(302);
    expect(response.body.length).toBeLessThan(40_000);

    // The detail's cursor continues on the bets endpoint where the detail stopped.
    const next = MarketBetsResponseSchema.parse(
      (
        await get(`/api/markets/${marketId}/bets?cursor=${encodeURIComponent(detail.betsNextCursor ?? '')}`)
      ).json(),
    );
    expect(next.bets.map((bet) => bet.id)).toEqual(
      newestFirst().slice(MARKET_BETS_PAGE_DEFAULT, 2 * MARKET_BETS_PAGE_DEFAULT),
    );
  });

  test('Following nextCursor lists every bet once, newest first', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const response = await get(`/api/markets/${marketId}/bets?limit=${MARKET_BETS_PAGE_MAX}${suffix}`);
      expect(response.statusCode).toBe(200);
      const page = MarketBetsResponseSchema.parse(response.json());
      expect(page.bets.length).toBeLessThanOrEqual(MARKET_BETS_PAGE_MAX);
      seen.push(...page.bets.map((bet) => bet.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(pages).toBe(Math.ceil(many / MARKET_BETS_PAGE_MAX));
    expect(seen).toEqual(newestFirst());
    const first = MarketBetsResponseSchema.parse((await get(`/api/markets/${marketId}/bets`)).json());
    expect(first.bets).toHaveLength(MARKET_BETS_PAGE_DEFAULT);
  });

  test('?address= lists only that wallet’s bets, in any case, newest first, and pages them too', async () => {
    const mine = newestFirst().filter((_, i) => (many - 1 - i) % 7 === 0);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = MarketBetsResponseSchema.parse(
        (
          await get(
            `/api/markets/${marketId}/bets?address=${bettors[0]?.toUpperCase().replace('0X', '0x')}&limit=40${suffix}`,
          )
        ).json(),
      );
      expect(page.bets.every((bet) => bet.userAddress === bettors[0])).toBe(true);
      seen.push(...page.bets.map((bet) => bet.id));
      cursor = page.nextCursor;
    } while (cursor !== null && seen.length < 1000);
    expect(seen).toEqual(mine);

    const one = MarketBetsResponseSchema.parse(
      (await get(`/api/markets/${marketId}/bets?address=${bettors[1]}&limit=1`)).json(),
    );
    expect(one.bets.map((bet) => bet.id)).toEqual([betIds[500]]);
    expect(one.nextCursor).toBeNull();
    const none = MarketBetsResponseSchema.parse(
      (
        await get(`/api/markets/${marketId}/bets?address=0x00000000000000000000000000000000000000b9&limit=1`)
      ).json(),
    );
    expect(none).toEqual({ bets: [], nextCursor: null });
  });

  test('A bad cursor, limit or address is 400 and an unknown market 404', async () => {
    for (const query of [
      'cursor=abc',
      `cursor=1.${2 ** 31}`,
      'limit=0',
      `limit=${MARKET_BETS_PAGE_MAX + 1}`,
      'limit=ten',
      'address=0x1234',
      'side=YES',
    ]) {
      const response = await get(`/api/markets/${marketId}/bets?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    for (const url of [
      '/api/markets/424242/bets',
      '/api/markets/424242/bets?address=0x00000000000000000000000000000000000000b1',
    ]) {
      const missing = await get(url);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('MARKET_NOT_FOUND');
    }
    expect((await get('/api/markets/0/bets')).statusCode).toBe(400);
  });

  test('A market without bets has none, no cursor and no bettors', async () => {
    const { marketId: empty } = await insertMarketWithBets(t.db, { status: 'active', bets: [] });
    const detail = MarketDetailResponseSchema.parse((await get(`/api/markets/${empty}`)).json());
    expect(detail).toMatchObject({ bets: [], betsNextCursor: null, participants: 0 });
    expect(MarketBetsResponseSchema.parse((await get(`/api/markets/${empty}/bets`)).json())).toEqual({
      bets: [],
      nextCursor: null,
    });
  });
});

describe('claimable winnings', () => {
  test('The list is capped; the total and the count still cover every claimable bet', async () => {
    const user = '0x00000000000000000000000000000000000000c1';
    const many = CLAIMABLE_LIST_MAX + 5;
    const { marketId } = await insertMarketWithBets(t.db, {
      status: 'settled',
      bets: Array.from({ length: many }, () => ({ ...stake, prediction: 'YES' as const, user })),
    });
    // Each bet won a profit of 0.001 BNB: claimable = payout_amount = stake + profit.
    await t.db
      .update(bets)
      .set({ status: 'won', payoutAmount: stake.amountWei + 1_000_000_000_000_000n })
      .where(eq(bets.marketId, marketId));
    const response = await get(`/api/users/${user}/claimable`);
    expect(response.statusCode).toBe(200);
    const claimable = ClaimableResponseSchema.parse(response.json());
    expect(claimable.markets.bets).toHaveLength(CLAIMABLE_LIST_MAX);
    expect(claimable.markets.count).toBe(many);
    expect(claimable.markets.totalWei).toBe((BigInt(many) * 11_000_000_000_000_000n).toString());
  });
});

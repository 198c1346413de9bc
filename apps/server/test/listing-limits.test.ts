import { ListMarketsResponseSchema } from '@pm/core/contract/markets';
import {
  CLAIMABLE_LIST_MAX,
  ClaimableResponseSchema,
  USER_BETS_PAGE_DEFAULT,
  UserBetsResponseSchema,
} from '@pm/core/contract/users';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bets } from '../src/db/schema.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Security review F18: every list has a hard cap, and the lists that can grow without bound (a
// wallet's bets, the market board) continue by cursor.

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

import { HistoryResponseSchema } from '@pm/core/contract/history';
import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate } from '../src/db/migrate.ts';
import { bets } from '../src/db/schema.ts';
import { insertSettledMarket } from './support/fixtures.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Migration 0007 (decision 002): bets.payout_amount held a win's profit (null otherwise)
// and now holds the full return. Rows written with the old meaning, converted by 0007, read through
// the API as they were meant: a win's profit is its profitWei, claimable is stake + profit, and
// returnWei and profitWei are the same on market bets and in the history.

const USER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
const ETH = 10n ** 16n;

let t: TestApp;
const marketIds = { yes: 0, void: 0, open: 0 };

/** The rows as the code before 0007 wrote them: status, and payout_amount = profit or null. */
const oldRows = [
  { key: 'won', market: 'yes', prediction: 'YES', amount: 1n * ETH, status: 'won', profit: 5n * 10n ** 15n },
  { key: 'won-no-profit', market: 'yes', prediction: 'YES', amount: 2n * ETH, status: 'won', profit: 0n },
  { key: 'lost', market: 'yes', prediction: 'NO', amount: 3n * ETH, status: 'lost', profit: null },
  { key: 'claimed-win', market: 'yes', prediction: 'YES', amount: 4n * ETH, status: 'claimed', profit: ETH },
  { key: 'refunded', market: 'void', prediction: 'NO', amount: 6n * ETH, status: 'refunded', profit: null },
  {
    key: 'claimed-refund',
    market: 'void',
    prediction: 'YES',
    amount: 7n * ETH,
    status: 'claimed',
    profit: null,
  },
] as const;
const betIds = new Map<string, number>();

beforeAll(async () => {
  t = await startTestApp();
  for (const [market, result] of [
    ['yes', 'YES'],
    ['void', 'VOID'],
  ] as const) {
    const rows = oldRows.filter((row) => row.market === market);
    const inserted = await insertSettledMarket(t.db, {
      result,
      bets: rows.map((row) => ({
        address: USER,
        prediction: row.prediction,
        amount: row.amount,
        status: row.status === 'claimed' ? (row.profit === null ? 'refunded' : 'won') : row.status,
      })),
    });
    marketIds[market] = inserted.market.id;
    for (const [index, row] of rows.entries()) {
      const id = inserted.bets[index]?.id ?? -1;
      betIds.set(row.key, id);
      await t.db.update(bets).set({ status: row.status, payoutAmount: row.profit }).where(eq(bets.id, id));
    }
  }
  const open = await insertMarketWithBets(t.db, {
    status: 'active',
    bets: [{ prediction: 'YES', amountWei: 8n * ETH, user: USER }],
  });
  marketIds.open = open.marketId;

  // Run 0007 again over these rows, as an upgrade from 0006 would.
  await t.db.execute(sql`delete from schema_migrations where tag = '0007_payout_full_return'`);
  expect(await migrate(t.db)).toEqual({ applied: ['0007_payout_full_return'] });
});
afterAll(async () => {
  await t?.close();
});

const get = async (url: string) => {
  const response = await t.app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  return response.json();
};

test('0007 stores the full return: stake + profit, the stake, or 0; pending bets stay null', async () => {
  const stored = await t.db.select().from(bets).where(eq(bets.userAddress, USER)).orderBy(bets.id);
  expect(stored.map((row) => row.payoutAmount)).toEqual([
    15n * 10n ** 15n,
    2n * ETH,
    0n,
    5n * ETH,
    6n * ETH,
    7n * ETH,
    null,
  ]);
});

test('Market bets converted by 0007 show their return and profit', async () => {
  const yes = MarketDetailResponseSchema.parse(await get(`/api/markets/${marketIds.yes}`));
  const voided = MarketDetailResponseSchema.parse(await get(`/api/markets/${marketIds.void}`));
  const open = MarketDetailResponseSchema.parse(await get(`/api/markets/${marketIds.open}`));
  const shown = (key: string) => {
    const bet = [...yes.bets, ...voided.bets].find((each) => each.id === betIds.get(key));
    return bet && [bet.returnWei, bet.profitWei];
  };
  expect(oldRows.map((row) => [row.key, shown(row.key)])).toEqual([
    ['won', [(15n * 10n ** 15n).toString(), (5n * 10n ** 15n).toString()]],
    ['won-no-profit', [(2n * ETH).toString(), '0']],
    ['lost', ['0', (-3n * ETH).toString()]],
    ['claimed-win', [(5n * ETH).toString(), ETH.toString()]],
    ['refunded', [(6n * ETH).toString(), '0']],
    ['claimed-refund', [(7n * ETH).toString(), '0']],
  ]);
  expect(open.bets.map((bet) => [bet.returnWei, bet.profitWei])).toEqual([[null, null]]);
});

test('Claimable after 0007 is what it was: stake + profit for wins, the stake for refunds', async () => {
  const claimable = ClaimableResponseSchema.parse(await get(`/api/users/${USER}/claimable`));
  expect(claimable.markets.count).toBe(3);
  expect(claimable.markets.totalWei).toBe((15n * 10n ** 15n + 2n * ETH + 6n * ETH).toString());
});

test('History after 0007 shows the same result, return and profit for every bet', async () => {
  const { entries } = HistoryResponseSchema.parse(await get(`/api/users/${USER}/history`));
  const byId = new Map(entries.map((entry) => [entry.betId, entry]));
  const shown = (key: string) => {
    const entry = byId.get(betIds.get(key) ?? -1);
    return entry && [entry.result, entry.returnWei, entry.profitWei, entry.claimState];
  };
  expect(oldRows.map((row) => [row.key, shown(row.key)])).toEqual([
    ['won', ['won', (15n * 10n ** 15n).toString(), (5n * 10n ** 15n).toString(), 'claimable']],
    ['won-no-profit', ['won', (2n * ETH).toString(), '0', 'claimable']],
    ['lost', ['lost', '0', (-3n * ETH).toString(), 'none']],
    ['claimed-win', ['won', (5n * ETH).toString(), ETH.toString(), 'claimed']],
    ['refunded', ['refunded', (6n * ETH).toString(), '0', 'claimable']],
    ['claimed-refund', ['refunded', (7n * ETH).toString(), '0', 'claimed']],
  ]);
});

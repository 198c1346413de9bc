import { randomBytes } from 'node:crypto';
import { HistoryResponseSchema, HistorySummarySchema } from '@pm/core/contract/history';
import { MarketBetsResponseSchema } from '@pm/core/contract/market-bets';
import { ClaimableResponseSchema, UserBetsResponseSchema } from '@pm/core/contract/users';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bets, escrowStakePayouts, marketFlags, markets, oracleBets, payments } from '../src/db/schema.ts';
import { settleRoundPayouts } from '../src/oracle/oracle-repository.ts';
import { settleMarket } from '../src/settlement/settle-market.ts';
import { insertEndedRound } from './support/fixtures.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// GET /api/users/:address/history and /summary over bets settled by the real settlement code
// (payout_amount the full return in both tables, decision 002), checked to the wei.

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const user = USER.toLowerCase();
const OTHER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';

let t: TestApp;
const ids = { win: 0, loss: 0, refund: 0, active: 0 };

const minutesAgo = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, 0) - minutes * 60_000);

async function settle(marketId: number, outcome: 'YES' | 'NO' | 'VOID', feeBps = 0) {
  await t.db.transaction((tx) =>
    settleMarket(tx, {
      escrow: null,
      marketId,
      outcome,
      verdict: { analysis: 'test', confidence: null, sources: [] },
      feeBps,
      now: new Date(),
      from: ['settling'],
    }),
  );
}

beforeAll(async () => {
  t = await startTestApp();
  // A win: 300000000000000001 on YES with 100000000000000000 beside it, 0.3 BNB on NO, fee 2 %.
  // fee = 0.006 BNB; profit = ⌊300000000000000001 × 294000000000000000 / 400000000000000001⌋.
  const win = await insertMarketWithBets(t.db, {
    title: 'Win market',
    now: minutesAgo(50),
    bets: [
      { prediction: 'YES', amountWei: 300000000000000001n, user },
      { prediction: 'YES', amountWei: 100000000000000000n, user: OTHER },
      { prediction: 'NO', amountWei: 300000000000000000n, user: OTHER },
    ],
  });
  await settle(win.marketId, 'YES', 200);
  ids.win = win.marketId;
  // A loss: 0.05 BNB on NO, the market says YES.
  const loss = await insertMarketWithBets(t.db, {
    title: 'Loss market',
    now: minutesAgo(40),
    bets: [
      { prediction: 'NO', amountWei: 50000000000000000n, user },
      { prediction: 'YES', amountWei: 100000000000000000n, user: OTHER },
    ],
  });
  await settle(loss.marketId, 'YES');
  ids.loss = loss.marketId;
  // A refund: the market is void.
  const refund = await insertMarketWithBets(t.db, {
    title: 'Void market',
    now: minutesAgo(30),
    bets: [{ prediction: 'YES', amountWei: 20000000000000000n, user }],
  });
  await settle(refund.marketId, 'VOID');
  ids.refund = refund.marketId;
  // Still open.
  const active = await insertMarketWithBets(t.db, {
    title: 'Open market',
    status: 'active',
    now: minutesAgo(5),
    bets: [{ prediction: 'YES', amountWei: 10000000000000000n, user }],
  });
  ids.active = active.marketId;

  // An oracle win: bull wins, fee 3 % of the pool; the payout (stake included) by the real settlement.
  await insertEndedRound(t.db, {
    epoch: 100,
    result: 'bull',
    bets: [
      { address: user, position: 'bull', amount: 100000000000000003n, payout: null },
      { address: OTHER, position: 'bull', amount: 50000000000000000n, payout: null },
      { address: OTHER, position: 'bear', amount: 70000000000000001n, payout: null },
    ],
  });
  await t.db.transaction((tx) => settleRoundPayouts(tx, { epoch: 100, result: 'bull', feeBps: 300 }));
  // An oracle loss: bear, the round went bull and someone was on bull.
  await insertEndedRound(t.db, {
    epoch: 101,
    result: 'bull',
    bets: [
      { address: user, position: 'bear', amount: 10000000000000000n, payout: null },
      { address: OTHER, position: 'bull', amount: 10000000000000000n, payout: null },
    ],
  });
  await t.db.transaction((tx) => settleRoundPayouts(tx, { epoch: 101, result: 'bull', feeBps: 300 }));
  // Placed times in a known order: the oracle win 20 min ago, the oracle loss 10 min ago.
  await t.db.execute(
    sql`update oracle_bets set created_at = ${minutesAgo(20)} where epoch = 100 and user_address = ${user}`,
  );
  await t.db.execute(
    sql`update oracle_bets set created_at = ${minutesAgo(10)} where epoch = 101 and user_address = ${user}`,
  );
  // The market win has been paid out: status 'claimed' keeps its profit.
  await t.db.execute(
    sql`update bets set status = 'claimed' where user_address = ${user} and market_id = ${ids.win}`,
  );
});
afterAll(async () => {
  await t?.close();
});

const history = async (query = '', address = USER) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/users/${address}/history${query}` });
  expect(response.statusCode).toBe(200);
  return HistoryResponseSchema.parse(response.json());
};

describe('GET /api/users/:address/history', () => {
  test('lists both games newest first with stake, result, return and profit to the wei', async () => {
    const { entries, nextCursor } = await history();
    expect(nextCursor).toBeNull();
    expect(
      entries.map(({ game, marketId, epoch, side, stakeWei, result, returnWei, profitWei, claimState }) => ({
        game,
        marketId,
        epoch,
        side,
        stakeWei,
        result,
        returnWei,
        profitWei,
        claimState,
      })),
    ).toEqual([
      {
        game: 'markets',
        marketId: ids.active,
        epoch: null,
        side: 'YES',
        stakeWei: '10000000000000000',
        result: 'pending',
        returnWei: null,
        profitWei: null,
        claimState: 'none',
      },
      {
        game: 'oracle',
        marketId: null,
        epoch: 101,
        side: 'bear',
        stakeWei: '10000000000000000',
        result: 'lost',
        returnWei: '0',
        profitWei: '-10000000000000000',
        claimState: 'none',
      },
      {
        game: 'oracle',
        marketId: null,
        epoch: 100,
        side: 'bull',
        stakeWei: '100000000000000003',
        result: 'won',
        // ⌊100000000000000003 × (220000000000000004 − 6600000000000000) / 150000000000000003⌋
        returnWei: '142266666666666670',
        profitWei: '42266666666666667',
        claimState: 'claimable',
      },
      {
        game: 'markets',
        marketId: ids.refund,
        epoch: null,
        side: 'YES',
        stakeWei: '20000000000000000',
        result: 'refunded',
        returnWei: '20000000000000000',
        profitWei: '0',
        claimState: 'claimable',
      },
      {
        game: 'markets',
        marketId: ids.loss,
        epoch: null,
        side: 'NO',
        stakeWei: '50000000000000000',
        result: 'lost',
        returnWei: '0',
        profitWei: '-50000000000000000',
        claimState: 'none',
      },
      {
        game: 'markets',
        marketId: ids.win,
        epoch: null,
        side: 'YES',
        stakeWei: '300000000000000001',
        result: 'won',
        // profit ⌊300000000000000001 × 294000000000000000 / 400000000000000001⌋ plus the stake
        returnWei: '520500000000000001',
        profitWei: '220500000000000000',
        claimState: 'claimed',
      },
    ]);
    const win = entries.at(-1);
    expect(win?.title).toBe('Win market');
    expect(win?.settledAt).not.toBeNull();
    expect(entries[0]?.settledAt).toBeNull();
  });

  test('filters by game and by status', async () => {
    const oracle = await history('?game=oracle');
    expect(oracle.entries.map((entry) => entry.epoch)).toEqual([101, 100]);
    const markets = await history('?game=markets&status=won');
    expect(markets.entries.map((entry) => entry.marketId)).toEqual([ids.win]);
    const lost = await history('?status=lost');
    expect(lost.entries.map((entry) => entry.game)).toEqual(['oracle', 'markets']);
    expect((await history('?status=refunded')).entries.map((entry) => entry.marketId)).toEqual([ids.refund]);
    expect((await history('?status=active')).entries.map((entry) => entry.marketId)).toEqual([ids.active]);
    expect((await history('?status=claimed')).entries.map((entry) => entry.marketId)).toEqual([ids.win]);
    expect((await history('?status=claimable')).entries.map((entry) => entry.result)).toEqual([
      'won',
      'refunded',
    ]);
  });

  test('pages with the cursor across both games without repeating or skipping a bet', async () => {
    const all = (await history()).entries.map((entry) => `${entry.game}:${entry.betId}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await history(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries.map((entry) => `${entry.game}:${entry.betId}`));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(all);
    expect(pages).toBe(3);
  });

  test('orders bets placed in the same microsecond in both games the same way on every page', async () => {
    const [bet] = await t.db.select().from(bets).where(eq(bets.marketId, ids.loss)).limit(1);
    const { entries } = await history();
    const oracleLoss = entries.find((entry) => entry.epoch === 101);
    if (!bet || !oracleLoss) throw new Error('fixtures missing');
    const same = minutesAgo(45);
    await t.db.update(oracleBets).set({ createdAt: same }).where(eq(oracleBets.id, oracleLoss.betId));
    await t.db.update(bets).set({ createdAt: same }).where(eq(bets.userAddress, user));
    try {
      const full = (await history()).entries.map((entry) => `${entry.game}:${entry.betId}`);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await history(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        paged.push(...page.entries.map((entry) => `${entry.game}:${entry.betId}`));
        cursor = page.nextCursor;
      } while (cursor && paged.length < 20);
      expect(paged).toEqual(full);
      expect(new Set(paged).size).toBe(6);
    } finally {
      for (const [marketId, minutes] of [
        [ids.win, 50],
        [ids.loss, 40],
        [ids.refund, 30],
        [ids.active, 5],
      ] as const) {
        await t.db.execute(
          sql`update bets set created_at = ${minutesAgo(minutes)} where market_id = ${marketId} and user_address = ${user}`,
        );
      }
      await t.db
        .update(oracleBets)
        .set({ createdAt: minutesAgo(10) })
        .where(eq(oracleBets.id, oracleLoss.betId));
    }
  });

  test('a bad address, filter or cursor is a 400 with a clear message', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/users/0x1234/history' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'address: must be a 0x-prefixed 20-byte address' },
    });
    const filter = await t.app.inject({ method: 'GET', url: `/api/users/${USER}/history?status=maybe` });
    expect(filter.statusCode).toBe(400);
    expect(filter.json().error.code).toBe('VALIDATION_FAILED');
    const cursor = await t.app.inject({ method: 'GET', url: `/api/users/${USER}/history?cursor=12.x3` });
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().error.message).toBe('cursor: must be a nextCursor from a previous page');
  });

  test('a wallet with no bets has an empty history', async () => {
    const empty = await history('', '0x0000000000000000000000000000000000000abc');
    expect(empty).toEqual({ entries: [], nextCursor: null });
  });
});

test("a bet has the same return and profit on its market's bets, the wallet's bets, claimable and the history", async () => {
  const json = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return response.json();
  };
  const money = (bet: { returnWei: string | null; profitWei: string | null }) => [
    bet.returnWei,
    bet.profitWei,
  ];
  const { entries } = await history();
  const userBets = UserBetsResponseSchema.parse(await json(`/api/users/${USER}/bets`)).bets;
  const claimable = ClaimableResponseSchema.parse(await json(`/api/users/${USER}/claimable`));
  const marketEntries = entries.filter((entry) => entry.kind === 'bet' && entry.game === 'markets');
  expect(marketEntries.map(money)).toEqual([
    [null, null], // open
    ['20000000000000000', '0'], // refunded
    ['0', '-50000000000000000'], // lost
    ['520500000000000001', '220500000000000000'], // won, claimed
  ]);
  for (const entry of marketEntries) {
    const marketBets = MarketBetsResponseSchema.parse(await json(`/api/markets/${entry.marketId}/bets`)).bets;
    const shown = money(entry);
    const marketBet = marketBets.find((bet) => bet.id === entry.betId);
    expect(marketBet && money(marketBet), `market ${entry.marketId}`).toEqual(shown);
    const userBet = userBets.find((bet) => bet.id === entry.betId);
    expect(userBet && money(userBet)).toEqual(shown);
    const claimableBet = claimable.markets.bets.find((bet) => bet.id === entry.betId);
    if (claimableBet) expect(money(claimableBet)).toEqual(shown);
  }
  // The refund is the one claimable market bet: its stake back, no profit.
  expect(claimable.markets.bets.map(money)).toEqual([['20000000000000000', '0']]);
  // Round bets: the claimable win reads as in the history too.
  const roundWin = entries.find((entry) => entry.game === 'oracle' && entry.result === 'won');
  expect(claimable.oracle.bets.map(money)).toEqual([roundWin && money(roundWin)]);
});

test('the OpenAPI document lists the history and summary endpoints', async () => {
  const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  expect(Object.keys(document.paths)).toEqual(
    expect.arrayContaining(['/api/users/{address}/history', '/api/users/{address}/summary']),
  );
  const parameters = document.paths['/api/users/{address}/history'].get.parameters.map(
    (parameter: { name: string }) => parameter.name,
  );
  expect(parameters).toEqual(['address', 'game', 'status', 'limit', 'cursor', 'If-None-Match']);
  // Every entry says its kind, and a flag's bond what became of it.
  const entry =
    document.paths['/api/users/{address}/history'].get.responses['200'].content['application/json'].schema
      .properties.entries.items;
  expect(entry.required).toEqual(expect.arrayContaining(['kind', 'bond']));
  expect(entry.properties.kind.enum).toEqual(['bet', 'bond']);
  expect(JSON.stringify(entry.properties.bond)).toContain('returned_void');
  // The money words are described, profit signed; the names of the release before are gone.
  expect(entry.required).toEqual(expect.arrayContaining(['returnWei', 'profitWei']));
  expect(entry.properties.returnWei.description).toMatch(/stake included/);
  expect(entry.properties.profitWei.description).toMatch(/returnWei − the stake, a signed/);
  expect(JSON.stringify(entry.properties.profitWei)).toContain('-?');
  expect(entry.properties.payoutWei).toBeUndefined();
  expect(entry.properties.netWei).toBeUndefined();
});

describe('GET /api/users/:address/summary', () => {
  const summary = async (query = '', address = USER) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/users/${address}/summary${query}` });
    expect(response.statusCode).toBe(200);
    return HistorySummarySchema.parse(response.json());
  };

  test('adds up net P&L, win rate, best win and total wagered exactly', async () => {
    expect(await summary()).toEqual({
      address: user,
      // 220500000000000000 − 50000000000000000 + 0 + 42266666666666667 − 10000000000000000
      netWei: '202766666666666667',
      totalWageredWei: String(
        300000000000000001n +
          50000000000000000n +
          20000000000000000n +
          10000000000000000n +
          100000000000000003n +
          10000000000000000n,
      ),
      bestWinWei: '220500000000000000',
      winRate: 0.5,
      counts: { total: 6, pending: 1, won: 2, lost: 2, refunded: 1 },
    });
  });

  test('summarises one game on its own', async () => {
    const oracle = await summary('?game=oracle');
    expect(oracle.netWei).toBe('32266666666666667');
    expect(oracle.bestWinWei).toBe('42266666666666667');
    expect(oracle.counts).toEqual({ total: 2, pending: 0, won: 1, lost: 1, refunded: 0 });
  });

  test('a wallet with no decided bet has no win rate and no best win', async () => {
    expect(await summary('', '0x0000000000000000000000000000000000000abc')).toEqual({
      address: '0x0000000000000000000000000000000000000abc',
      netWei: '0',
      totalWageredWei: '0',
      bestWinWei: null,
      winRate: null,
      counts: { total: 0, pending: 0, won: 0, lost: 0, refunded: 0 },
    });
  });

  test('a bad address is a 400', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/users/not-an-address/summary' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });
});

// A wallet's flag bonds are entries of their own, settled by the real settlement code.
describe('flag bonds in the history', () => {
  const FLAGGER = '0x00000000000000000000000000000000000f1a99';
  const BOND = 10000000000000000n;
  const bond = { forfeited: 0, returned: 0, voided: 0, held: 0 };
  const market = { forfeited: 0, returned: 0, voided: 0, held: 0 };
  // Each bond is a stake on the escrow (decision 026), numbered apart from the bets' stakes.
  let nextStake = 9_000n;

  /** The escrow paid a bond's stake back (its Refunded event, recorded as the watcher does). */
  async function paidBack(flagId: number) {
    const flag = await bondOf(flagId);
    if (!flag?.stakeId) throw new Error('no stake');
    await t.db.insert(escrowStakePayouts).values({
      stakeId: flag.stakeId,
      marketKey: `0x${'ab'.repeat(32)}`,
      owner: FLAGGER,
      kind: 'refunded',
      amount: flag.bondReturnAmount ?? BOND,
      txHash: `0x${randomBytes(32).toString('hex')}`,
      blockNumber: 1n,
    });
    return flag.stakeId;
  }

  /** A settling market with a proposed YES verdict, flagged at `at` by FLAGGER with a bond. */
  async function flagged(title: string, at: Date, flaggerSide: 'YES' | 'NO', other: bigint) {
    const { marketId } = await insertMarketWithBets(t.db, {
      title,
      now: new Date(at.getTime() - 60_000),
      bets: [
        { prediction: 'YES', amountWei: other, user: OTHER },
        { prediction: flaggerSide, amountWei: 20000000000000000n, user: FLAGGER },
      ],
    });
    await t.db
      .update(markets)
      .set({ proposedResult: 'YES', proposedBy: 'stub', proposedAt: at, reviewEndsAt: at, flagCount: 1 })
      .where(eq(markets.id, marketId));
    const [payment] = await t.db
      .insert(payments)
      .values({
        chainId: 31337,
        txHash: `0x${randomBytes(32).toString('hex')}`,
        fromAddress: FLAGGER,
        amount: BOND,
        intent: `pm1:flag:${marketId}`,
        blockNumber: 1n,
        blockTime: at,
        purpose: 'market_flag',
        status: 'recorded',
        stakeId: nextStake,
        logIndex: 0,
      })
      .returning({ id: payments.id });
    const [flag] = await t.db
      .insert(marketFlags)
      .values({
        marketId,
        address: FLAGGER,
        reason: 'Wrong',
        expiry: 1,
        signature: `0x${'11'.repeat(65)}`,
        bondPaymentId: payment?.id,
        bondAmount: BOND,
        bondStatus: 'held',
        stakeId: nextStake++,
        createdAt: at,
      })
      .returning({ id: marketFlags.id });
    if (!flag || !payment) throw new Error('no flag');
    return { marketId, flagId: flag.id, paymentId: payment.id };
  }

  const bondOf = async (flagId: number) =>
    (await t.db.select().from(marketFlags).where(eq(marketFlags.id, flagId)))[0];

  beforeAll(async () => {
    // Confirmed YES: the NO flagger's bond goes to the winners.
    const forfeited = await flagged('Bond forfeited', minutesAgo(85), 'NO', 10000000000000000n);
    await settle(forfeited.marketId, 'YES', 200);
    // Overturned to NO with a 2 % fee on the 0.1 BNB YES pool: the reward is the whole 0.002 BNB fee.
    const returned = await flagged('Bond returned', minutesAgo(75), 'NO', 100000000000000000n);
    await settle(returned.marketId, 'NO', 200);
    // Voided: the bond comes back alone; the escrow has paid it.
    const voided = await flagged('Bond voided', minutesAgo(65), 'NO', 10000000000000000n);
    await settle(voided.marketId, 'VOID', 200);
    await paidBack(voided.flagId);
    // Still in review.
    const held = await flagged('Bond held', minutesAgo(55), 'YES', 10000000000000000n);
    Object.assign(bond, {
      forfeited: forfeited.flagId,
      returned: returned.flagId,
      voided: voided.flagId,
      held: held.flagId,
    });
    Object.assign(market, {
      forfeited: forfeited.marketId,
      returned: returned.marketId,
      voided: voided.marketId,
      held: held.marketId,
    });
  });

  const bondEntries = async (query = '') =>
    (await history(query, FLAGGER)).entries.filter((entry) => entry.kind === 'bond');

  test('each bond is an entry with its market, amount, fate, reward and refund state, to the wei', async () => {
    expect((await bondOf(bond.returned))?.bondRewardAmount).toBe(2000000000000000n);
    const entries = await bondEntries();
    expect(
      entries.map(
        ({ betId, marketId, title, side, stakeWei, result, returnWei, profitWei, claimState, bond }) => ({
          betId,
          marketId,
          title,
          side,
          stakeWei,
          result,
          returnWei,
          profitWei,
          claimState,
          bond,
        }),
      ),
    ).toEqual([
      {
        betId: bond.held,
        marketId: market.held,
        title: 'Bond held',
        side: 'YES',
        stakeWei: String(BOND),
        result: 'pending',
        returnWei: null,
        profitWei: null,
        claimState: 'none',
        bond: { fate: 'held', rewardWei: null, refundState: 'none' },
      },
      {
        betId: bond.voided,
        marketId: market.voided,
        title: 'Bond voided',
        side: 'NO',
        stakeWei: String(BOND),
        result: 'refunded',
        returnWei: String(BOND),
        profitWei: '0',
        claimState: 'claimed',
        bond: { fate: 'returned_void', rewardWei: '0', refundState: 'refunded' },
      },
      {
        betId: bond.returned,
        marketId: market.returned,
        title: 'Bond returned',
        side: 'NO',
        stakeWei: String(BOND),
        result: 'won',
        returnWei: '12000000000000000',
        profitWei: '2000000000000000',
        claimState: 'claimable',
        bond: { fate: 'returned', rewardWei: '2000000000000000', refundState: 'none' },
      },
      {
        betId: bond.forfeited,
        marketId: market.forfeited,
        title: 'Bond forfeited',
        side: 'NO',
        stakeWei: String(BOND),
        result: 'lost',
        returnWei: '0',
        profitWei: String(-BOND),
        claimState: 'none',
        bond: { fate: 'forfeited', rewardWei: '0', refundState: 'none' },
      },
    ]);
    const [held, voided] = entries;
    expect(held?.settledAt).toBeNull();
    expect(held?.placedAt).toBe(minutesAgo(55).toISOString());
    expect(voided?.settledAt).not.toBeNull();
    expect(voided?.game).toBe('markets');
    const [payment] = await t.db
      .select()
      .from(payments)
      .where(eq(payments.intent, `pm1:flag:${market.held}`));
    expect(held?.txHash).toBe(payment?.txHash);
    // Bets keep kind bet and no bond.
    const betsOnly = (await history('', FLAGGER)).entries.filter((entry) => entry.kind === 'bet');
    expect(betsOnly).toHaveLength(4);
    expect(betsOnly.every((entry) => entry.bond === null)).toBe(true);
  });

  test('a returned bond is claimable until the escrow paid its stake, then claimed', async () => {
    const state = async () => {
      const entry = (await bondEntries()).find((candidate) => candidate.betId === bond.returned);
      return [entry?.claimState, entry?.bond?.refundState];
    };
    expect(await state()).toEqual(['claimable', 'none']);
    const stakeId = await paidBack(bond.returned);
    try {
      expect(await state()).toEqual(['claimed', 'refunded']);
    } finally {
      await t.db.delete(escrowStakePayouts).where(eq(escrowStakePayouts.stakeId, stakeId));
    }
    expect(await state()).toEqual(['claimable', 'none']);
  });

  test('bonds are filtered by game and status as bets are: held active, returned won, forfeited lost, void refunded', async () => {
    const ofKind = async (query: string) =>
      (await history(query, FLAGGER)).entries.map((entry) => `${entry.kind}:${entry.marketId}`);
    expect(await ofKind('?status=active')).toEqual([`bond:${market.held}`, `bet:${market.held}`]);
    expect(await ofKind('?status=won')).toEqual([`bond:${market.returned}`, `bet:${market.returned}`]);
    expect(await ofKind('?status=lost')).toEqual([`bond:${market.forfeited}`, `bet:${market.forfeited}`]);
    expect(await ofKind('?status=refunded')).toEqual([`bond:${market.voided}`, `bet:${market.voided}`]);
    // A returned bond is claimed like a bet; the one the escrow paid back counts as claimed.
    expect(await ofKind('?status=claimable')).toEqual([
      `bet:${market.voided}`,
      `bond:${market.returned}`,
      `bet:${market.returned}`,
    ]);
    expect(await ofKind('?status=claimed')).toEqual([`bond:${market.voided}`]);
    expect(await ofKind('?game=oracle')).toEqual([]);
    expect((await ofKind('?game=markets')).filter((key) => key.startsWith('bond:'))).toHaveLength(4);
  });

  test('pages through bets and bonds without repeating or skipping, ties in the same microsecond included', async () => {
    const key = (entry: { kind: string; game: string; betId: number }) =>
      `${entry.kind}:${entry.game}:${entry.betId}`;
    const walk = async (limit: number) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await history(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, FLAGGER);
        expect(page.entries.length).toBeLessThanOrEqual(limit);
        seen.push(...page.entries.map(key));
        cursor = page.nextCursor;
      } while (cursor && seen.length < 40);
      return seen;
    };
    const all = (await history('', FLAGGER)).entries.map(key);
    expect(all).toHaveLength(8);
    expect(await walk(3)).toEqual(all);
    // A bond placed in the same microsecond as its flagger's bet: both listed, once each, on every page.
    const same = minutesAgo(70);
    const [bet] = await t.db
      .select()
      .from(bets)
      .where(sql`${bets.marketId} = ${market.voided} and ${bets.userAddress} = ${FLAGGER}`);
    if (!bet) throw new Error('no bet');
    await t.db.update(marketFlags).set({ createdAt: same }).where(eq(marketFlags.id, bond.voided));
    await t.db.update(bets).set({ createdAt: same }).where(eq(bets.id, bet.id));
    try {
      const tied = (await history('', FLAGGER)).entries.map(key);
      expect(await walk(1)).toEqual(tied);
      expect(new Set(tied).size).toBe(8);
      // On a tie the bond comes first (bonds, rounds, market bets).
      expect(tied.indexOf(`bond:markets:${bond.voided}`)).toBe(tied.indexOf(`bet:markets:${bet.id}`) - 1);
    } finally {
      await t.db
        .update(marketFlags)
        .set({ createdAt: minutesAgo(65) })
        .where(eq(marketFlags.id, bond.voided));
      await t.db.update(bets).set({ createdAt: bet.createdAt }).where(eq(bets.id, bet.id));
    }
  });

  test("the summary's net counts settled bonds; counts and win rate are of bets", async () => {
    const summary = HistorySummarySchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/users/${FLAGGER}/summary` })).json(),
    );
    // Bets: forfeited market −0.02 (lost), returned market won, voided refunded, held pending.
    const betNets = (await history('', FLAGGER)).entries
      .filter((entry) => entry.kind === 'bet' && entry.profitWei !== null)
      .reduce((total, entry) => total + BigInt(entry.profitWei ?? '0'), 0n);
    // Bonds: −0.01 forfeited, +0.002 reward, 0 on the void.
    expect(summary.netWei).toBe(String(betNets - BOND + 2000000000000000n));
    expect(summary.counts).toEqual({ total: 4, pending: 1, won: 1, lost: 1, refunded: 1 });
    expect(summary.totalWageredWei).toBe(String(4n * 20000000000000000n));
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/users/${FLAGGER}/summary?game=oracle` })).json(),
    ).toMatchObject({
      netWei: '0',
    });
  });
});

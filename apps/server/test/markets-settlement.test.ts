import { ListMarketsResponseSchema, MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { computeMarketPayouts } from '@pm/core/payouts';
import { eq, inArray, sql } from 'drizzle-orm';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../src/db/query-rows.ts';
import { bets, markets, outbox, userStats } from '../src/db/schema.ts';
import { systemPromptFor } from '../src/resolution/resolver-prompt.ts';
import { voidAfterRetriesText } from '../src/settlement/record-failed-attempt.ts';
import { voidAfterTimeoutText } from '../src/settlement/settlement-job.ts';
import {
  type AiStub,
  completion,
  judgeEnv,
  marketTitleOf,
  messagesOf,
  type StubHandler,
  startAiStub,
  verdict,
} from './support/ai-stub.ts';
import { insertMarketWithBets, LEGACY_PROMPT_VERSION } from './support/market-fixtures.ts';
import { marketHelpers, settleMarkets, stubSettlementJob } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const FEE_BPS = 200;

let stub: AiStub;
let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
/** What the stub answers, per market title; anything else is UNDECIDABLE. */
const replies = new Map<string, StubHandler>();

beforeAll(async () => {
  stub = await startAiStub();
  stub.reply(
    (request) => replies.get(marketTitleOf(request))?.(request) ?? verdict({ verdict: 'UNDECIDABLE' }),
  );
  t = await startTestApp({
    ...judgeEnv(stub, 'stub-judge'),
    AI_MAX_ATTEMPTS: '3',
    MARKET_FEE_BPS: String(FEE_BPS),
  });
  m = marketHelpers(t);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const requestsFor = (title: string) => stub.requests.filter((request) => marketTitleOf(request) === title);

const settle = () => settleMarkets(t);

const detail = async (id: number) =>
  MarketDetailResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/markets/${id}` })).json());

const stats = async (address: string) => {
  const [row] = await t.db.select().from(userStats).where(eq(userStats.address, address.toLowerCase()));
  return row ?? { totalWinnings: 0n, wonBets: 0, settledBets: 0 };
};

/** A market made through the real endpoints: the creator and two joins, each paid on chain. */
async function marketWithThreeBets(title: string, sides: ['YES' | 'NO', 'YES' | 'NO', 'YES' | 'NO']) {
  const { market } = await m.createMarket(
    { title, description: `${title}: will it happen?`, prediction: sides[0] },
    { player: 0, amountWei: parseEther('0.02') },
  );
  await m.joinMarket(market.id, { player: 1, prediction: sides[1], amountWei: parseEther('0.03') });
  await m.joinMarket(market.id, { player: 2, prediction: sides[2], amountWei: parseEther('0.01') });
  // New markets are v3 (evidence-judging.test.ts); these tests are about settlement with v2's judge.
  await t.db
    .update(markets)
    .set({ resolverPromptVersion: LEGACY_PROMPT_VERSION })
    .where(eq(markets.id, market.id));
  return market;
}

function expectedPayouts(
  list: Array<{ id: number; prediction: string; amountWei: string }>,
  result: 'YES' | 'NO',
) {
  return computeMarketPayouts({
    bets: list.map((bet) => ({
      id: bet.id,
      side: bet.prediction === 'YES' ? ('YES' as const) : ('NO' as const),
      amountWei: BigInt(bet.amountWei),
    })),
    result,
    feeBps: FEE_BPS,
  });
}

describe('the settlement job', () => {
  test('a market past its deadline is judged YES: winners get their share as profit, losers lose', async () => {
    const market = await marketWithThreeBets('yes-market', ['YES', 'NO', 'YES']);
    expect(market.resolver.model).toBe('stub-judge');
    replies.set('yes-market', () =>
      verdict({
        verdict: 'YES',
        confidence: 90,
        analysis: 'It happened.',
        sources: ['https://news.example/1'],
      }),
    );
    const creator = m.player(0).account.address;
    const before = await stats(creator);

    await settle();
    expect((await detail(market.id)).market.status).toBe('active'); // not yet: deadline ahead
    await t.advanceTime(3601);
    await settle();

    const after = await detail(market.id);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'YES',
      aiVerdict: 'It happened.',
      aiConfidence: 90,
      aiSources: ['https://news.example/1'],
    });
    const expected = expectedPayouts(after.bets, 'YES');
    for (const bet of after.bets) {
      const payout = expected.payouts.find((each) => each.id === bet.id);
      if (bet.prediction === 'YES') {
        expect(bet).toMatchObject({
          status: 'won',
          returnWei: payout?.returnWei.toString(),
          profitWei: payout?.profitWei.toString(),
        });
      } else {
        expect(bet).toMatchObject({ status: 'lost', returnWei: '0', profitWei: `-${bet.amountWei}` });
      }
    }
    // 0.03 losing, 2% fee: 0.0294 shared 2:1 between the 0.02 and 0.01 YES stakes.
    expect(after.bets.find((bet) => bet.isCreator)?.profitWei).toBe(parseEther('0.0196').toString());
    const won = await stats(creator);
    expect(won.totalWinnings - before.totalWinnings).toBe(parseEther('0.0196'));
    expect(won.wonBets - before.wonBets).toBe(1);

    const [request] = requestsFor('yes-market');
    expect(request?.body).toMatchObject({ model: 'stub-judge' });
    expect(messagesOf(request).user).toContain(`Market deadline (UTC): ${market.deadline}`);
  });

  test('running the job again changes nothing and asks the resolver nothing', async () => {
    const [settled] = await t.db.select().from(markets).where(eq(markets.title, 'yes-market'));
    const betsBefore = await t.db
      .select()
      .from(bets)
      .where(eq(bets.marketId, settled?.id ?? 0));
    const statsBefore = await t.db.select().from(userStats);
    await settle();
    await settle();
    expect(requestsFor('yes-market')).toHaveLength(1);
    expect(
      await t.db
        .select()
        .from(bets)
        .where(eq(bets.marketId, settled?.id ?? 0)),
    ).toEqual(betsBefore);
    expect(await t.db.select().from(userStats)).toEqual(statsBefore);
  });

  test('a NO verdict pays the NO side', async () => {
    const market = await marketWithThreeBets('no-market', ['YES', 'NO', 'NO']);
    replies.set('no-market', () => verdict({ verdict: 'NO', confidence: 75 }));
    await t.advanceTime(3601);
    await settle();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({ status: 'settled', result: 'NO', aiConfidence: 75 });
    const expected = expectedPayouts(after.bets, 'NO');
    expect(
      after.bets.filter((bet) => bet.status === 'won').map((bet) => [bet.id, bet.returnWei, bet.profitWei]),
    ).toEqual(
      expect.arrayContaining(
        expected.payouts.map((payout) => [
          payout.id,
          payout.returnWei.toString(),
          payout.profitWei.toString(),
        ]),
      ),
    );
    expect(after.bets.filter((bet) => bet.status === 'won')).toHaveLength(2);
    expect(after.bets.find((bet) => bet.prediction === 'YES')?.status).toBe('lost');
  });

  test('a verdict with no bet on the winning side refunds every stake', async () => {
    const market = await marketWithThreeBets('nobody-won', ['YES', 'YES', 'YES']);
    replies.set('nobody-won', () => verdict({ verdict: 'NO', confidence: 99 }));
    const before = await stats(m.player(1).account.address);
    await t.advanceTime(3601);
    await settle();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({ status: 'settled', result: 'NO' });
    expect(after.bets.map((bet) => [bet.status, bet.returnWei, bet.profitWei])).toEqual(
      after.bets.map((bet) => ['refunded', bet.amountWei, '0']),
    );
    const later = await stats(m.player(1).account.address);
    expect(later.settledBets).toBe(before.settledBets);
  });

  test('an HTTP 500, a timeout and a low confidence are retried with backoff, then the market is voided', async () => {
    const market = await marketWithThreeBets('void-market', ['YES', 'NO', 'YES']);
    const answers: StubHandler[] = [
      () => ({ status: 500, body: '{"error":"overloaded"}' }),
      () => 'hang',
      () => verdict({ verdict: 'YES', confidence: 40, analysis: 'Unsure.' }),
    ];
    replies.set(
      'void-market',
      (request) => answers[requestsFor('void-market').length - 1]?.(request) ?? verdict(),
    );
    await t.advanceTime(3601);

    await settle();
    let [row] = await t.db.select().from(markets).where(eq(markets.id, market.id));
    expect(row).toMatchObject({ status: 'settling', resolutionAttempts: 1 });
    expect(row?.resolutionError).toContain('HTTP 500');
    const firstRetryAt = row?.nextResolutionAt?.getTime() ?? 0;
    expect(firstRetryAt - t.clock.now().getTime()).toBeGreaterThan(290_000);

    await settle(); // not due yet: the resolver is not asked again
    expect(requestsFor('void-market')).toHaveLength(1);

    await t.advanceTime(301);
    await settle();
    [row] = await t.db.select().from(markets).where(eq(markets.id, market.id));
    expect(row).toMatchObject({ status: 'settling', resolutionAttempts: 2 });
    expect(row?.resolutionError).toContain('no answer within 1000 ms');
    // Exponential: the second wait is twice the first.
    expect((row?.nextResolutionAt?.getTime() ?? 0) - t.clock.now().getTime()).toBeGreaterThan(590_000);

    await t.advanceTime(601);
    await settle();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'VOID',
      aiVerdict: voidAfterRetriesText(3),
    });
    expect(
      after.bets.every(
        (bet) => bet.status === 'refunded' && bet.returnWei === bet.amountWei && bet.profitWei === '0',
      ),
    ).toBe(true);
    [row] = await t.db.select().from(markets).where(eq(markets.id, market.id));
    expect(row?.resolutionError).toContain('below 70');
    expect(requestsFor('void-market')).toHaveLength(3);
  });

  test('two settlement runs racing on one database close and settle each market exactly once', async () => {
    const now = t.clock.now();
    const titles = ['race-1', 'race-2', 'race-3'];
    const fixtures = [];
    for (const title of titles) {
      replies.set(title, async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return verdict({ verdict: 'YES', confidence: 90 });
      });
      fixtures.push(
        await insertMarketWithBets(t.db, {
          title,
          status: 'active',
          now: new Date(now.getTime() - 1000),
          resolverModel: 'stub-judge',
          bets: [
            { prediction: 'YES', amountWei: parseEther('0.01') },
            { prediction: 'NO', amountWei: parseEther('0.02') },
          ],
        }),
      );
    }
    const ids = fixtures.map((fixture) => fixture.marketId);
    const secondInstance = stubSettlementJob(t, stub, {
      feeBps: FEE_BPS,
      reviewWindowS: t.config.ai.reviewWindowS,
    });
    await Promise.all([settle(), secondInstance.run(), settle()]);

    const rows = await t.db.select().from(markets).where(inArray(markets.id, ids));
    expect(rows.map((row) => [row.status, row.result])).toEqual(ids.map(() => ['settled', 'YES']));
    for (const title of titles) expect(requestsFor(title)).toHaveLength(1);
    const users = await t.db.select().from(bets).where(inArray(bets.marketId, ids));
    const statsRows = await t.db
      .select()
      .from(userStats)
      .where(
        inArray(
          userStats.address,
          users.map((bet) => bet.userAddress),
        ),
      );
    expect(statsRows.map((row) => row.settledBets)).toEqual(statsRows.map(() => 1));
    const events = await t.db
      .select({ id: sql`(${outbox.payload} ->> 'id')::int`.mapWith(Number) })
      .from(outbox)
      .where(eq(outbox.topic, 'markets'));
    for (const id of ids) expect(events.filter((event) => event.id === id)).toHaveLength(2);
  });
});

describe('settled markets', () => {
  test('are listed newest-updated first, ten by default, and are not open any more', async () => {
    const base = t.clock.now().getTime() + 60_000;
    for (let i = 0; i < 12; i++) {
      await insertMarketWithBets(t.db, {
        title: `settled-${i}`,
        status: 'settled',
        bets: [],
        updatedAt: new Date(base + i * 1000),
      });
    }
    const settled = ListMarketsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/markets?status=settled' })).json(),
    );
    expect(settled.markets.map((market) => market.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `settled-${11 - i}`),
    );
    const three = (await t.app.inject({ method: 'GET', url: '/api/markets?status=settled&limit=3' })).json();
    expect(three.markets).toHaveLength(3);
    const open = ListMarketsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/markets' })).json(),
    );
    expect(open.markets.every((market) => market.status !== 'settled')).toBe(true);
  });
});

describe('payout maths in SQL', () => {
  /** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
  function random(seed: number) {
    let state = seed;
    const next = () => {
      state = (state + 0x6d2b79f5) | 0;
      let x = Math.imul(state ^ (state >>> 15), 1 | state);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const bigintBelow = (digits: number) => {
      let value = 0n;
      for (let i = 0; i < digits; i++) value = value * 10n + BigInt(Math.floor(next() * 10));
      return value;
    };
    return { next, bigintBelow };
  }

  test('bulk SQL settlement pays exactly what core computeMarketPayouts computes, on random pools', async () => {
    const rng = random(20_260_302);
    for (let round = 0; round < 30; round++) {
      const count = 1 + Math.floor(rng.next() * 25);
      const fixtureBets = Array.from({ length: count }, () => ({
        prediction: rng.next() < 0.5 ? ('YES' as const) : ('NO' as const),
        // From one wei to 10^30 wei, so rounding and huge products both show up.
        amountWei: 1n + rng.bigintBelow(1 + Math.floor(rng.next() * 30)),
      }));
      const outcome = (['YES', 'NO', 'VOID'] as const)[Math.floor(rng.next() * 3)] ?? 'YES';
      const feeBps = Math.floor(rng.next() * 1001);
      const { marketId, betIds } = await insertMarketWithBets(t.db, {
        title: `maths-${round}`,
        bets: fixtureBets,
      });

      const { settleMarket } = await import('../src/settlement/settle-market.ts');
      const summary = await t.db.transaction((tx) =>
        settleMarket(tx, {
          escrow: null,
          marketId,
          outcome,
          verdict: { analysis: 'maths', confidence: null, sources: [] },
          feeBps,
          now: t.clock.now(),
          from: ['settling'],
        }),
      );
      const expected = computeMarketPayouts({
        bets: fixtureBets.map((bet, index) => ({
          id: betIds[index] ?? -1,
          side: bet.prediction,
          amountWei: bet.amountWei,
        })),
        result: outcome,
        feeBps,
      });
      expect(summary?.refunded).toBe(expected.refund);
      expect(summary?.feeWei).toBe(expected.feeWei);

      const rows = await t.db.select().from(bets).where(eq(bets.marketId, marketId));
      for (const row of rows) {
        const payout = expected.payouts.find((each) => each.id === row.id);
        // payout_amount is the full return (decision 002): the stake back, stake + profit, or 0.
        if (expected.refund) expect([row.status, row.payoutAmount]).toEqual(['refunded', row.amount]);
        else if (payout) expect([row.status, row.payoutAmount]).toEqual(['won', payout.returnWei]);
        else expect([row.status, row.payoutAmount]).toEqual(['lost', 0n]);
      }
    }
  });
});

// Decision 024 (migration 0014): settling a market rewrites every bet. Those writes must stay in their
// page (HOT updates) and touch no index, or a market with 100k bets takes seconds of index upkeep.
describe('settlement writes each bet in its own page, touching no index', () => {
  const WRITTEN = ['status', 'payout_amount'];

  test('no index of bets names a column that settlement or a claim writes, and pages keep room', async () => {
    const indexes = await queryRows(
      t.db,
      sql`select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as definition
          from pg_index where indrelid = 'bets'::regclass`,
      z.object({ name: z.string(), definition: z.string() }),
    );
    expect(indexes.length).toBeGreaterThan(0);
    for (const index of indexes) {
      for (const column of WRITTEN) {
        expect(`${index.name}: ${index.definition}`).not.toMatch(new RegExp(`\\b${column}\\b`));
      }
    }
    const [table] = await queryRows(
      t.db,
      sql`select reloptions from pg_class where oid = 'bets'::regclass`,
      z.object({ reloptions: z.array(z.string()).nullable() }),
    );
    expect(table?.reloptions).toContain('fillfactor=50');
  });

  test('every bet of a settled market was a HOT update', async () => {
    const { marketId } = await insertMarketWithBets(t.db, {
      title: 'hot-updates',
      bets: Array.from({ length: 40 }, (_, i) => ({
        prediction: i % 3 === 0 ? ('NO' as const) : ('YES' as const),
        amountWei: parseEther('0.01') * BigInt(1 + (i % 5)),
      })),
    });
    const { settleMarket } = await import('../src/settlement/settle-market.ts');
    // pg_stat_xact_user_tables counts this transaction's writes (and, since PostgreSQL 15, those of
    // earlier ones not yet flushed to the shared counters): the difference across settleMarket is its own.
    // By relid, not name: every test file's schema has a `bets` table, and the view lists them all.
    const bySettlement = await t.db.transaction(async (tx) => {
      const read = async () => {
        const [counts] = await queryRows(
          tx,
          sql`select n_tup_upd::int as updated, n_tup_hot_upd::int as hot
              from pg_stat_xact_user_tables where relid = 'bets'::regclass`,
          z.object({ updated: z.number(), hot: z.number() }),
        );
        return counts ?? { updated: 0, hot: 0 };
      };
      const before = await read();
      await settleMarket(tx, {
        escrow: null,
        marketId,
        outcome: 'YES',
        verdict: { analysis: 'hot', confidence: null, sources: [] },
        feeBps: FEE_BPS,
        now: t.clock.now(),
        from: ['settling'],
      });
      const after = await read();
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(bySettlement).toEqual({ updated: 40, hot: 40 });
  });
});

// No market waits forever for a verdict (docs/decisions/009). Last in this file: it moves the clock
// days ahead.
describe('verdicts that must not settle, and markets nobody can judge', () => {
  const settlingMarket = (title: string, overrides: { resolverPromptVersion?: string } = {}) =>
    insertMarketWithBets(t.db, {
      title,
      now: new Date(t.clock.now().getTime() - 1000),
      resolverModel: 'stub-judge',
      ...overrides,
      bets: [
        { prediction: 'YES', amountWei: parseEther('0.01') },
        { prediction: 'NO', amountWei: parseEther('0.02') },
      ],
    });

  test('a confident YES with no sources, an oversized answer or an off-schema one settles nothing', async () => {
    const good = { verdict: 'YES', confidence: 99, analysis: 'Sure.', sources: ['https://news.example/2'] };
    replies.set('no-sources', () => verdict({ ...good, sources: [] }));
    replies.set('oversized', () => verdict({ ...good, analysis: 'x'.repeat(300 * 1024) }));
    replies.set('off-schema', () => completion({ ...good, confidence: '99' }));
    const ids = [];
    for (const title of ['no-sources', 'oversized', 'off-schema'])
      ids.push((await settlingMarket(title)).marketId);
    await settle();
    const rows = await t.db.select().from(markets).where(inArray(markets.id, ids));
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'settling', result: null, resolutionAttempts: 1 });
    }
    for (const title of ['no-sources', 'oversized', 'off-schema']) expect(requestsFor(title)).toHaveLength(1);
  });

  test('a market created under the v1 prompt is still judged, by the v1 text', async () => {
    replies.set('v1-market', () => verdict({ verdict: 'NO', confidence: 90 }));
    const { marketId } = await settlingMarket('v1-market', { resolverPromptVersion: 'market-resolver-v1' });
    await settle();
    expect((await detail(marketId)).market).toMatchObject({ status: 'settled', result: 'NO' });
    expect(messagesOf(requestsFor('v1-market')[0]).system).toBe(systemPromptFor('market-resolver-v1'));
  });

  test('a market whose prompt version this server does not run is voided and refunded after the timeout', async () => {
    replies.set('old-prompt', () => verdict({ verdict: 'YES', confidence: 99 }));
    const { marketId } = await settlingMarket('old-prompt', { resolverPromptVersion: 'market-resolver-v0' });
    await settle();
    expect((await detail(marketId)).market.status).toBe('settling');

    await t.advanceTime(t.config.ai.resolutionTimeoutS - 60);
    await settle();
    expect((await detail(marketId)).market.status).toBe('settling');

    await t.advanceTime(120);
    await settle();
    const after = await detail(marketId);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'VOID',
      aiVerdict: voidAfterTimeoutText(t.config.ai.resolutionTimeoutS),
    });
    expect(after.bets.every((bet) => bet.status === 'refunded')).toBe(true);
    expect(requestsFor('old-prompt')).toHaveLength(0);
  });
});

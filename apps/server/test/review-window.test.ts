import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { FlagMarketResponseSchema, flagTypedData } from '@pm/core/contract/review';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { computeMarketPayouts } from '@pm/core/payouts';
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { parseEther } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { bets, marketFlags, markets } from '../src/db/schema.ts';
import { createSettlementJob, voidAfterTimeoutText } from '../src/markets/settlement-job.ts';
import { marketsCommands } from '../src/ops/markets-commands.ts';
import { createAiResolver } from '../src/resolution/ai-resolver.ts';
import { MARKET_DATA_CLOSE, MARKET_DATA_OPEN } from '../src/resolution/resolver-prompt.ts';
import { type AiStub, messagesOf, type StubHandler, startAiStub, verdict } from './support/ai-stub.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { player, signOperatorAction } from './support/operator-helpers.ts';
import { runOps } from './support/ops-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Issue 11, docs/decisions/011: an AI verdict is proposed and reviewed before anything is paid.

const FEE_BPS = 200;
const WINDOW_S = 600;
const MODEL = 'stub-judge';

let stub: AiStub;
let t: TestApp;
/** The verdict the stub gives, per market title; YES by default. */
const replies = new Map<string, StubHandler>();

beforeAll(async () => {
  stub = await startAiStub();
  stub.reply(
    (request) => replies.get(titleOf(request))?.(request) ?? verdict({ verdict: 'YES', confidence: 91 }),
  );
  t = await startTestApp({
    AI_BASE_URL: stub.url,
    AI_API_KEY: 'sk-test',
    AI_MODEL: MODEL,
    AI_TIMEOUT_MS: '1000',
    AI_MIN_CONFIDENCE: '70',
    MARKET_FEE_BPS: String(FEE_BPS),
    RESOLUTION_REVIEW_WINDOW_S: String(WINDOW_S),
    OPERATOR_ADDRESSES: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

function titleOf(request: Parameters<StubHandler>[0]): string {
  const { user } = messagesOf(request);
  const start = user.indexOf(MARKET_DATA_OPEN) + MARKET_DATA_OPEN.length;
  const data: unknown = JSON.parse(user.slice(start, user.indexOf(MARKET_DATA_CLOSE)));
  return data && typeof data === 'object' && 'title' in data && typeof data.title === 'string'
    ? data.title
    : '';
}

const settle = async () => {
  // Closing and voiding, then judging: two jobs since issue 18, one pass of both here.
  for (const name of ['market-settlement', 'market-judging']) {
    const job = t.features.jobs.find((candidate) => candidate.name === name);
    if (!job) throw new Error(`no ${name} job`);
    await job.run();
  }
};

const detail = async (id: number) =>
  MarketDetailResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/markets/${id}` })).json());

const claimable = async (address: string) =>
  ClaimableResponseSchema.parse(
    (await t.app.inject({ method: 'GET', url: `/api/users/${address}/claimable` })).json(),
  );

const newAccount = () => privateKeyToAccount(generatePrivateKey());

/** A settling market judged by the stub, with YES and NO bets from accounts that can sign. */
async function marketInReview(title: string, sides: Array<'YES' | 'NO'> = ['YES', 'NO', 'NO']) {
  const bettors = sides.map(() => newAccount());
  const { marketId, betIds } = await insertMarketWithBets(t.db, {
    title,
    now: t.clock.now(),
    resolverModel: MODEL,
    bets: sides.map((prediction, index) => ({
      prediction,
      amountWei: parseEther(`0.0${index + 1}`),
      user: bettors[index]?.address.toLowerCase(),
    })),
  });
  await settle();
  return { marketId, betIds, bettors };
}

async function flagBody(
  account: PrivateKeyAccount,
  marketId: number,
  reason: string,
  override: { chainId?: number; marketId?: number; expiry?: number; reason?: string } = {},
) {
  const expiry = override.expiry ?? Math.floor(t.clock.now().getTime() / 1000) + 300;
  const signature = await account.signTypedData(
    flagTypedData({
      chainId: override.chainId ?? t.config.chain.id,
      marketId: override.marketId ?? marketId,
      reason: override.reason ?? reason,
      expiry,
    }),
  );
  return { address: account.address, reason, expiry, signature };
}

async function postFlag(marketId: number, body: object) {
  return t.app.inject({ method: 'POST', url: `/api/markets/${marketId}/flags`, payload: body });
}

const ops = (...argv: string[]) => runOps(t, marketsCommands, ...argv);

const betRows = (ids: number[]) => t.db.select().from(bets).where(inArray(bets.id, ids)).orderBy(bets.id);

describe('A proposed verdict', () => {
  test('The review window is an hour unless configured, and 0 settles at once', () => {
    expect(loadConfig({}).ai.reviewWindowS).toBe(3600);
    expect(loadConfig({ RESOLUTION_REVIEW_WINDOW_S: '0' }).ai.reviewWindowS).toBe(0);
    expect(() => loadConfig({ RESOLUTION_REVIEW_WINDOW_S: '-1' })).toThrow();
  });

  test('An AI verdict is proposed with its analysis, and nothing is claimable until the window ends unflagged', async () => {
    const { marketId, betIds, bettors } = await marketInReview('Proposed then settled');
    const proposed = await detail(marketId);
    expect(proposed.market.status).toBe('settling');
    expect(proposed.market.result).toBeNull();
    expect(proposed.market.review).toMatchObject({
      result: 'YES',
      model: MODEL,
      confidence: 91,
      analysis: 'It happened.',
      sources: ['https://example.com/report'],
      flagCount: 0,
    });
    const review = proposed.market.review;
    if (!review) throw new Error('no review');
    expect(Date.parse(review.endsAt) - Date.parse(review.proposedAt)).toBe(WINDOW_S * 1000);
    expect(proposed.timeline?.map((event) => [event.kind, event.actor, event.result])).toEqual([
      ['proposed', MODEL, 'YES'],
    ]);
    expect((await betRows(betIds)).map((bet) => bet.status)).toEqual(['pending', 'pending', 'pending']);
    const winner = bettors[0]?.address ?? '';
    expect((await claimable(winner)).markets).toMatchObject({ count: 0, totalWei: '0' });

    // Judged once: a proposed market is not judged again while it waits.
    const judged = stub.requests.filter((request) => titleOf(request) === 'Proposed then settled').length;
    await settle();
    expect(stub.requests.filter((request) => titleOf(request) === 'Proposed then settled')).toHaveLength(
      judged,
    );

    await t.advanceTime(WINDOW_S - 30);
    await settle();
    expect((await detail(marketId)).market.status).toBe('settling');

    await t.advanceTime(31);
    await settle();
    const settled = await detail(marketId);
    expect(settled.market).toMatchObject({ status: 'settled', result: 'YES', aiConfidence: 91 });
    expect(settled.timeline?.map((event) => [event.kind, event.actor, event.result])).toEqual([
      ['proposed', MODEL, 'YES'],
      ['settled', 'system', 'YES'],
    ]);
    // Stakes 0.01 YES; 0.02 + 0.03 NO: the winner gets the losing pool less the fee.
    const [expected] = computeMarketPayouts({
      bets: [
        { id: 1, side: 'YES', amountWei: parseEther('0.01') },
        { id: 2, side: 'NO', amountWei: parseEther('0.02') },
        { id: 3, side: 'NO', amountWei: parseEther('0.03') },
      ],
      result: 'YES',
      feeBps: FEE_BPS,
    }).payouts;
    expect((await claimable(winner)).markets.totalWei).toBe(
      String(parseEther('0.01') + (expected?.profitWei ?? 0n)),
    );
  });

  test('With a window of 0 the verdict settles at once, as before the review window', async () => {
    const { marketId } = await insertMarketWithBets(t.db, {
      title: 'No window',
      now: t.clock.now(),
      resolverModel: MODEL,
      bets: [{ prediction: 'YES', amountWei: parseEther('0.01') }],
    });
    const immediate = createSettlementJob({
      db: t.db,
      clock: t.clock,
      logger: pino({ level: 'silent' }),
      resolver: createAiResolver({ baseUrl: stub.url, timeoutMs: 1000 }),
      minConfidence: 70,
      maxAttempts: 3,
      feeBps: FEE_BPS,
      leaseMs: 61_000,
      resolutionTimeoutS: t.config.ai.resolutionTimeoutS,
      reviewWindowS: 0,
    });
    await immediate.run();
    const settled = await detail(marketId);
    expect(settled.market).toMatchObject({ status: 'settled', result: 'YES', review: null });
    expect(settled.timeline?.map((event) => [event.kind, event.actor])).toEqual([['settled', MODEL]]);
  });
});

describe('Flags', () => {
  test('A bettor flags once with a signed reason; the flag is on the timeline', async () => {
    const { marketId, bettors } = await marketInReview('Flag once');
    const [, bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const response = await postFlag(marketId, await flagBody(bettor, marketId, 'The match was postponed.'));
    expect(response.statusCode).toBe(201);
    expect(FlagMarketResponseSchema.parse(response.json()).event).toMatchObject({
      kind: 'flagged',
      actor: bettor.address.toLowerCase(),
      detail: 'The match was postponed.',
    });
    const again = await postFlag(marketId, await flagBody(bettor, marketId, 'Still wrong.'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'ALREADY_FLAGGED' } });

    const after = await detail(marketId);
    expect(after.market.review?.flagCount).toBe(1);
    expect(after.timeline?.map((event) => event.kind)).toEqual(['proposed', 'flagged']);
  });

  test('Refused flags change nothing: non-bettor, bad signatures, replay elsewhere, bad reasons', async () => {
    const { marketId, bettors } = await marketInReview('Refusals');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const stranger = newAccount();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const cases: Array<[string, object, number, string]> = [
      ['non-bettor', await flagBody(stranger, marketId, 'I never bet'), 403, 'NOT_A_BETTOR'],
      ['other chain', await flagBody(bettor, marketId, 'Wrong', { chainId: 56 }), 401, 'UNAUTHORIZED'],
      [
        'other market',
        await flagBody(bettor, marketId, 'Wrong', { marketId: marketId + 1 }),
        401,
        'UNAUTHORIZED',
      ],
      ['other reason', await flagBody(bettor, marketId, 'Wrong', { reason: 'Right' }), 401, 'UNAUTHORIZED'],
      [
        "someone else's signature",
        { ...(await flagBody(stranger, marketId, 'Wrong')), address: bettor.address },
        401,
        'UNAUTHORIZED',
      ],
      ['expired', await flagBody(bettor, marketId, 'Wrong', { expiry: now - 1 }), 401, 'UNAUTHORIZED'],
      ['far expiry', await flagBody(bettor, marketId, 'Wrong', { expiry: now + 86_400 }), 400, 'BAD_REQUEST'],
      ['too long', await flagBody(bettor, marketId, 'x'.repeat(281)), 400, 'VALIDATION_FAILED'],
      ['blank', await flagBody(bettor, marketId, '   '), 400, 'VALIDATION_FAILED'],
    ];
    for (const [name, body, status, code] of cases) {
      const response = await postFlag(marketId, body);
      expect({ name, status: response.statusCode, code: response.json().error?.code }).toEqual({
        name,
        status,
        code,
      });
    }
    expect(await t.db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId))).toEqual([]);
    expect((await detail(marketId)).market.review?.flagCount).toBe(0);
  });

  test('No flag after the window, nor on a market with no verdict in review', async () => {
    const { marketId, bettors } = await marketInReview('Too late');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    await t.advanceTime(WINDOW_S);
    const late = await postFlag(marketId, await flagBody(bettor, marketId, 'Late'));
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: { code: 'REVIEW_CLOSED' } });
    await settle();
    const settledFlag = await postFlag(marketId, await flagBody(bettor, marketId, 'Settled'));
    expect(settledFlag.json()).toMatchObject({ error: { code: 'NOT_IN_REVIEW' } });
    expect((await detail(marketId)).market.status).toBe('settled');
    const missing = await postFlag(999_999, await flagBody(bettor, 999_999, 'Nowhere'));
    expect(missing.statusCode).toBe(404);
  });
});

describe('A flagged verdict', () => {
  test('waits for an operator after the window, who overturns it to NO: the NO side is paid exactly', async () => {
    const { marketId, betIds, bettors } = await marketInReview('Overturn to NO');
    const [, noBettor] = bettors;
    if (!noBettor) throw new Error('no bettor');
    expect(
      (await postFlag(marketId, await flagBody(noBettor, marketId, 'It did not happen.'))).statusCode,
    ).toBe(201);
    await t.advanceTime(WINDOW_S + 5);
    await settle();
    expect((await detail(marketId)).market.status).toBe('settling');
    expect((await claimable(noBettor.address)).markets.count).toBe(0);
    const listed = await ops('markets:flagged');
    expect(listed.output).toContain(`#${marketId}  Overturn to NO`);
    expect(listed.output).toContain(`flagged by ${noBettor.address.toLowerCase()}`);
    expect(listed.output).toContain('It did not happen.');

    const operator = player(t, 2);
    const request = {
      action: 'market.resolve' as const,
      marketId,
      result: 'NO' as const,
      reason: 'The event was called off.',
    };
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/markets/${marketId}/admin/resolve`,
      payload: { ...(await signOperatorAction(t, operator, request)), result: 'NO', reason: request.reason },
    });
    expect(response.statusCode).toBe(200);

    const after = await detail(marketId);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'NO',
      aiVerdict: 'The event was called off.',
    });
    const operatorAddress = operator.account.address.toLowerCase();
    expect(after.timeline?.map((event) => [event.kind, event.actor, event.result])).toEqual([
      ['proposed', MODEL, 'YES'],
      ['flagged', noBettor.address.toLowerCase(), null],
      ['overturned', operatorAddress, 'NO'],
      ['settled', operatorAddress, 'NO'],
    ]);
    const { payouts } = computeMarketPayouts({
      bets: [
        { id: betIds[0] ?? 0, side: 'YES', amountWei: parseEther('0.01') },
        { id: betIds[1] ?? 0, side: 'NO', amountWei: parseEther('0.02') },
        { id: betIds[2] ?? 0, side: 'NO', amountWei: parseEther('0.03') },
      ],
      result: 'NO',
      feeBps: FEE_BPS,
    });
    const rows = await betRows(betIds);
    // payout_amount is the full return, stake included (decision 002).
    expect(rows.map((bet) => [bet.status, bet.payoutAmount])).toEqual([
      ['lost', 0n],
      ['won', payouts.find((payout) => payout.id === betIds[1])?.returnWei],
      ['won', payouts.find((payout) => payout.id === betIds[2])?.returnWei],
    ]);
    expect((await claimable(noBettor.address)).markets.count).toBe(1);
  });

  test('overturned to VOID from the ops CLI refunds every stake', async () => {
    const { marketId, betIds, bettors } = await marketInReview('Overturn to VOID');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    await postFlag(marketId, await flagBody(bettor, marketId, 'Ambiguous question.'));
    const result = await ops(
      'markets:overturn',
      String(marketId),
      'VOID',
      '--reason',
      'The question was ambiguous.',
    );
    expect(result.code).toBe(0);
    expect((await detail(marketId)).market).toMatchObject({ status: 'settled', result: 'VOID' });
    expect((await betRows(betIds)).map((bet) => bet.status)).toEqual(['refunded', 'refunded', 'refunded']);
    expect((await claimable(bettor.address)).markets.totalWei).toBe(String(parseEther('0.01')));
    const timeline = (await detail(marketId)).timeline ?? [];
    expect(timeline.map((event) => [event.kind, event.actor])).toEqual([
      ['proposed', MODEL],
      ['flagged', bettor.address.toLowerCase()],
      ['overturned', 'ops CLI'],
      ['settled', 'ops CLI'],
    ]);
  });

  test('confirmed by an operator keeps the AI verdict', async () => {
    const { marketId, bettors } = await marketInReview('Confirmed');
    const [, bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    await postFlag(marketId, await flagBody(bettor, marketId, 'I disagree.'));
    expect((await ops('markets:confirm', String(marketId), '--note', 'Checked the sources.')).code).toBe(0);
    const after = await detail(marketId);
    expect(after.market).toMatchObject({ status: 'settled', result: 'YES', aiConfidence: 91 });
    expect(after.timeline?.map((event) => event.kind)).toEqual([
      'proposed',
      'flagged',
      'confirmed',
      'settled',
    ]);
    expect((await ops('markets:confirm', String(marketId), '--note', 'Again')).code).toBe(1);
  });

  test('with no operator, is voided and refunded once the resolution timeout has passed after its window', async () => {
    const { marketId, betIds, bettors } = await marketInReview('Nobody came');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    await postFlag(marketId, await flagBody(bettor, marketId, 'Wrong.'));
    await t.advanceTime(WINDOW_S + t.config.ai.resolutionTimeoutS - 60);
    await settle();
    expect((await detail(marketId)).market.status).toBe('settling');
    await t.advanceTime(61);
    await settle();
    expect((await detail(marketId)).market).toMatchObject({
      status: 'settled',
      result: 'VOID',
      aiVerdict: voidAfterTimeoutText(t.config.ai.resolutionTimeoutS),
    });
    expect((await betRows(betIds)).map((bet) => bet.status)).toEqual(['refunded', 'refunded', 'refunded']);
    const [row] = await t.db.select().from(markets).where(eq(markets.id, marketId));
    expect(row?.flagCount).toBe(1);
  });
});

import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { FlagMarketResponseSchema, flagTypedData } from '@pm/core/contract/review';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { computeBondedMarketPayouts } from '@pm/core/flag-bonds';
import { computeMarketPayouts } from '@pm/core/payouts';
import { depositArgs, flagBondTerms, marketClosesAt } from '@pm/escrow/deposit-terms';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { payForFlagBond } from '@pm/pay-and-post/pay-and-post-flag';
import { payPlainTransfer } from '@pm/pay-and-post/pay-plain-transfer';
import { walletPayer } from '@pm/pay-and-post/payer';
import { and, eq, inArray } from 'drizzle-orm';
import { createWalletClient, type Hash, type Hex, http, parseEther, publicActions } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { DEV_OPERATOR } from '../src/config/dev-accounts.ts';
import { bets, escrowRefunds, marketFlags, markets, payments, payoutLists } from '../src/db/schema.ts';
import { listMarketBondStakes } from '../src/escrow/settlements/payout-lists-repository.ts';
import { marketsCommands } from '../src/ops/markets-commands.ts';
import { voidAfterTimeoutText } from '../src/settlement/settlement-job.ts';
import {
  type AiStub,
  judgeEnv,
  marketTitleOf,
  type StubHandler,
  startAiStub,
  verdict,
} from './support/ai-stub.ts';
import { escrowMarket, escrowOf, postClaim, postEscrowSettlement } from './support/escrow-market-helpers.ts';
import { stakeOf, watchBalance } from './support/escrow-stakes.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { settleMarkets, stubSettlementJob } from './support/market-helpers.ts';
import { player, signOperatorAction } from './support/operator-helpers.ts';
import { runOps } from './support/ops-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { localChain } from './support/test-chain.ts';

// docs/decisions/011: an AI verdict is proposed and reviewed before anything is paid.
// Decision 026: a flag carries a bond, a dispute deposit into the escrow while the verdict's
// settlement is pending on chain (posted at proposal, its delay the review window, by the escrow's own
// jobs: postEscrowSettlement); its fate is settled with the market and listed as its stake's leaf.
// flag-disputes.test.ts has the chain's side.

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
    (request) =>
      replies.get(marketTitleOf(request))?.(request) ?? verdict({ verdict: 'YES', confidence: 91 }),
  );
  t = await startTestApp({
    ...judgeEnv(stub, MODEL),
    MARKET_FEE_BPS: String(FEE_BPS),
    RESOLUTION_REVIEW_WINDOW_S: String(WINDOW_S),
    OPERATOR_ADDRESSES: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const settle = () => settleMarkets(t);

const detail = async (id: number) =>
  MarketDetailResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/markets/${id}` })).json());

const claimable = async (address: string) =>
  ClaimableResponseSchema.parse(
    (await t.app.inject({ method: 'GET', url: `/api/users/${address}/claimable` })).json(),
  );

const newAccount = () => privateKeyToAccount(generatePrivateKey());

/** The bond of the markets here: pools of 0.06 BNB, 5% is below the escrow's 0.01 BNB floor. */
const BOND = parseEther('0.01');

const walletOf = (account: PrivateKeyAccount) =>
  createWalletClient({ chain: localChain, transport: http(t.chain.rpcUrl), account }).extend(publicActions);

const payerOf = (account: PrivateKeyAccount) => walletPayer(walletOf(account));

/** The market's key on the escrow, as its flag's bond names it. */
async function escrowMarketOf(marketId: number) {
  const [row] = await t.db.select().from(markets).where(eq(markets.id, marketId));
  if (!row?.escrowId) throw new Error(`market ${marketId} is not on the escrow`);
  return {
    marketId,
    escrowId: row.escrowId as Hex,
    closesAt: marketClosesAt(row.deadline),
    key: row.escrowKey as Hex,
  };
}

/** Sends `amountWei` as the flag bond of `marketId` (a dispute deposit) without waiting for it. */
async function sendBond(account: PrivateKeyAccount, marketId: number, amountWei = BOND): Promise<Hash> {
  return payForFlagBond(payerOf(account), escrowOf(t), { ...(await escrowMarketOf(marketId)), amountWei });
}

/** Deposits `amountWei` as the flag bond of `marketId` and waits until it is mined. */
async function payBond(account: PrivateKeyAccount, marketId: number, amountWei = BOND): Promise<Hash> {
  const hash = await sendBond(account, marketId, amountWei);
  await walletOf(account).waitForTransactionReceipt({ hash });
  return hash;
}

/** The revert a bond deposit of `account` would meet now (nothing is sent). */
async function bondRevert(account: PrivateKeyAccount, marketId: number, amountWei = BOND) {
  const market = await escrowMarketOf(marketId);
  return t.chain.publicClient
    .simulateContract({
      account: account.address,
      address: escrowOf(t),
      abi: predictionEscrowAbi,
      functionName: 'deposit',
      args: depositArgs(flagBondTerms(market)),
      value: amountWei,
    })
    .then(
      () => null,
      (error: unknown) => String(error),
    );
}

const paymentOf = async (txHash: string) =>
  (await t.db.select().from(payments).where(eq(payments.txHash, txHash.toLowerCase())))[0];

const escrowRefundOf = async (txHash: string) =>
  (await t.db.select().from(escrowRefunds).where(eq(escrowRefunds.txHash, txHash.toLowerCase())))[0];

/**
 * A settling market on the escrow judged by the stub, with YES and NO bets (deposits) from accounts
 * that can sign, its verdict's settlement posted on chain with the review window as its delay
 * (`post: false`: proposed only, its settlement still due).
 */
async function marketInReview(
  title: string,
  sides: Array<'YES' | 'NO'> = ['YES', 'NO', 'NO'],
  options: { post?: boolean } = {},
) {
  const bettors = sides.map(() => newAccount());
  // Each bettor can pay a bond (and its gas) from the wallet.
  for (const bettor of bettors)
    await t.chain.testClient.setBalance({ address: bettor.address, value: parseEther('1') });
  const market = await escrowMarket(t, {
    title,
    resolverModel: MODEL,
    bettors: sides.map((prediction, index) => ({
      prediction,
      amountWei: parseEther(`0.0${index + 1}`),
      wallet: walletOf(bettors[index] as PrivateKeyAccount),
    })),
  });
  const { marketId, betIds } = market;
  await market.passClose();
  await settle();
  const [row] = await t.db.select().from(markets).where(eq(markets.id, marketId));
  if (row?.proposedResult && options.post !== false) await postEscrowSettlement(t, { marketId });
  return { marketId, betIds, bettors };
}

/** The latest block's time: the clock the escrow's dispute window runs on. */
async function chainNow(): Promise<Date> {
  const block = await t.chain.publicClient.getBlock({ blockTag: 'latest' });
  return new Date(Number(block.timestamp) * 1000);
}

/**
 * Moves the chain (and the server's clock with it) until its latest block is `seconds` past `at`
 * (before it, if negative). Blocks mined fast run ahead of the wall clock, so it may take a few steps.
 */
async function advanceChainTo(at: Date, seconds = 0) {
  const target = at.getTime() + seconds * 1000;
  for (let step = 0; step < 10; step++) {
    const by = Math.ceil((target - (await chainNow()).getTime()) / 1000);
    if (by <= 0) return;
    await t.advanceTime(by);
  }
  throw new Error(`the chain did not reach ${new Date(target).toISOString()}`);
}

const marketRow = async (marketId: number) =>
  (await t.db.select().from(markets).where(eq(markets.id, marketId)))[0];

const payoutListOf = async (marketId: number) =>
  (await t.db.select().from(payoutLists).where(eq(payoutLists.predictionMarketId, marketId)))[0];

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

/** A signed flag with a bond paid for it (`bond` lets a test break one thing at a time). */
async function bondedFlag(
  account: PrivateKeyAccount,
  marketId: number,
  reason: string,
  bond: { amountWei?: bigint; txHash?: Hash } = {},
) {
  const amountWei = bond.amountWei ?? BOND;
  const txHash = bond.txHash ?? (await payBond(account, marketId, amountWei));
  return { ...(await flagBody(account, marketId, reason)), txHash, amountWei: amountWei.toString() };
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
    // The window is the chain's dispute window: it ends at the pending settlement's claimableAt, a
    // window after the proposal (docs/decisions/034 "Settlement").
    const list = await payoutListOf(marketId);
    expect(list?.status).toBe('settled');
    expect(review.endsAt).toBe(list?.claimableAt?.toISOString());
    expect((await marketRow(marketId))?.reviewEndsAt?.getTime()).toBe(list?.claimableAt?.getTime());
    const windowMs = Date.parse(review.endsAt) - Date.parse(review.proposedAt);
    expect(windowMs).toBeGreaterThanOrEqual((WINDOW_S - 5) * 1000);
    expect(windowMs).toBeLessThanOrEqual((WINDOW_S + 5) * 1000);
    expect(proposed.timeline?.map((event) => [event.kind, event.actor, event.result])).toEqual([
      ['proposed', MODEL, 'YES'],
    ]);
    expect((await betRows(betIds)).map((bet) => bet.status)).toEqual(['pending', 'pending', 'pending']);
    const winner = bettors[0]?.address ?? '';
    expect((await claimable(winner)).markets).toMatchObject({ count: 0, totalWei: '0' });

    // Judged once: a proposed market is not judged again while it waits.
    const judged = stub.requests.filter(
      (request) => marketTitleOf(request) === 'Proposed then settled',
    ).length;
    await settle();
    expect(
      stub.requests.filter((request) => marketTitleOf(request) === 'Proposed then settled'),
    ).toHaveLength(judged);

    await advanceChainTo(new Date(review.endsAt), -30);
    await settle();
    expect((await detail(marketId)).market.status).toBe('settling');

    await advanceChainTo(new Date(review.endsAt));
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
    const immediate = stubSettlementJob(t, stub, { feeBps: FEE_BPS, reviewWindowS: 0 });
    await immediate.run();
    const settled = await detail(marketId);
    expect(settled.market).toMatchObject({ status: 'settled', result: 'YES', review: null });
    expect(settled.timeline?.map((event) => [event.kind, event.actor])).toEqual([['settled', MODEL]]);
  });
});

describe('Flags', () => {
  test("The bond is the escrow's disputeBond (FLAG_BOND_* are gone), shown in the config and on the market", async () => {
    expect('flagBond' in loadConfig({})).toBe(false);
    const config = (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
    // The dev escrow's parameters: 0.01 BNB, 5% of the pool.
    expect(config).toMatchObject({ flagBondMinWei: String(10n ** 16n), flagBondBps: 500 });
    const { marketId } = await marketInReview('Bond shown');
    expect((await detail(marketId)).market.review?.bondWei).toBe(String(BOND));
  });

  test('A bettor flags once with a signed reason and a bond; the flag and its bond are on the timeline', async () => {
    const { marketId, bettors } = await marketInReview('Flag once');
    const [, bettor, other] = bettors;
    if (!bettor || !other) throw new Error('no bettor');
    const body = await bondedFlag(bettor, marketId, 'The match was postponed.');
    const response = await postFlag(marketId, body);
    expect(response.statusCode).toBe(201);
    expect(FlagMarketResponseSchema.parse(response.json()).event).toMatchObject({
      kind: 'flagged',
      actor: bettor.address.toLowerCase(),
      detail: 'The match was postponed.',
      amountWei: String(BOND),
    });
    expect(await paymentOf(body.txHash)).toMatchObject({ status: 'recorded', purpose: 'market_flag' });
    const [flag] = await t.db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId));
    expect(flag?.stakeId).toBe((await stakeOf(t.chain, body.txHash as Hash)).stakeId);
    // The same request again answers the same flag; no second bond can be sent in this window (the
    // dispute reopened the market past its close: BettingClosed, nothing taken).
    expect((await postFlag(marketId, body)).statusCode).toBe(201);
    expect(await bondRevert(bettor, marketId)).toContain('BettingClosed');
    expect(await bondRevert(other, marketId)).toContain('BettingClosed');

    const after = await detail(marketId);
    expect(after.market.review).toMatchObject({ flagCount: 1, bondWei: null });
    expect(after.timeline?.map((event) => event.kind)).toEqual(['proposed', 'flagged']);
  });

  test('A flag without a bond is refused with nothing changed', async () => {
    const { marketId, bettors } = await marketInReview('No bond');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const unpaid = await flagBody(bettor, marketId, 'Free option');
    const missing = await postFlag(marketId, unpaid);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    const unknownTx = await postFlag(marketId, {
      ...unpaid,
      txHash: `0x${'ab'.repeat(32)}`,
      amountWei: String(BOND),
    });
    expect(unknownTx.json()).toMatchObject({ error: { code: 'TX_NOT_FOUND' } });
    // A plain transfer (here to the operator key) is not a bond: it holds no deposit into the escrow.
    const betPaid = await payPlainTransfer(payerOf(bettor), {
      to: DEV_OPERATOR.address,
      intent: { kind: 'bet', marketId, prediction: 'YES' },
      amountWei: BOND,
    });
    await walletOf(bettor).waitForTransactionReceipt({ hash: betPaid });
    const wrongIntent = await postFlag(marketId, { ...unpaid, txHash: betPaid, amountWei: String(BOND) });
    expect(wrongIntent.json()).toMatchObject({ error: { code: 'WRONG_RECIPIENT' } });
    expect(await t.db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId))).toEqual([]);
    // Nothing changed: no payment taken as a bond, the verdict still in review, no flag on the timeline.
    expect(await paymentOf(betPaid)).toBeUndefined();
    const after = await detail(marketId);
    expect(after.market).toMatchObject({ status: 'settling', review: { flagCount: 0 } });
    expect(after.timeline?.map((event) => event.kind)).toEqual(['proposed']);
  });

  test('Refused flags change nothing: non-bettor, bad signatures, replay elsewhere, bad reasons', async () => {
    const { marketId, bettors } = await marketInReview('Refusals');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const stranger = newAccount();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const bond = { txHash: `0x${'cd'.repeat(32)}`, amountWei: String(BOND) };
    const cases: Array<[string, object, number, string]> = [
      [
        'other chain',
        { ...(await flagBody(bettor, marketId, 'Wrong', { chainId: 56 })), ...bond },
        401,
        'UNAUTHORIZED',
      ],
      [
        'other market',
        { ...(await flagBody(bettor, marketId, 'Wrong', { marketId: marketId + 1 })), ...bond },
        401,
        'UNAUTHORIZED',
      ],
      [
        'other reason',
        { ...(await flagBody(bettor, marketId, 'Wrong', { reason: 'Right' })), ...bond },
        401,
        'UNAUTHORIZED',
      ],
      [
        "someone else's signature",
        { ...(await flagBody(stranger, marketId, 'Wrong')), address: bettor.address, ...bond },
        401,
        'UNAUTHORIZED',
      ],
      [
        'expired',
        { ...(await flagBody(bettor, marketId, 'Wrong', { expiry: now - 1 })), ...bond },
        401,
        'UNAUTHORIZED',
      ],
      [
        'far expiry',
        { ...(await flagBody(bettor, marketId, 'Wrong', { expiry: now + 86_400 })), ...bond },
        400,
        'BAD_REQUEST',
      ],
      [
        'too long',
        { ...(await flagBody(bettor, marketId, 'x'.repeat(281))), ...bond },
        400,
        'VALIDATION_FAILED',
      ],
      ['blank', { ...(await flagBody(bettor, marketId, '   ')), ...bond }, 400, 'VALIDATION_FAILED'],
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

  test('A bond from a non-bettor is refused and given back by refundStake; a bond below the contract’s reverts', async () => {
    const { marketId, bettors } = await marketInReview('Refunded bonds');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    expect(await bondRevert(bettor, marketId, BOND - 1n)).toContain('BondTooLow');
    const stranger = newAccount();
    await t.chain.testClient.setBalance({ address: stranger.address, value: parseEther('1') });
    const strangers = await bondedFlag(stranger, marketId, 'I never bet');
    const refused = await postFlag(marketId, strangers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'NOT_A_BETTOR' } });
    expect(await paymentOf(strangers.txHash)).toMatchObject({
      status: 'escrow_refund',
      refundReason: 'NOT_A_BETTOR',
      amount: BOND,
    });
    expect(await escrowRefundOf(strangers.txHash)).toMatchObject({
      owner: stranger.address.toLowerCase(),
      amount: BOND,
      status: 'queued',
    });
    expect(await t.db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId))).toEqual([]);
    // No accepted flag holds the market: its settlement is queued again, same verdict, minimum delay.
    const [list] = await t.db.select().from(payoutLists).where(eq(payoutLists.predictionMarketId, marketId));
    expect(list).toMatchObject({ status: 'due', payoutDelayS: null, outcome: 1 });
  });

  test("The server's clock ahead of the chain's: a bond the contract takes as a dispute is a flag, never late", async () => {
    const { marketId, bettors } = await marketInReview('Server clock ahead');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const endsAt = (await marketRow(marketId))?.reviewEndsAt;
    if (!endsAt) throw new Error('no window');
    expect(endsAt.getTime()).toBe((await payoutListOf(marketId))?.claimableAt?.getTime());
    await advanceChainTo(endsAt, -60);
    // The server's clock is past the window's end by more than what is left of it on chain.
    t.setServerClockAhead(WINDOW_S);
    try {
      expect(t.clock.now().getTime()).toBeGreaterThan(endsAt.getTime() + 60_000);
      const body = await bondedFlag(bettor, marketId, 'Flagged in the chain’s window');
      const response = await postFlag(marketId, body);
      expect(response.statusCode).toBe(201);
      // Mined within the chain's window, after the server's clock passed it.
      expect((await paymentOf(body.txHash))?.blockTime.getTime()).toBeLessThan(endsAt.getTime());
      expect(await paymentOf(body.txHash)).toMatchObject({ status: 'recorded', purpose: 'market_flag' });
      expect(await escrowRefundOf(body.txHash)).toBeUndefined();
      expect((await detail(marketId)).market).toMatchObject({ status: 'settling', review: { flagCount: 1 } });
      // Held for an operator: the window's end on either clock does not settle it.
      expect(await payoutListOf(marketId)).toMatchObject({ status: 'due' });
      await advanceChainTo(endsAt, 5);
      await settle();
      expect((await detail(marketId)).market.status).toBe('settling');
    } finally {
      t.setServerClockAhead(0);
    }
  });

  test("The review ends by the chain's time, once its settlement is pending on chain, whatever the server's clock says", async () => {
    const { marketId } = await marketInReview('Chain clock ends it');
    const endsAt = (await marketRow(marketId))?.reviewEndsAt;
    if (!endsAt) throw new Error('no window');
    t.setServerClockAhead(2 * WINDOW_S);
    try {
      await settle();
      expect((await detail(marketId)).market.status).toBe('settling');
      await advanceChainTo(endsAt, -2);
      await settle();
      expect((await detail(marketId)).market.status).toBe('settling');
      await advanceChainTo(endsAt);
      await settle();
      expect((await detail(marketId)).market).toMatchObject({ status: 'settled', result: 'YES' });
    } finally {
      t.setServerClockAhead(0);
    }
  });

  test('A dispute mined in the window whose flag is not posted yet ends no review: the flag, posted after the window, is recorded', async () => {
    const { marketId, bettors } = await marketInReview('Dispute before its flag');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const endsAt = (await marketRow(marketId))?.reviewEndsAt;
    if (!endsAt) throw new Error('no window');
    await advanceChainTo(endsAt, -30);
    // The contract takes the bond as a dispute and sends the settlement back; nobody posts it yet.
    const txHash = await payBond(bettor, marketId);
    await advanceChainTo(endsAt, 5);
    await settle();
    expect((await detail(marketId)).market.status).toBe('settling');
    const response = await postFlag(marketId, await bondedFlag(bettor, marketId, 'Posted late', { txHash }));
    expect(response.statusCode).toBe(201);
    expect(await paymentOf(txHash)).toMatchObject({ status: 'recorded', purpose: 'market_flag' });
    expect(await escrowRefundOf(txHash)).toBeUndefined();
    expect((await detail(marketId)).market).toMatchObject({ status: 'settling', review: { flagCount: 1 } });
  });

  test('A review whose settlement is not posted yet does not end: its window opens on chain', async () => {
    const { marketId } = await marketInReview('Not posted yet', undefined, { post: false });
    expect(await payoutListOf(marketId)).toMatchObject({ status: 'due' });
    const proposedEnd = (await marketRow(marketId))?.reviewEndsAt;
    if (!proposedEnd) throw new Error('no window');
    await advanceChainTo(proposedEnd, 1);
    await settle();
    expect((await detail(marketId)).market.status).toBe('settling');
    // Posted now: the rest of the window is gone, so the contract's minimum delay; the review ends
    // at its claimableAt.
    const list = await postEscrowSettlement(t, { marketId });
    const endsAt = (await marketRow(marketId))?.reviewEndsAt;
    expect(endsAt?.getTime()).toBe(list.claimableAt?.getTime());
    expect((await detail(marketId)).market.review?.endsAt).toBe(list.claimableAt?.toISOString());
    if (!endsAt) throw new Error('no window');
    if ((await chainNow()).getTime() < endsAt.getTime()) {
      await settle();
      expect((await detail(marketId)).market.status).toBe('settling');
    }
    await advanceChainTo(endsAt);
    await settle();
    expect((await detail(marketId)).market.status).toBe('settled');
  });

  test("A failed read of the chain's time ends no review: the next run reads again", async () => {
    const { marketId } = await marketInReview('Chain unreadable');
    const endsAt = (await marketRow(marketId))?.reviewEndsAt;
    if (!endsAt) throw new Error('no window');
    await advanceChainTo(endsAt, 1);
    let reads = 0;
    const unreadable = stubSettlementJob(t, stub, {
      feeBps: FEE_BPS,
      reviewWindowS: WINDOW_S,
      readChainTime: async () => {
        reads += 1;
        throw new Error('the node is down');
      },
    });
    await unreadable.run();
    expect(reads).toBe(1);
    expect((await detail(marketId)).market.status).toBe('settling');
    const readable = stubSettlementJob(t, stub, {
      feeBps: FEE_BPS,
      reviewWindowS: WINDOW_S,
      readChainTime: chainNow,
    });
    await readable.run();
    expect((await detail(marketId)).market).toMatchObject({ status: 'settled', result: 'YES' });
  });

  test('No flag after the window, nor on a market with no verdict in review', async () => {
    const { marketId, bettors } = await marketInReview('Too late');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const endsAt = (await marketRow(marketId))?.reviewEndsAt;
    if (!endsAt) throw new Error('no window');
    await advanceChainTo(endsAt);
    // The chain takes no dispute from claimableAt on (its payouts are open): nothing is paid, so
    // nothing is refunded.
    expect(await bondRevert(bettor, marketId)).toContain('MarketNotOpen');
    await settle();
    expect((await detail(marketId)).market.status).toBe('settled');
    const missing = await postFlag(999_999, {
      ...(await flagBody(bettor, 999_999, 'Nowhere')),
      txHash: `0x${'ef'.repeat(32)}`,
      amountWei: String(BOND),
    });
    expect(missing.statusCode).toBe(404);
  });

  test("A bond still confirming when the server's clock passes the window: 202, then the job replays and records the flag", async () => {
    const { marketId, bettors } = await marketInReview('Bond confirms late');
    const [, bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const endsAt = (await marketRow(marketId))?.reviewEndsAt;
    if (!endsAt) throw new Error('no window');
    await advanceChainTo(endsAt, -80);
    let body: Awaited<ReturnType<typeof flagBody>> & { txHash: Hash; amountWei: string };
    await t.chain.testClient.setAutomine(false);
    try {
      const txHash = await sendBond(bettor, marketId);
      body = { ...(await flagBody(bettor, marketId, 'Confirming late')), txHash, amountWei: String(BOND) };
      const pending = await postFlag(marketId, body);
      expect(pending.statusCode).toBe(202);
      expect(pending.json()).toMatchObject({ status: 'pending' });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    // The server's clock passes the window (the signature, good for 300 s, has not expired); the bond
    // is mined within the chain's.
    t.setServerClockAhead(120);
    try {
      await t.chain.testClient.mine({ blocks: 1 });
      expect((await chainNow()).getTime()).toBeLessThan(endsAt.getTime());
      await t.job('pending-payments').run();
      expect(await paymentOf(body.txHash)).toMatchObject({ status: 'recorded', purpose: 'market_flag' });
      expect(await escrowRefundOf(body.txHash)).toBeUndefined();
      expect(await t.db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId))).toHaveLength(1);
      // Flagged, the verdict waits for an operator.
      await settle();
      expect((await detail(marketId)).market).toMatchObject({ status: 'settling', review: { flagCount: 1 } });
    } finally {
      t.setServerClockAhead(0);
    }
  });

  test('A bond deposited with nobody posting its flag is refunded by reconciliation after its grace', async () => {
    const { marketId, bettors } = await marketInReview('Bond without a flag');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const txHash = await payBond(bettor, marketId);
    await t.job('escrow-reconciliation').run();
    // Within its grace the flag may still come.
    expect(await paymentOf(txHash)).toBeUndefined();
    await t.advanceTime(601);
    await t.job('escrow-reconciliation').run();
    expect(await paymentOf(txHash)).toMatchObject({
      refundReason: 'UNCLAIMED_FLAG_BOND',
      purpose: 'market_flag',
      amount: BOND,
    });
    expect(await escrowRefundOf(txHash)).toMatchObject({ owner: bettor.address.toLowerCase(), amount: BOND });
    expect(await t.db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId))).toEqual([]);
  });

  test("A flag and the window's end are ordered by the market lock: never both", async () => {
    const { marketId, bettors } = await marketInReview('Race the window');
    const [, bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    await t.advanceTime(WINDOW_S - 20);
    const body = await bondedFlag(bettor, marketId, 'Just in time');
    await t.advanceTime(18);
    const [flag] = await Promise.all([postFlag(marketId, body), settle()]);
    const after = await detail(marketId);
    const flagged = flag.statusCode === 201;
    // Never both: a recorded flag holds the market (and its bond); a refused one is given back.
    if (flagged) expect(after.market.status).toBe('settling');
    expect((await paymentOf(body.txHash))?.status).toBe(flagged ? 'recorded' : 'escrow_refund');
    await t.advanceTime(5);
    await settle();
    expect((await detail(marketId)).market.status).toBe(flagged ? 'settling' : 'settled');
  });
});

/** The flags' bond rows of a market, by flagger. */
const bondsOf = async (marketId: number) =>
  t.db
    .select({
      address: marketFlags.address,
      status: marketFlags.bondStatus,
      returnWei: marketFlags.bondReturnAmount,
      rewardWei: marketFlags.bondRewardAmount,
    })
    .from(marketFlags)
    .where(and(eq(marketFlags.marketId, marketId)))
    .orderBy(marketFlags.id);

describe('A flagged verdict', () => {
  test('waits for an operator after the window, who overturns it to NO: the bond comes back with a reward, exact to the wei', async () => {
    const { marketId, betIds, bettors } = await marketInReview('Overturn to NO');
    const [, noBettor] = bettors;
    if (!noBettor) throw new Error('no bettor');
    const flag = await bondedFlag(noBettor, marketId, 'It did not happen.');
    expect((await postFlag(marketId, flag)).statusCode).toBe(201);
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
    const flagger = noBettor.address.toLowerCase();
    expect(after.timeline?.map((event) => [event.kind, event.actor, event.result])).toEqual([
      ['proposed', MODEL, 'YES'],
      ['flagged', flagger, null],
      ['overturned', operatorAddress, 'NO'],
      ['settled', operatorAddress, 'NO'],
      ['bond_returned', flagger, null],
    ]);
    const settled = computeBondedMarketPayouts({
      bets: [
        { id: betIds[0] ?? 0, side: 'YES', amountWei: parseEther('0.01') },
        { id: betIds[1] ?? 0, side: 'NO', amountWei: parseEther('0.02') },
        { id: betIds[2] ?? 0, side: 'NO', amountWei: parseEther('0.03') },
      ],
      bonds: [{ id: flagger, amountWei: BOND }],
      proposedResult: 'YES',
      result: 'NO',
      feeBps: FEE_BPS,
    });
    // The fee on the 0.01 BNB losing pool at 2% is 0.0002 BNB, all of it the flagger's reward.
    const rewardWei = parseEther('0.0002');
    expect(settled.bonds.bonds).toEqual([
      { id: flagger, bondWei: BOND, returnWei: BOND + rewardWei, rewardWei },
    ]);
    expect(after.timeline?.at(-1)).toMatchObject({
      amountWei: String(BOND + rewardWei),
      rewardWei: String(rewardWei),
    });
    const rows = await betRows(betIds);
    // payout_amount is the full return, stake included (decision 002); the bond changes no bet.
    expect(rows.map((bet) => [bet.status, bet.payoutAmount])).toEqual([
      ['lost', 0n],
      ['won', settled.bets.payouts.find((payout) => payout.id === betIds[1])?.returnWei],
      ['won', settled.bets.payouts.find((payout) => payout.id === betIds[2])?.returnWei],
    ]);
    expect((await claimable(noBettor.address)).markets.count).toBe(1);
    expect(await bondsOf(marketId)).toEqual([
      { address: flagger, status: 'returned', returnWei: BOND + rewardWei, rewardWei },
    ]);
    // The bond is the escrow's: the operator's settlement lists its stake at bond + reward, and the
    // contract takes the list as the pool to the wei (bets + bond).
    expect(await paymentOf(flag.txHash)).toMatchObject({ status: 'recorded' });
    const [leaf] = await listMarketBondStakes(t.db, marketId);
    expect(leaf).toMatchObject({ owner: flagger, bondStatus: 'returned', returnAmount: BOND + rewardWei });
    expect(leaf?.stakeId).toBe((await stakeOf(t.chain, flag.txHash as Hash)).stakeId);
    await postEscrowSettlement(t, { marketId });
  });

  test('overturned to VOID from the ops CLI refunds every stake and the bond', async () => {
    const { marketId, betIds, bettors } = await marketInReview('Overturn to VOID');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const flag = await bondedFlag(bettor, marketId, 'Ambiguous question.');
    await postFlag(marketId, flag);
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
    const flagger = bettor.address.toLowerCase();
    expect(timeline.map((event) => [event.kind, event.actor])).toEqual([
      ['proposed', MODEL],
      ['flagged', flagger],
      ['overturned', 'ops CLI'],
      ['settled', 'ops CLI'],
      ['bond_returned_void', flagger],
    ]);
    // settleAsRefund gives the bond back with every stake (its leaf is the bond).
    expect(await paymentOf(flag.txHash)).toMatchObject({ status: 'recorded' });
    expect(await listMarketBondStakes(t.db, marketId)).toEqual([
      expect.objectContaining({ bondStatus: 'returned_void', returnAmount: BOND }),
    ]);
  });

  test('confirmed by an operator keeps the AI verdict, and the bond goes to the winners pro rata, exact to the wei', async () => {
    const { marketId, betIds, bettors } = await marketInReview('Confirmed', ['YES', 'YES', 'NO']);
    const [, , bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const flag = await bondedFlag(bettor, marketId, 'I disagree.');
    await postFlag(marketId, flag);
    expect((await ops('markets:confirm', String(marketId), '--note', 'Checked the sources.')).code).toBe(0);
    const after = await detail(marketId);
    expect(after.market).toMatchObject({ status: 'settled', result: 'YES', aiConfidence: 91 });
    expect(after.timeline?.map((event) => event.kind)).toEqual([
      'proposed',
      'flagged',
      'confirmed',
      'settled',
      'bond_forfeited',
    ]);
    const settled = computeBondedMarketPayouts({
      bets: [
        { id: betIds[0] ?? 0, side: 'YES', amountWei: parseEther('0.01') },
        { id: betIds[1] ?? 0, side: 'YES', amountWei: parseEther('0.02') },
        { id: betIds[2] ?? 0, side: 'NO', amountWei: parseEther('0.03') },
      ],
      bonds: [{ id: 1, amountWei: BOND }],
      proposedResult: 'YES',
      result: 'YES',
      feeBps: FEE_BPS,
    });
    const rows = await betRows(betIds);
    expect(rows.map((bet) => bet.payoutAmount)).toEqual([
      settled.bets.payouts[0]?.returnWei,
      settled.bets.payouts[1]?.returnWei,
      0n,
    ]);
    // Winners share 0.03 − 2% fee + the 0.01 bond = 0.0394 BNB: 1/3 and 2/3 of it.
    expect(rows[0]?.payoutAmount).toBe(parseEther('0.01') + parseEther('0.0394') / 3n);
    const paid = (rows[0]?.payoutAmount ?? 0n) + (rows[1]?.payoutAmount ?? 0n);
    expect(paid + settled.feeKeptWei + settled.dustWei).toBe(parseEther('0.06') + BOND);
    expect(await paymentOf(flag.txHash)).toMatchObject({ status: 'recorded' });
    expect((await bondsOf(marketId))[0]).toMatchObject({ status: 'forfeited', returnWei: 0n });
    // The flagger's P&L counts the forfeited bond: −0.03 stake lost, −0.01 bond.
    const summary = await t.app.inject({ method: 'GET', url: `/api/users/${bettor.address}/summary` });
    expect(summary.json()).toMatchObject({ netWei: String(-(parseEther('0.03') + BOND)) });
    expect((await ops('markets:confirm', String(marketId), '--note', 'Again')).code).toBe(1);
  });

  test('with no operator, is voided and refunded once the resolution timeout has passed after its window, the bond too', async () => {
    const { marketId, betIds, bettors } = await marketInReview('Nobody came');
    const [bettor] = bettors;
    if (!bettor) throw new Error('no bettor');
    const flag = await bondedFlag(bettor, marketId, 'Wrong.');
    await postFlag(marketId, flag);
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
    expect((await detail(marketId)).timeline?.at(-1)).toMatchObject({
      kind: 'bond_returned_void',
      amountWei: String(BOND),
    });
    expect(await paymentOf(flag.txHash)).toMatchObject({ status: 'recorded' });
    // The void settles on chain as a refund in full: the bond goes back with every stake, the
    // flagger's claim paying it exactly its stake and its bond.
    await postEscrowSettlement(t, { marketId });
    const owed = parseEther('0.01') + BOND;
    const balance = await watchBalance(t.chain, bettor.address);
    const refunded = await postClaim(t, bettor.address, { scope: 'markets' });
    expect(refunded.body).toMatchObject({ success: true, payoutStatus: 'confirmed', totalWei: String(owed) });
    expect(await balance.moved()).toBe(owed);
  });
});

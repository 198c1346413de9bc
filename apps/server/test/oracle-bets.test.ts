import { PlaceOracleBetResponseSchema, RoundsResponseSchema } from '@pm/core/contract/oracle';
import type { PaymentIntent } from '@pm/core/intent';
import { eq } from 'drizzle-orm';
import { type Hash, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { oracleBets, oracleRounds, payments } from '../src/db/schema.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// POST /api/oracle/bets with real payments on a real local chain (docs/api.md, DESIGN "Payment
// verification"): 120 s rounds with a 60 s betting window, the engine started by auto-genesis.

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
let epoch: number;

beforeAll(async () => {
  t = await startTestApp({ ROUND_INTERVAL_S: '120', BETTING_WINDOW_S: '60', PAYMENT_WAIT_MS: '1500' });
  m = marketHelpers(t);
  // Start just after a round boundary, so the whole betting window is ahead.
  const nowS = t.clock.now().getTime() / 1000;
  await t.advanceTime(Math.ceil(nowS / 120) * 120 - Math.floor(nowS) + 1);
  await t.runJobs();
  const rounds = RoundsResponseSchema.parse(
    (await t.app.inject({ method: 'GET', url: '/api/oracle/rounds' })).json(),
  );
  if (!rounds.current) throw new Error('auto-genesis did not start a round');
  epoch = rounds.current.epoch;
});
afterAll(() => t?.close());

function player(index: number) {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
}

const pay = (index: number, intent: PaymentIntent, amountWei: bigint): Promise<Hash> =>
  m.pay(player(index), intent, amountWei);

function postBet(body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/oracle/bets', payload: body });
}

const betOn = (index: number, input: { epoch: number; position: 'bull' | 'bear'; amountWei: bigint }) =>
  m.postOracleBet(input.epoch, { player: index, position: input.position, amountWei: input.amountWei });

const paymentOf = async (txHash: Hash) => {
  const [row] = await t.db.select().from(payments).where(eq(payments.txHash, txHash.toLowerCase()));
  return row;
};

describe('POST /api/oracle/bets', () => {
  test('GET /api/oracle/rounds shows the live round as current and the next as upcoming, with server time', async () => {
    const body = RoundsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/oracle/rounds' })).json(),
    );
    expect(body).toMatchObject({
      started: true,
      current: { epoch, status: 'live', totalUpWei: '0', totalDownWei: '0' },
      next: { epoch: epoch + 1, status: 'upcoming' },
      previous: null,
      recent: [],
    });
    expect(Math.abs(Date.parse(body.serverTime) - t.clock.now().getTime())).toBeLessThan(2_000);
  });

  test('a bet on the live round is recorded from its payment and grows the pool', async () => {
    const amountWei = parseEther('0.25');
    const { response, txHash } = await betOn(1, { epoch, position: 'bull', amountWei });
    expect(response.statusCode).toBe(201);
    const body = PlaceOracleBetResponseSchema.parse(response.json());
    expect(body.bet).toMatchObject({
      epoch,
      position: 'bull',
      amountWei: amountWei.toString(),
      userAddress: player(1).account.address.toLowerCase(),
      txHash: txHash.toLowerCase(),
      returnWei: null,
      profitWei: null,
      claimed: false,
    });
    expect(body.round).toMatchObject({ epoch, totalUpWei: amountWei.toString(), upCount: 1, downCount: 0 });
    expect(await paymentOf(txHash)).toMatchObject({ status: 'recorded', purpose: 'oracle_bet' });

    const bear = await betOn(2, { epoch, position: 'bear', amountWei: parseEther('0.01') });
    expect(bear.response.statusCode).toBe(201);
    expect(PlaceOracleBetResponseSchema.parse(bear.response.json()).round).toMatchObject({
      totalUpWei: amountWei.toString(),
      totalDownWei: parseEther('0.01').toString(),
      downCount: 1,
    });
  });

  test('a bet below 0.01 BNB is AMOUNT_TOO_LOW with the oracle message; no bet, the payment is owed back', async () => {
    const { response, txHash } = await betOn(1, { epoch, position: 'bull', amountWei: parseEther('0.009') });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'AMOUNT_TOO_LOW', message: 'Minimum bet is 0.01 BNB' });
    expect(await paymentOf(txHash)).toMatchObject({ status: 'refund_due', refundReason: 'AMOUNT_TOO_LOW' });
    expect(await t.db.select().from(oracleBets).where(eq(oracleBets.txHash, txHash.toLowerCase()))).toEqual(
      [],
    );
  });

  test('a payment whose intent names the other side or another round is INTENT_MISMATCH', async () => {
    const amountWei = parseEther('0.01');
    const txHash = await pay(1, { kind: 'round', epoch, position: 'bear' }, amountWei);
    const body = {
      epoch,
      position: 'bull',
      amountWei: amountWei.toString(),
      userAddress: player(1).account.address,
      txHash,
    };
    const response = await postBet(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INTENT_MISMATCH');
    const otherRound = await pay(1, { kind: 'round', epoch: epoch + 1, position: 'bull' }, amountWei);
    expect((await postBet({ ...body, txHash: otherRound })).json().error.code).toBe('INTENT_MISMATCH');
    expect(await paymentOf(txHash)).toBeUndefined();
  });

  test('a payment for a market bet cannot be posted as a round bet', async () => {
    const amountWei = parseEther('0.01');
    const txHash = await pay(1, { kind: 'bet', marketId: 1, prediction: 'YES' }, amountWei);
    const response = await postBet({
      epoch,
      position: 'bull',
      amountWei: amountWei.toString(),
      userAddress: player(1).account.address,
      txHash,
    });
    expect(response.json().error.code).toBe('INTENT_MISMATCH');
  });

  test('the same bet sent again answers with the same bet and counts it once', async () => {
    const amountWei = parseEther('0.02');
    const { response, txHash } = await betOn(0, { epoch, position: 'bear', amountWei });
    expect(response.statusCode).toBe(201);
    const body = {
      epoch,
      position: 'bear' as const,
      amountWei: amountWei.toString(),
      userAddress: player(0).account.address,
      txHash,
    };
    const again = await postBet(body);
    expect(again.statusCode).toBe(201);
    expect(again.json().bet.id).toBe(response.json().bet.id);
    expect(again.json().round.downCount).toBe(response.json().round.downCount);
    expect(again.json().round.totalDownWei).toBe(response.json().round.totalDownWei);
    // The same payment claimed for the other side is another request: refused.
    const otherSide = await postBet({ ...body, position: 'bull' });
    expect(otherSide.statusCode).toBe(409);
    expect(otherSide.json().error.code).toBe('TX_ALREADY_USED');
  });

  test('a round that does not exist is ROUND_NOT_FOUND, and a real payment for it is owed back', async () => {
    const { response, txHash } = await betOn(1, {
      epoch: epoch + 50,
      position: 'bull',
      amountWei: parseEther('0.01'),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('ROUND_NOT_FOUND');
    expect(await paymentOf(txHash)).toMatchObject({ status: 'refund_due', refundReason: 'ROUND_NOT_FOUND' });
    const madeUp = await postBet({
      epoch: 0,
      position: 'bull',
      amountWei: parseEther('0.01').toString(),
      userAddress: player(1).account.address,
      txHash: `0x${'ab'.repeat(32)}`,
    });
    expect(madeUp.json().error.code).toBe('ROUND_NOT_FOUND');
  });

  test('a payment not final within the wait answers 202 and is recorded by the job once mined', async () => {
    await t.chain.testClient.setAutomine(false);
    const amountWei = parseEther('0.03');
    let txHash: Hash;
    try {
      const result = await betOn(1, { epoch, position: 'bear', amountWei });
      txHash = result.txHash;
      expect(result.response.statusCode).toBe(202);
      expect(result.response.json()).toEqual({ status: 'pending', txHash });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    await t.chain.testClient.mine({ blocks: 1 });
    await t.runJobs();
    const [bet] = await t.db.select().from(oracleBets).where(eq(oracleBets.txHash, txHash.toLowerCase()));
    expect(bet).toMatchObject({ epoch, position: 'bear', amount: amountWei });
  });

  test('a payment mined after the lock is ROUND_NOT_LIVE even before the engine locks, and is kept as a refund', async () => {
    const [round] = await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
    if (!round) throw new Error('no round');
    await t.advanceTime(Math.ceil((round.lockTime.getTime() - t.clock.now().getTime()) / 1000) + 1);
    expect((await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch)))[0]?.status).toBe(
      'live',
    );
    const { response, txHash } = await betOn(1, { epoch, position: 'bull', amountWei: parseEther('0.01') });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'ROUND_NOT_LIVE',
      message: 'You can only bet on live rounds',
    });
    expect(await paymentOf(txHash)).toMatchObject({ status: 'refund_due', refundReason: 'ROUND_NOT_LIVE' });
  });

  test('a bet on a locked round is ROUND_NOT_LIVE and the payment becomes a refund due', async () => {
    await t.runJobs();
    const body = RoundsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/oracle/rounds' })).json(),
    );
    expect(body.current).toMatchObject({ epoch, status: 'locked' });
    expect(body.current?.lockPrice).not.toBeNull();
    const { response, txHash } = await betOn(2, { epoch, position: 'bear', amountWei: parseEther('0.05') });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('ROUND_NOT_LIVE');
    expect(await paymentOf(txHash)).toMatchObject({ status: 'refund_due', refundReason: 'ROUND_NOT_LIVE' });
    const [round] = await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
    const bets = await t.db.select().from(oracleBets).where(eq(oracleBets.epoch, epoch));
    const bears = bets.filter((bet) => bet.position === 'bear');
    expect(round?.totalDownAmount).toBe(bears.reduce((sum, bet) => sum + bet.amount, 0n));
    expect(round?.downCount).toBe(bears.length);
    expect(bets.map((bet) => bet.txHash)).not.toContain(txHash.toLowerCase());
  });

  test('a transfer whose intent the request misstated is still recorded as its intent says, from the chain', async () => {
    // The INTENT_MISMATCH payment above paid for `bear`: vault reconciliation found it on chain.
    const bets = await t.db.select().from(oracleBets).where(eq(oracleBets.epoch, epoch));
    expect(
      bets
        .filter((bet) => bet.position === 'bear')
        .map((bet) => bet.amount)
        .sort(),
    ).toEqual([parseEther('0.01'), parseEther('0.01'), parseEther('0.02'), parseEther('0.03')]);
  });

  test('at the close the dev-set price decides: the bull side wins the pool', async () => {
    const [round] = await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
    if (!round?.lockPrice) throw new Error('not locked');
    const higher = (round.lockPrice + 1_00000000n).toString();
    const usd = `${higher.slice(0, -8)}.${higher.slice(-8)}`;
    expect((await t.app.inject({ method: 'POST', url: '/api/dev/price', payload: { usd } })).statusCode).toBe(
      200,
    );
    await t.advanceTime(Math.ceil((round.closeTime.getTime() - t.clock.now().getTime()) / 1000) + 1);
    await t.runJobs();
    const body = RoundsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/oracle/rounds' })).json(),
    );
    expect(body.previous).toMatchObject({ epoch, status: 'ended', result: 'bull', closePrice: `${usd}` });
    expect(body.current).toMatchObject({ epoch: epoch + 1, status: 'live' });
    const bets = await t.db.select().from(oracleBets).where(eq(oracleBets.epoch, epoch));
    const bull = bets.find((bet) => bet.position === 'bull');
    // The only bull takes the whole pool (no fee configured).
    const pool = bets.reduce((sum, bet) => sum + bet.amount, 0n);
    expect(bull?.payoutAmount).toBe(pool);
    expect(bets.filter((bet) => bet.position === 'bear').every((bet) => bet.payoutAmount === 0n)).toBe(true);
  });
});

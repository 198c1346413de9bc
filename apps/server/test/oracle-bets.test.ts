import { PlaceOracleBetResponseSchema, RoundsResponseSchema } from '@pm/core/contract/oracle';
import { roundDepositTerms } from '@pm/escrow/deposit-terms';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { eq } from 'drizzle-orm';
import { type Address, type Hash, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { escrowRefunds, oracleBets, oracleRounds, payments } from '../src/db/schema.ts';
import { deposit } from './support/escrow-contracts.ts';
import { stakeOf } from './support/escrow-stakes.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { liveRound } from './support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// POST /api/oracle/bets with real deposits into the escrow contract on a real local chain (docs/api.md
// "Paid requests", decision 026): 120 s rounds with a 60 s betting window, the engine started by
// auto-genesis. A refused deposit goes back to its sender from the contract (refundStake).

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
let epoch: number;
let escrow: Address;

beforeAll(async () => {
  t = await startTestApp({ ROUND_INTERVAL_S: '120', BETTING_WINDOW_S: '60', PAYMENT_WAIT_MS: '1500' });
  m = marketHelpers(t);
  if (!t.config.escrow.address) throw new Error('the test app deploys an escrow');
  escrow = t.config.escrow.address;
  // Just after a round boundary, so the whole betting window is ahead.
  ({ epoch } = await liveRound(t));
});
afterAll(() => t?.close());

const player = (index: number) => m.player(index);
const postBet = (body: Record<string, unknown>) => m.api({ path: '/api/oracle/bets', body });

const betOn = (index: number, input: { epoch: number; position: 'bull' | 'bear'; amountWei: bigint }) =>
  m.postOracleBet(input.epoch, { player: index, position: input.position, amountWei: input.amountWei });

/** A deposit into the escrow for a round, made with the wallet alone (nothing posted). */
async function depositFor(
  index: number,
  input: { epoch: number; position: 'bull' | 'bear'; amountWei: bigint },
) {
  const terms = roundDepositTerms(input.epoch, await m.roundLockTime(input.epoch), input.position);
  return deposit(player(index), escrow, terms, input.amountWei);
}

const paymentOf = async (txHash: Hash) => {
  const [row] = await t.db.select().from(payments).where(eq(payments.txHash, txHash.toLowerCase()));
  return row;
};
const refundOf = async (txHash: Hash) => {
  const [row] = await t.db.select().from(escrowRefunds).where(eq(escrowRefunds.txHash, txHash.toLowerCase()));
  return row;
};
const balanceOf = (address: Address) => t.chain.publicClient.getBalance({ address });

/** The stake id of the transaction's (one) deposit, from its receipt. */
const stakeIdOf = async (txHash: Hash) => (await stakeOf(t.chain, txHash)).stakeId;

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

  test('a bet on the live round is recorded from its deposit, names its stake and grows the pool', async () => {
    const amountWei = parseEther('0.25');
    const escrowBefore = await balanceOf(escrow);
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
    const stakeId = await stakeIdOf(txHash);
    expect(await paymentOf(txHash)).toMatchObject({ status: 'recorded', purpose: 'oracle_bet', stakeId });
    const [bet] = await t.db.select().from(oracleBets).where(eq(oracleBets.txHash, txHash.toLowerCase()));
    expect(bet?.stakeId).toBe(stakeId);
    // The stake is in the escrow.
    expect((await balanceOf(escrow)) - escrowBefore).toBe(amountWei);

    const bear = await betOn(2, { epoch, position: 'bear', amountWei: parseEther('0.01') });
    expect(bear.response.statusCode).toBe(201);
    expect(PlaceOracleBetResponseSchema.parse(bear.response.json()).round).toMatchObject({
      totalUpWei: amountWei.toString(),
      totalDownWei: parseEther('0.01').toString(),
      downCount: 1,
    });
  });

  test('a bet below 0.01 BNB is AMOUNT_TOO_LOW with the oracle message; no bet, and refundStake gives it back to its sender only', async () => {
    const amountWei = parseEther('0.009');
    const bettor = player(2).account.address;
    const bystander = player(0).account.address;
    const before = await balanceOf(bettor);
    const { response, txHash } = await betOn(2, { epoch, position: 'bull', amountWei });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'AMOUNT_TOO_LOW', message: 'Minimum bet is 0.01 BNB' });
    const stakeId = await stakeIdOf(txHash);
    expect(await paymentOf(txHash)).toMatchObject({
      status: 'escrow_refund',
      refundReason: 'AMOUNT_TOO_LOW',
    });
    expect(await refundOf(txHash)).toMatchObject({
      stakeId,
      owner: bettor.toLowerCase(),
      amount: amountWei,
      reason: 'AMOUNT_TOO_LOW',
      status: 'queued',
    });
    expect(await t.db.select().from(oracleBets).where(eq(oracleBets.txHash, txHash.toLowerCase()))).toEqual(
      [],
    );
    const receipt = await t.chain.publicClient.getTransactionReceipt({ hash: txHash });
    const gas = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await balanceOf(bettor)).toBe(before - amountWei - gas);
    const bystanderBefore = await balanceOf(bystander);
    const escrowBefore = await balanceOf(escrow);

    // One step: the refund is asked of the operator sender, which sends it (automine mines it).
    await t.runJobs();
    expect(await balanceOf(bettor)).toBe(before - gas);
    expect(escrowBefore - (await balanceOf(escrow))).toBe(amountWei);
    expect(await balanceOf(bystander)).toBe(bystanderBefore);
    const refunded = await t.chain.publicClient.getContractEvents({
      address: escrow,
      abi: predictionEscrowAbi,
      eventName: 'Refunded',
      args: { stakeId },
      fromBlock: receipt.blockNumber,
    });
    expect(refunded.map((event) => event.args)).toEqual([
      expect.objectContaining({ stakeId, owner: bettor, amount: amountWei }),
    ]);
    expect(await refundOf(txHash)).toMatchObject({ status: 'refunding' });
  });

  test('a deposit for the other side or another round is INTENT_MISMATCH, and nothing is kept by the request', async () => {
    const amountWei = parseEther('0.01');
    const txHash = await depositFor(1, { epoch, position: 'bear', amountWei });
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
    expect((await postBet({ ...body, epoch: epoch + 1 })).json().error.code).toBe('INTENT_MISMATCH');
    expect(await paymentOf(txHash)).toBeUndefined();
  });

  test('a plain transfer cannot be posted as a round bet: the transaction holds no deposit', async () => {
    const amountWei = parseEther('0.01');
    const txHash = await m.pay(player(1), { kind: 'round', epoch, position: 'bull' }, amountWei);
    const response = await postBet({
      epoch,
      position: 'bull',
      amountWei: amountWei.toString(),
      userAddress: player(1).account.address,
      txHash,
    });
    expect(response.json().error.code).toBe('WRONG_RECIPIENT');
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
    // The same deposit claimed for the other side is another request: refused.
    const otherSide = await postBet({ ...body, position: 'bull' });
    expect(otherSide.statusCode).toBe(409);
    expect(otherSide.json().error.code).toBe('TX_ALREADY_USED');
  });

  test('a round that does not exist is ROUND_NOT_FOUND at once; the request keeps nothing', async () => {
    const { response, txHash } = await betOn(1, {
      epoch: epoch + 50,
      position: 'bull',
      amountWei: parseEther('0.01'),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('ROUND_NOT_FOUND');
    expect(await paymentOf(txHash)).toBeUndefined();
    const madeUp = await postBet({
      epoch: 0,
      position: 'bull',
      amountWei: parseEther('0.01').toString(),
      userAddress: player(1).account.address,
      txHash: `0x${'ab'.repeat(32)}`,
    });
    expect(madeUp.json().error.code).toBe('ROUND_NOT_FOUND');
  });

  test('a deposit for the round that has not started is ROUND_NOT_LIVE and goes back to its sender', async () => {
    const { response, txHash } = await betOn(1, {
      epoch: epoch + 1,
      position: 'bear',
      amountWei: parseEther('0.02'),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'ROUND_NOT_LIVE',
      message: 'You can only bet on live rounds',
    });
    expect(await refundOf(txHash)).toMatchObject({ reason: 'ROUND_NOT_LIVE', status: 'queued' });
    await t.runJobs();
    expect(await refundOf(txHash)).toMatchObject({ status: 'refunding' });
  });

  test('a deposit not final within the wait answers 202 and is recorded by the job once mined', async () => {
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
    expect(bet).toMatchObject({
      epoch,
      position: 'bear',
      amount: amountWei,
      stakeId: await stakeIdOf(txHash),
    });
  });

  test('after the lock the escrow itself refuses the deposit: nothing is taken', async () => {
    const [round] = await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
    if (!round) throw new Error('no round');
    await t.advanceTime(Math.ceil((round.lockTime.getTime() - t.clock.now().getTime()) / 1000) + 1);
    const escrowBefore = await balanceOf(escrow);
    await expect(depositFor(2, { epoch, position: 'bull', amountWei: parseEther('0.01') })).rejects.toThrow();
    expect(await balanceOf(escrow)).toBe(escrowBefore);
  });

  test('a deposit whose request misstated it is still recorded as its event says, by reconciliation', async () => {
    await t.runJobs();
    const body = RoundsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/oracle/rounds' })).json(),
    );
    expect(body.current).toMatchObject({ epoch, status: 'locked' });
    // The INTENT_MISMATCH deposit above paid for `bear`: escrow reconciliation found it on chain.
    const bets = await t.db.select().from(oracleBets).where(eq(oracleBets.epoch, epoch));
    expect(
      bets
        .filter((bet) => bet.position === 'bear')
        .map((bet) => bet.amount)
        .sort(),
    ).toEqual([parseEther('0.01'), parseEther('0.01'), parseEther('0.02'), parseEther('0.03')]);
    expect(bets.every((bet) => bet.stakeId !== null)).toBe(true);
    const [round] = await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
    const bears = bets.filter((bet) => bet.position === 'bear');
    expect(round?.totalDownAmount).toBe(bears.reduce((sum, bet) => sum + bet.amount, 0n));
    expect(round?.downCount).toBe(bears.length);
  });

  test('the refunds end refunded once their actions are final', async () => {
    await t.advanceTime(6);
    await t.runJobs();
    await t.advanceTime(6);
    await t.runJobs();
    const rows = await t.db.select().from(escrowRefunds);
    expect(rows.map((row) => [row.reason, row.status])).toEqual([
      ['AMOUNT_TOO_LOW', 'refunded'],
      ['ROUND_NOT_LIVE', 'refunded'],
    ]);
    const refunded = await t.db.select().from(payments).where(eq(payments.status, 'refunded'));
    // Only escrow stakes are refunded: a plain transfer is no payment of the app (no row at all).
    expect(refunded.every((row) => row.stakeId !== null)).toBe(true);
    expect(refunded.flatMap((row) => row.stakeId ?? []).sort()).toEqual(
      rows.map((row) => row.stakeId).sort(),
    );
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

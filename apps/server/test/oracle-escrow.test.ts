import type { Position } from '@pm/core/constants';
import { escrowClaimArg } from '@pm/core/contract/payout-lists';
import type { ClaimableResponse } from '@pm/core/contract/users';
import { parsePayoutList } from '@pm/escrow/payout-list';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { ROUND_OUTCOME, roundMarket, roundVerdictHash } from '@pm/escrow/round-settlement';
import { verifySettlement } from '@pm/escrow/verify-settlement';
import { asc, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { type Address, type Hash, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostileBettorAbi } from '../../../packages/escrow/test/attackers.gen.ts';
import {
  escrowRelayStakes,
  escrowRelays,
  escrowStakePayouts,
  operatorTransactions,
  oracleBets,
  oracleRounds,
  payoutLists,
} from '../src/db/schema.ts';
import { createEscrowModule } from '../src/escrow/escrow-module.ts';
import { addBetToRoundTotals, insertOracleBet } from '../src/oracle/oracle-repository.ts';
import { createRoundEngine, type RoundEngine } from '../src/oracle/round-engine.ts';
import { insertRecordedPayment } from '../src/payments/payments-repository.ts';
import { deposit } from './support/escrow-contracts.ts';
import { deployGasBurner, stakeOf } from './support/escrow-stakes.ts';
import { insertSample } from './support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Issue 29, decision 026: every round settles on the escrow contract and every round payout or refund
// leaves it, relayed by the operator key, on a real Hardhat node and a real database. Bets arrive as
// real deposits (the intake's part is another branch's: the rows are written with their stake ids).

const FEE_BPS = 300;
const MIN_PAYOUT_DELAY = 60;

let t: TestApp;
let escrow: Address;
let engine: RoundEngine;
let escrowModule: ReturnType<typeof createEscrowModule>;

beforeAll(async () => {
  // The dev escrow (test-app.ts deploys it as npm start does): its payout delay is MIN_PAYOUT_DELAY.
  t = await startTestApp({ ORACLE_FEE_BPS: String(FEE_BPS) });
  const address = t.config.escrow.address;
  if (!address) throw new Error('no escrow');
  escrow = address;
  escrowModule = createEscrowModule(t.deps, pino({ level: 'silent' }));
  engine = createRoundEngine({
    db: t.db,
    clock: t.clock,
    timings: t.config.rounds,
    feeBps: t.config.fees.oracleBps,
    maxAgeS: t.config.prices.maxAgeS,
    priceSource: 'simulated',
    autoGenesis: false,
    escrow: { chainId: t.config.chain.id, address: escrow },
  });
  await engine.genesis();
});
afterAll(() => t?.close());

const players = () => t.chain.players;
const player = (index: number) => {
  const wallet = players()[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};

async function chainNowS(): Promise<number> {
  return Number((await t.chain.publicClient.getBlock({ blockTag: 'latest' })).timestamp);
}

async function roundRow(epoch: number) {
  const [row] = await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
  if (!row) throw new Error(`no round ${epoch}`);
  return row;
}

/** Moves the chain (and the server's clock) to just after the start of the next round, which goes live. */
async function nextLiveRound(): Promise<number> {
  const { intervalS } = t.config.rounds;
  const now = await chainNowS();
  const epoch = Math.floor(now / intervalS) + 1;
  await t.advanceTime(epoch * intervalS + 2 - now);
  await engine.tick();
  expect((await roundRow(epoch)).status).toBe('live');
  return epoch;
}

/** Writes a bet as the intake does for a verified deposit: the payment and the bet with its stake id. */
async function recordStakedBet(input: {
  epoch: number;
  position: Position;
  owner: Address;
  amount: bigint;
  stakeId: bigint;
  txHash: Hash;
  blockNumber: bigint;
  blockTime: Date;
}) {
  // Read before the transaction: the test database has one connection.
  const market = roundMarket(input.epoch, (await roundRow(input.epoch)).lockTime);
  await t.db.transaction(async (tx) => {
    const paymentId = await insertRecordedPayment(tx, {
      chainId: t.config.chain.id,
      purpose: 'oracle_bet',
      payment: {
        txHash: input.txHash,
        from: input.owner,
        amountWei: input.amount,
        intentText: `pm1:round:${input.epoch}:${input.position}`,
        blockNumber: input.blockNumber,
        blockTime: input.blockTime,
        deposit: {
          stakeId: input.stakeId,
          logIndex: 0,
          marketKey: market.key,
        },
      },
    });
    await insertOracleBet(tx, {
      epoch: input.epoch,
      userAddress: input.owner.toLowerCase(),
      position: input.position,
      amount: input.amount,
      paymentId,
      txHash: input.txHash.toLowerCase(),
      stakeId: input.stakeId,
    });
    await addBetToRoundTotals(tx, { epoch: input.epoch, position: input.position, amountWei: input.amount });
  });
}

/** A player deposits into the round's market on the escrow; its bet is recorded with the stake id. */
async function stake(index: number, epoch: number, position: Position, bnb: string) {
  const market = roundMarket(epoch, (await roundRow(epoch)).lockTime);
  const amount = parseEther(bnb);
  const hash = await deposit(
    player(index),
    escrow,
    { kind: 'round', market: market.id, closesAt: market.closesAt, position },
    amount,
  );
  const deposited = await stakeOf(t.chain, hash);
  await recordStakedBet({ epoch, position, amount, txHash: hash, ...deposited });
  return { ...deposited, amount };
}

let feedRoundId = 100;

/** Lock and close prices, then time past the close: the engine ends the round (its result, its payouts). */
async function endRound(epoch: number, prices: { lock: string; close: string } | null) {
  const round = await roundRow(epoch);
  if (prices) {
    // Feed round ids only go forward (the engine refuses one older than the last used).
    feedRoundId += 2;
    const at = (time: Date) => new Date(time.getTime() - 1000);
    await insertSample(t.db, { usd: prices.lock, at: at(round.lockTime), roundId: String(feedRoundId) });
    await insertSample(t.db, {
      usd: prices.close,
      at: at(round.closeTime),
      roundId: String(feedRoundId + 1),
    });
  }
  await t.advanceTime(Math.ceil((round.closeTime.getTime() - t.clock.now().getTime()) / 1000) + 1);
  await engine.tick();
  return roundRow(epoch);
}

async function runEscrowJobs() {
  for (const job of escrowModule.jobs) await job.run();
}

/** Runs the escrow's jobs until the round's settlement is final on chain. */
async function settleOnChain(epoch: number) {
  for (let step = 0; step < 6; step++) {
    await runEscrowJobs();
    const [row] = await t.db.select().from(payoutLists).where(eq(payoutLists.epoch, epoch));
    if (row?.status === 'settled') return row;
  }
  const [row] = await t.db.select().from(payoutLists).where(eq(payoutLists.epoch, epoch));
  throw new Error(`round ${epoch} not settled: ${JSON.stringify(row)}`);
}

async function escrowMarket(key: Hex) {
  const [pool, , claimableAt, state, , , payoutRoot, payoutTotal, paid, fee] =
    await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'markets',
      args: [key],
    });
  return { pool, claimableAt, state, payoutRoot, payoutTotal, paid, fee };
}

const balanceOf = (address: Address) => t.chain.publicClient.getBalance({ address });

async function claim(address: Address) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/claims',
    payload: { userAddress: address, scope: 'all' },
  });
  return { status: response.statusCode, body: response.json() };
}

async function claimable(address: Address): Promise<ClaimableResponse> {
  return (await t.app.inject({ method: 'GET', url: `/api/users/${address}/claimable` })).json();
}

async function betsOf(epoch: number) {
  return t.db.select().from(oracleBets).where(eq(oracleBets.epoch, epoch)).orderBy(asc(oracleBets.id));
}

describe('a round on the escrow', () => {
  let epoch: number;
  let key: Hex;
  const winners = [0, 1] as const;

  test('settles on chain with the root, total and fee of its published list, which verifies', async () => {
    epoch = await nextLiveRound();
    await stake(0, epoch, 'bull', '1');
    await stake(1, epoch, 'bull', '2.333333333333333337');
    await stake(2, epoch, 'bear', '1.7');
    const ended = await endRound(epoch, { lock: '600', close: '601.5' });
    expect(ended.result).toBe('bull');
    key = roundMarket(epoch, ended.lockTime).key;

    // Due in the engine's transaction; nothing published before the settlement job builds it.
    const [due] = await t.db.select().from(payoutLists).where(eq(payoutLists.epoch, epoch));
    expect(due).toMatchObject({ status: 'due', marketKey: key, refund: false, outcome: ROUND_OUTCOME.bull });
    expect(due?.verdictHash).toBe(
      roundVerdictHash({
        epoch,
        lockPrice: ended.lockPrice,
        lockFeedRoundId: ended.lockPriceRoundId,
        closePrice: ended.closePrice,
        closeFeedRoundId: ended.closePriceRoundId,
      }),
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/payout-lists/${key}` })).statusCode).toBe(404);

    // Published as the action is queued, before anything is sent.
    const { settlements } = { settlements: escrowModule.jobs[0] };
    await settlements?.run();
    const [published] = await t.db.select().from(payoutLists).where(eq(payoutLists.epoch, epoch));
    expect(published?.status).toBe('published');
    const served = await t.app.inject({ method: 'GET', url: `/api/payout-lists/${key}` });
    expect(served.statusCode).toBe(200);
    const list = parsePayoutList(served.json());

    const pool = parseEther('1') + parseEther('2.333333333333333337') + parseEther('1.7');
    const bets = await betsOf(epoch);
    expect(list.leaves.map((leaf) => [leaf.stakeId, leaf.payout])).toEqual(
      bets.filter((bet) => (bet.payoutAmount ?? 0n) > 0n).map((bet) => [bet.stakeId, bet.payoutAmount]),
    );
    expect(list.payoutTotal + list.fee).toBe(pool);
    expect(list.fee).toBeGreaterThanOrEqual((pool * BigInt(FEE_BPS)) / 10_000n);
    expect(list.verdictHash).toBe(due?.verdictHash);

    const settled = await settleOnChain(epoch);
    const onChain = await escrowMarket(key);
    expect(onChain).toMatchObject({
      state: 2,
      payoutRoot: list.root,
      payoutTotal: list.payoutTotal,
      fee: list.fee,
    });
    expect(settled.claimableAt?.getTime()).toBe(onChain.claimableAt * 1000);
    expect((settled.claimableAt?.getTime() ?? 0) - (settled.settledAt?.getTime() ?? 0)).toBe(
      MIN_PAYOUT_DELAY * 1000,
    );

    const report = await verifySettlement(t.chain.publicClient, escrow, list);
    expect(report.discrepancies).toEqual([]);
    expect(report.ok).toBe(true);

    // The download is the same document, as a file.
    const file = await t.app.inject({ method: 'GET', url: `/api/payout-lists/${key}?download=1` });
    expect(file.headers['content-disposition']).toBe(`attachment; filename="payout-list-${key}.json"`);
    expect(file.json()).toEqual(served.json());
    // Listed in the OpenAPI document.
    const openapi = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(openapi.paths['/api/payout-lists/{key}']?.get).toBeDefined();
  });

  test('each winner sees its claim with the proof, and nothing is claimable before claimableAt', async () => {
    const winner = player(0).account.address;
    const answer = await claimable(winner);
    const bet = answer.oracle.bets.find((each) => each.epoch === epoch);
    const [row] = (await betsOf(epoch)).filter((each) => each.userAddress === winner.toLowerCase());
    const [list] = await t.db.select().from(payoutLists).where(eq(payoutLists.epoch, epoch));
    expect(bet?.escrowClaim).toMatchObject({
      market: key,
      stakeId: row?.stakeId?.toString(),
      owner: winner,
      amountWei: row?.amount.toString(),
      payoutWei: row?.payoutAmount?.toString(),
      claimableAt: list?.claimableAt?.toISOString(),
      refund: false,
    });
    expect(bet?.escrowClaim?.proof.length).toBeGreaterThan(0);
    // The loser has nothing to claim.
    expect((await claimable(player(2).account.address)).oracle.count).toBe(0);

    const early = await claim(winner);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ success: false, payoutStatus: 'none' });
    expect(early.body.message).toMatch(/can be claimed from/);
  });

  test('a winner claims through POST /api/claims and receives exactly its return, relayed by the operator', async () => {
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);
    const winner = player(0).account.address;
    const [row] = (await betsOf(epoch)).filter((each) => each.userAddress === winner.toLowerCase());
    const before = await balanceOf(winner);
    const answer = await claim(winner);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      betsCount: 1,
      totalWei: row?.payoutAmount?.toString(),
      payoutStatus: 'confirmed',
    });
    expect(await balanceOf(winner)).toBe(before + (row?.payoutAmount ?? 0n));
    const receipt = await t.chain.publicClient.getTransactionReceipt({ hash: answer.body.payoutTxHash });
    expect(receipt.from.toLowerCase()).toBe(t.chain.operator.account.address.toLowerCase());
    expect(receipt.to?.toLowerCase()).toBe(escrow.toLowerCase());
    const [paid] = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.stakeId, row?.stakeId ?? 0n));
    expect(paid).toMatchObject({ kind: 'claimed', amount: row?.payoutAmount, credited: false });
    expect((await betsOf(epoch)).find((each) => each.id === row?.id)?.claimed).toBe(true);
    expect((await claimable(winner)).oracle.count).toBe(0);
  });

  test('a retried claim, and two at once, pay nothing more', async () => {
    const first = player(0).account.address;
    const before = await balanceOf(first);
    expect((await claim(first)).body).toMatchObject({ success: false, payoutStatus: 'none', betsCount: 0 });
    expect(await balanceOf(first)).toBe(before);

    const second = player(1).account.address;
    const [row] = (await betsOf(epoch)).filter((each) => each.userAddress === second.toLowerCase());
    const start = await balanceOf(second);
    const relaysBefore = await t.db.select({ n: sql<number>`count(*)::int` }).from(escrowRelays);
    const answers = await Promise.all([claim(second), claim(second)]);
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(await balanceOf(second)).toBe(start + (row?.payoutAmount ?? 0n));
    const relaysAfter = await t.db.select({ n: sql<number>`count(*)::int` }).from(escrowRelays);
    expect(Number(relaysAfter[0]?.n) - Number(relaysBefore[0]?.n)).toBe(1);
    expect((await claim(second)).body).toMatchObject({ success: false, betsCount: 0 });
    expect(await balanceOf(second)).toBe(start + (row?.payoutAmount ?? 0n));

    const onChain = await escrowMarket(key);
    const winnersPaid = (await betsOf(epoch))
      .filter((bet) =>
        winners.some((index) => player(index).account.address.toLowerCase() === bet.userAddress),
      )
      .reduce((sum, bet) => sum + (bet.payoutAmount ?? 0n), 0n);
    expect(onChain.paid).toBe(winnersPaid);
    expect(onChain.paid).toBe(onChain.payoutTotal);
  });
});

describe('a stake the wallet claimed itself', () => {
  test('is recorded from the chain and never relayed; the relay takes only what is still open', async () => {
    const epoch = await nextLiveRound();
    const own = await stake(0, epoch, 'bull', '0.4');
    const relayed = await stake(0, epoch, 'bull', '0.6');
    await stake(1, epoch, 'bear', '0.5');
    await endRound(epoch, { lock: '600', close: '650' });
    await settleOnChain(epoch);
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);

    // The wallet claims one stake itself, with the published proof alone (GET claimable's escrowClaim).
    const winner = player(0);
    const view = await claimable(winner.account.address);
    const mine = view.oracle.bets.find(
      (bet) => bet.escrowClaim?.stakeId === own.stakeId.toString(),
    )?.escrowClaim;
    if (!mine) throw new Error('no escrow claim for the stake');
    const hash = await winner.writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'claim',
      args: [escrowClaimArg(mine)],
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });

    const bets = await betsOf(epoch);
    const relayedBet = bets.find((bet) => bet.stakeId === relayed.stakeId);
    const before = await balanceOf(winner.account.address);
    const answer = await claim(winner.account.address);
    expect(answer.body).toMatchObject({
      success: true,
      betsCount: 1,
      totalWei: relayedBet?.payoutAmount?.toString(),
      payoutStatus: 'confirmed',
    });
    expect(await balanceOf(winner.account.address)).toBe(before + (relayedBet?.payoutAmount ?? 0n));
    const carried = await t.db
      .select({ stakeId: escrowRelayStakes.stakeId })
      .from(escrowRelayStakes)
      .where(eq(escrowRelayStakes.stakeId, own.stakeId));
    expect(carried).toEqual([]);
    const paid = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.stakeId, own.stakeId));
    expect(paid).toMatchObject([{ kind: 'claimed', relayId: null, txHash: hash.toLowerCase() }]);
    expect(
      (await betsOf(epoch))
        .filter((bet) => bet.userAddress === winner.account.address.toLowerCase())
        .every((bet) => bet.claimed),
    ).toBe(true);
  });
});

describe('a winner that burns the gas of its payout', () => {
  test('is credited, the operator paying one capped attempt; claiming again sends nothing', async () => {
    const epoch = await nextLiveRound();
    const market = roundMarket(epoch, (await roundRow(epoch)).lockTime);
    const deployer = player(0);
    const burner = await deployGasBurner(t.chain, deployer, escrow);
    const amount = parseEther('0.5');
    const betHash = await deployer.writeContract({
      address: burner,
      abi: hostileBettorAbi,
      functionName: 'bet',
      args: [market.id, market.closesAt, 2],
      value: amount,
    });
    const deposited = await stakeOf(t.chain, betHash);
    expect(deposited.owner.toLowerCase()).toBe(burner.toLowerCase());
    await recordStakedBet({ epoch, position: 'bear', amount, txHash: betHash, ...deposited });
    await stake(2, epoch, 'bull', '0.5');

    const ended = await endRound(epoch, { lock: '600', close: '590' });
    expect(ended.result).toBe('bear');
    await settleOnChain(epoch);
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);

    const [bet] = (await betsOf(epoch)).filter((each) => each.userAddress === burner.toLowerCase());
    const payout = bet?.payoutAmount ?? 0n;
    expect(payout).toBeGreaterThan(amount);
    const operatorBefore = await balanceOf(t.chain.operator.account.address);
    const answer = await claim(burner);
    expect(answer.body).toMatchObject({ success: true, betsCount: 1, payoutStatus: 'confirmed' });
    // The push failed: the payout is the burner's credit on the contract, and the bet is paid.
    const credit = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'credits',
      args: [burner],
    });
    expect(credit).toBe(payout);
    const [paid] = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.stakeId, deposited.stakeId));
    expect(paid).toMatchObject({ kind: 'claimed', credited: true, amount: payout });
    expect((await claimable(burner)).oracle.count).toBe(0);

    // One operator transaction carried the stake, within its cap; it cost the operator its gas only.
    const carriers = await t.db
      .select({ action: operatorTransactions })
      .from(escrowRelayStakes)
      .innerJoin(escrowRelays, eq(escrowRelays.id, escrowRelayStakes.relayId))
      .innerJoin(operatorTransactions, eq(operatorTransactions.id, escrowRelays.operatorTxId))
      .where(eq(escrowRelayStakes.stakeId, deposited.stakeId));
    expect(carriers).toHaveLength(1);
    const action = carriers[0]?.action;
    expect(action?.status).toBe('confirmed');
    expect(action?.gasUsed).toBeLessThanOrEqual(action?.gasCap ?? 0n);
    expect(action?.gasUsed).toBeLessThan(200_000n);
    const receipt = await t.chain.publicClient.getTransactionReceipt({ hash: action?.txHash as Hash });
    expect(operatorBefore - (await balanceOf(t.chain.operator.account.address))).toBe(
      receipt.gasUsed * receipt.effectiveGasPrice,
    );

    const actionsBefore = await t.db.select({ n: sql<number>`count(*)::int` }).from(operatorTransactions);
    expect((await claim(burner)).body).toMatchObject({ success: false, betsCount: 0 });
    const actionsAfter = await t.db.select({ n: sql<number>`count(*)::int` }).from(operatorTransactions);
    expect(actionsAfter[0]?.n).toBe(actionsBefore[0]?.n);
  });
});

describe('a cancelled round', () => {
  test('settles as a refund and refunds every stake exactly once', async () => {
    const epoch = await nextLiveRound();
    const stakes = [
      await stake(0, epoch, 'bull', '0.3'),
      await stake(1, epoch, 'bear', '0.7'),
      await stake(1, epoch, 'bull', '0.05'),
    ];
    // No price at the lock: cancelled, every stake refunded.
    const ended = await endRound(epoch, null);
    expect(ended.result).toBe('cancelled');
    const key = roundMarket(epoch, ended.lockTime).key;
    const settled = await settleOnChain(epoch);
    expect(settled).toMatchObject({ refund: true, outcome: ROUND_OUTCOME.cancelled, document: null });
    expect((await escrowMarket(key)).state).toBe(3);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/payout-lists/${key}` })).json().error.message,
    ).toMatch(/refunded in full/);

    const refunded = new Map<Address, bigint>();
    for (const each of stakes) refunded.set(each.owner, (refunded.get(each.owner) ?? 0n) + each.amount);
    for (const [owner, total] of refunded) {
      const view = await claimable(owner);
      const claims = view.oracle.bets.filter((bet) => bet.epoch === epoch).map((bet) => bet.escrowClaim);
      expect(claims.every((each) => each?.refund === true && each.proof.length === 0)).toBe(true);
      const before = await balanceOf(owner);
      const answer = await claim(owner);
      expect(answer.body).toMatchObject({
        success: true,
        totalWei: total.toString(),
        payoutStatus: 'confirmed',
      });
      expect(await balanceOf(owner)).toBe(before + total);
      // Again: nothing more.
      expect((await claim(owner)).body).toMatchObject({ success: false, betsCount: 0 });
      expect(await balanceOf(owner)).toBe(before + total);
    }
    const payouts = await t.db.select().from(escrowStakePayouts).where(eq(escrowStakePayouts.marketKey, key));
    expect(payouts.map((each) => [each.stakeId, each.kind, each.amount]).sort()).toEqual(
      stakes.map((each) => [each.stakeId, 'refunded', each.amount]).sort(),
    );
    expect((await escrowMarket(key)).pool).toBe(0n);
  });
});

describe('a deposit the server has not recorded', () => {
  test('holds the settlement back: never swept into the fee', async () => {
    const epoch = await nextLiveRound();
    await stake(0, epoch, 'bull', '0.2');
    await stake(1, epoch, 'bear', '0.2');
    // A deposit into the round's market that no bet names (the intake would record it as refused).
    const market = roundMarket(epoch, (await roundRow(epoch)).lockTime);
    await t.chain.publicClient.waitForTransactionReceipt({
      hash: await deposit(
        player(2),
        escrow,
        { kind: 'round', market: market.id, closesAt: market.closesAt, position: 'bull' },
        parseEther('0.3'),
      ),
      pollingInterval: 50,
    });
    await endRound(epoch, { lock: '600', close: '601' });
    await runEscrowJobs();
    const [row] = await t.db.select().from(payoutLists).where(eq(payoutLists.epoch, epoch));
    expect(row).toMatchObject({ status: 'due', operatorTxId: null, document: null });
    expect(row?.lastError).toMatch(
      /the escrow holds 700000000000000000 wei .* the server's records 400000000000000000 wei/,
    );
    expect((await escrowMarket(market.key)).state).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: `/api/payout-lists/${market.key}` })).statusCode).toBe(
      404,
    );
  });
});

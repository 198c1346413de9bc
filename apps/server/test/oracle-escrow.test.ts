import { parsePayoutList } from '@pm/escrow/payout-list';
import { ROUND_OUTCOME, roundVerdictHash } from '@pm/escrow/round-settlement';
import { verifySettlement } from '@pm/escrow/verify-settlement';
import { asc, eq, sql } from 'drizzle-orm';
import { type Address, type Hash, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  escrowRelayStakes,
  escrowRelays,
  escrowStakePayouts,
  operatorTransactions,
  oracleBets,
  payoutLists,
} from '../src/db/schema.ts';
import { createRoundEngine, type RoundEngine } from '../src/oracle/round-engine.ts';
import {
  claimableOf,
  claimItself,
  escrowCreditOf,
  escrowOf,
  expectPaidWithoutRelay,
  postClaim,
  postEscrowSettlement,
  readMarketOnChain,
  stakePayoutsOf,
} from './support/escrow-market-helpers.ts';
import { escrowPayoutsOf, gasBurnerStake, watchBalance } from './support/escrow-stakes.ts';
import { liveRound } from './support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 026: every round settles on the escrow contract and every round payout or refund leaves it,
// relayed by the operator key, on a real Hardhat node and a real database. Bets arrive as real
// deposits, recorded as the intake records them (oracle-bets.test.ts walks the intake itself).

const FEE_BPS = 300;
const MIN_PAYOUT_DELAY = 60;

let t: TestApp;
let escrow: Address;
let engine: RoundEngine;

beforeAll(async () => {
  // The dev escrow (test-app.ts deploys it as npm start does): its payout delay is MIN_PAYOUT_DELAY.
  t = await startTestApp({ ORACLE_FEE_BPS: String(FEE_BPS) });
  escrow = escrowOf(t);
  // The round engine alone (no other job moves the rounds), settling on the escrow.
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

const player = (index: number) => {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};

/** The next round, live: its stakes deposited into the escrow, its end the engine's. */
const nextLiveRound = () => liveRound(t, { tick: () => engine.tick() });

/** The round's settlement posted and final on chain, and time past its payout delay. */
async function settleAndOpenPayouts(epoch: number) {
  const settled = await postEscrowSettlement(t, { epoch });
  await t.advanceTime(MIN_PAYOUT_DELAY + 1);
  return settled;
}

const escrowMarket = (key: Hash) => readMarketOnChain(t, key);

const balanceOf = (address: Address) => t.chain.publicClient.getBalance({ address });

async function betsOf(epoch: number) {
  return t.db.select().from(oracleBets).where(eq(oracleBets.epoch, epoch)).orderBy(asc(oracleBets.id));
}

describe('a round on the escrow', () => {
  let epoch: number;
  let key: Hex;
  const winners = [0, 1] as const;

  test('settles on chain with the root, total and fee of its published list, which verifies', async () => {
    const round = await nextLiveRound();
    epoch = round.epoch;
    await round.stake(player(0), 'bull', parseEther('1'));
    await round.stake(player(1), 'bull', parseEther('2.333333333333333337'));
    await round.stake(player(2), 'bear', parseEther('1.7'));
    const ended = await round.end({ lock: '600', close: '601.5' });
    expect(ended.result).toBe('bull');
    key = round.market.key;

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
    await t.job('escrow-settlements').run();
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

    const settled = await postEscrowSettlement(t, { epoch });
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
    const answer = await claimableOf(t, winner);
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
    expect((await claimableOf(t, player(2).account.address)).oracle.count).toBe(0);

    const early = await postClaim(t, winner);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ success: false, payoutStatus: 'none' });
    expect(early.body.message).toMatch(/can be claimed from/);
  });

  test('a winner claims through POST /api/claims and receives exactly its return, relayed by the operator', async () => {
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);
    const winner = player(0).account.address;
    const [row] = (await betsOf(epoch)).filter((each) => each.userAddress === winner.toLowerCase());
    const before = await balanceOf(winner);
    const answer = await postClaim(t, winner);
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
    const [paid] = await stakePayoutsOf(t, row?.stakeId ?? 0n);
    expect(paid).toMatchObject({ kind: 'claimed', amount: row?.payoutAmount, credited: false });
    expect((await betsOf(epoch)).find((each) => each.id === row?.id)?.claimed).toBe(true);
    expect((await claimableOf(t, winner)).oracle.count).toBe(0);
  });

  test('a retried claim, and two at once, pay nothing more', async () => {
    const first = player(0).account.address;
    const before = await balanceOf(first);
    expect((await postClaim(t, first)).body).toMatchObject({
      success: false,
      payoutStatus: 'none',
      betsCount: 0,
    });
    expect(await balanceOf(first)).toBe(before);

    const second = player(1).account.address;
    const [row] = (await betsOf(epoch)).filter((each) => each.userAddress === second.toLowerCase());
    const start = await balanceOf(second);
    const relaysBefore = await t.db.select({ n: sql<number>`count(*)::int` }).from(escrowRelays);
    const answers = await Promise.all([postClaim(t, second), postClaim(t, second)]);
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(await balanceOf(second)).toBe(start + (row?.payoutAmount ?? 0n));
    const relaysAfter = await t.db.select({ n: sql<number>`count(*)::int` }).from(escrowRelays);
    expect(Number(relaysAfter[0]?.n) - Number(relaysBefore[0]?.n)).toBe(1);
    expect((await postClaim(t, second)).body).toMatchObject({ success: false, betsCount: 0 });
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
    const round = await nextLiveRound();
    const { epoch } = round;
    const own = await round.stake(player(0), 'bull', parseEther('0.4'));
    const relayed = await round.stake(player(0), 'bull', parseEther('0.6'));
    await round.stake(player(1), 'bear', parseEther('0.5'));
    await round.end({ lock: '600', close: '650' });
    await settleAndOpenPayouts(epoch);

    // The wallet claims one stake itself, with the published proof alone (GET claimable's escrowClaim).
    const winner = player(0);
    const view = await claimableOf(t, winner.account.address);
    const mine = view.oracle.bets.find(
      (bet) => bet.escrowClaim?.stakeId === own.stakeId.toString(),
    )?.escrowClaim;
    if (!mine) throw new Error('no escrow claim for the stake');
    const ownBet = (await betsOf(epoch)).find((bet) => bet.stakeId === own.stakeId);
    const ownPayout = ownBet?.payoutAmount ?? 0n;
    expect(ownPayout).toBeGreaterThan(own.amount);
    const wallet = await watchBalance(t.chain, winner.account.address);
    const hash = await claimItself(t, winner, mine);
    // The contract paid the stake its return, to the wei: the wallet gained it less its own gas.
    expect(await escrowPayoutsOf(t.chain, hash)).toEqual([
      { kind: 'claimed', stakeId: own.stakeId, owner: winner.account.address, amount: ownPayout },
    ]);
    expect(await wallet.moved(hash)).toBe(ownPayout);

    const bets = await betsOf(epoch);
    const relayedBet = bets.find((bet) => bet.stakeId === relayed.stakeId);
    const before = await balanceOf(winner.account.address);
    const answer = await postClaim(t, winner.account.address);
    expect(answer.body).toMatchObject({
      success: true,
      betsCount: 1,
      totalWei: relayedBet?.payoutAmount?.toString(),
      payoutStatus: 'confirmed',
    });
    expect(await balanceOf(winner.account.address)).toBe(before + (relayedBet?.payoutAmount ?? 0n));
    await expectPaidWithoutRelay(t, own.stakeId, hash, ownPayout);
    expect(
      (await betsOf(epoch))
        .filter((bet) => bet.userAddress === winner.account.address.toLowerCase())
        .every((bet) => bet.claimed),
    ).toBe(true);
  });
});

describe('a winner that burns the gas of its payout', () => {
  test('is credited, the operator paying one capped attempt; claiming again sends nothing', async () => {
    const round = await nextLiveRound();
    const { epoch, market } = round;
    const amount = parseEther('0.5');
    const { burner, hash: betHash } = await gasBurnerStake(t.chain, player(0), escrow, market, amount);
    const deposited = await round.recordStake(betHash, 'bear', amount);
    expect(deposited.owner.toLowerCase()).toBe(burner.toLowerCase());
    await round.stake(player(2), 'bull', parseEther('0.5'));

    const ended = await round.end({ lock: '600', close: '590' });
    expect(ended.result).toBe('bear');
    await settleAndOpenPayouts(epoch);

    const [bet] = (await betsOf(epoch)).filter((each) => each.userAddress === burner.toLowerCase());
    const payout = bet?.payoutAmount ?? 0n;
    expect(payout).toBeGreaterThan(amount);
    const operatorBefore = await balanceOf(t.chain.operator.account.address);
    const answer = await postClaim(t, burner);
    expect(answer.body).toMatchObject({ success: true, betsCount: 1, payoutStatus: 'confirmed' });
    // The push failed: the payout is the burner's credit on the contract, and the bet is paid.
    const credit = await escrowCreditOf(t, burner);
    expect(credit).toBe(payout);
    const [paid] = await stakePayoutsOf(t, deposited.stakeId);
    expect(paid).toMatchObject({ kind: 'claimed', credited: true, amount: payout });
    expect((await claimableOf(t, burner)).oracle.count).toBe(0);

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
    expect((await postClaim(t, burner)).body).toMatchObject({ success: false, betsCount: 0 });
    const actionsAfter = await t.db.select({ n: sql<number>`count(*)::int` }).from(operatorTransactions);
    expect(actionsAfter[0]?.n).toBe(actionsBefore[0]?.n);
  });
});

describe('a cancelled round', () => {
  test('settles as a refund and refunds every stake exactly once', async () => {
    const round = await nextLiveRound();
    const { epoch } = round;
    const stakes = [
      await round.stake(player(0), 'bull', parseEther('0.3')),
      await round.stake(player(1), 'bear', parseEther('0.7')),
      await round.stake(player(1), 'bull', parseEther('0.05')),
    ];
    // No price at the lock: cancelled, every stake refunded.
    const ended = await round.end(null);
    expect(ended.result).toBe('cancelled');
    const key = round.market.key;
    const settled = await postEscrowSettlement(t, { epoch });
    expect(settled).toMatchObject({ refund: true, outcome: ROUND_OUTCOME.cancelled, document: null });
    expect((await escrowMarket(key)).state).toBe(3);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/payout-lists/${key}` })).json().error.message,
    ).toMatch(/refunded in full/);

    const refunded = new Map<Address, bigint>();
    for (const each of stakes) refunded.set(each.owner, (refunded.get(each.owner) ?? 0n) + each.amount);
    for (const [owner, total] of refunded) {
      const view = await claimableOf(t, owner);
      const claims = view.oracle.bets.filter((bet) => bet.epoch === epoch).map((bet) => bet.escrowClaim);
      expect(claims.every((each) => each?.refund === true && each.proof.length === 0)).toBe(true);
      const before = await balanceOf(owner);
      const answer = await postClaim(t, owner);
      expect(answer.body).toMatchObject({
        success: true,
        totalWei: total.toString(),
        payoutStatus: 'confirmed',
      });
      expect(await balanceOf(owner)).toBe(before + total);
      // Again: nothing more.
      expect((await postClaim(t, owner)).body).toMatchObject({ success: false, betsCount: 0 });
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
    const round = await nextLiveRound();
    const { epoch, market } = round;
    await round.stake(player(0), 'bull', parseEther('0.2'));
    await round.stake(player(1), 'bear', parseEther('0.2'));
    // A deposit into the round's market that no bet names (the intake would record it as refused).
    await t.chain.publicClient.waitForTransactionReceipt({
      hash: await round.deposit(player(2), 'bull', parseEther('0.3')),
      pollingInterval: 50,
    });
    await round.end({ lock: '600', close: '601' });
    await t.job('escrow-settlements').run();
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

import { parseEther, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { devFeedAggregatorAbi, devFeedAggregatorBytecode, devFeedProxyAbi } from '../src/dev-feeds.gen.ts';
import { marketEscrowAbi } from '../src/market-escrow.gen.ts';
import { priceSettlementCall } from '../src/price-settlement-call.ts';
import { verifyPriceOutcome } from '../src/verify-price-outcome.ts';
import { devAccount } from './chain-clients.ts';
import {
  BETTORS,
  BNB,
  BTC,
  createMarketEscrowWorld,
  ESCAPE_DELAY,
  expectRevert,
  FEED_WRITER,
  HOUR,
  KIND,
  MAX_PRICE_AGE,
  type MarketEscrowWorld,
  MINUTE,
  NO,
  OPERATOR,
  REFUND,
  STATE,
  STRANGER,
  TREASURY,
  YES,
} from './market-escrow-world.ts';

// The price kinds of MarketEscrow on a real node: rounds and price markets opened by their bettors,
// settled from the dev feed by anyone with the round ids in force, paid by the contract's own rule.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

const [alice, bob, carol] = BETTORS;
const usd = (dollars: number) => BigInt(Math.round(dollars * 100)) * 1_000_000n;

/** The settled outcome, recomputed from the feed's own rounds by core's rules, is the recorded one. */
async function expectVerified(market: `0x${string}`) {
  const check = await verifyPriceOutcome(world.publicClient, world.address, market);
  expect(check).toMatchObject({ settled: true, agrees: true });
}

/** A round with alice UP `up` and bob DOWN `down`, its lock and close priced `lockPrice` → `closePrice`. */
async function playedRound(
  lockPrice: bigint,
  closePrice: bigint,
  up = parseEther('1'),
  down = parseEther('3'),
) {
  const round = await world.nextRound(BNB);
  await world.publish(BNB, usd(600));
  const aliceStake = await world.betRound(alice, round, YES, up);
  const bobStake = await world.betRound(bob, round, NO, down);
  await world.publish(BNB, lockPrice, round.lockAt - 10);
  await world.publish(BNB, closePrice, round.closeAt - 5);
  await world.travelTo(round.closeAt + 1);
  return { round, aliceStake, bobStake };
}

describe('rounds', () => {
  test('a round opens with its first bet under the key of its terms, and takes bets until its lock', async () => {
    const round = await world.nextRound(BNB);
    expect(round.key).toBe(await world.read.roundKey([BNB, round.lockAt, round.closeAt]));
    const first = await world.betRound(alice, round, YES, parseEther('0.01'));
    const second = await world.betRound(bob, round, NO, parseEther('0.02'));
    expect(first.market).toBe(round.key);
    expect(second.stakeId).toBe(first.stakeId + 1n);
    const market = await world.market(round.key);
    expect(market).toMatchObject({ kind: KIND.Round, state: STATE.Open, pool: parseEther('0.03') });
    expect(await world.read.sides([round.key])).toEqual([parseEther('0.01'), parseEther('0.02')]);
    // `bet` on its key joins it too.
    await world.bet(carol, round.key, YES, parseEther('0.01'));
    await world.travelTo(round.lockAt);
    await expectRevert(
      world
        .as(alice)
        .write.betRound([BNB, round.lockAt, round.closeAt, YES, '0x'.padEnd(66, '0') as `0x${string}`], {
          value: parseEther('0.01'),
        }),
      'BettingClosed',
    );
  });

  test('a round bet below 0.01 BNB, on no side, on an unknown coin or with a bad span is refused', async () => {
    const round = await world.nextRound(BNB);
    const ref = `0x${'0'.repeat(64)}` as const;
    await expectRevert(
      world
        .as(alice)
        .write.betRound([BNB, round.lockAt, round.closeAt, YES, ref], { value: parseEther('0.0099') }),
      'BelowMinimum',
      [parseEther('0.0099'), parseEther('0.01')],
    );
    await expectRevert(
      world
        .as(alice)
        .write.betRound([BNB, round.lockAt, round.closeAt, 0, ref], { value: parseEther('0.01') }),
      'BadSide',
    );
    await expectRevert(
      world
        .as(alice)
        .write.betRound([7, round.lockAt, round.closeAt, YES, ref], { value: parseEther('0.01') }),
      'UnknownCoin',
    );
    await expectRevert(
      world
        .as(alice)
        .write.betRound([BNB, round.lockAt, round.lockAt + 59, YES, ref], { value: parseEther('0.01') }),
      'BadRoundSpan',
    );
    await expectRevert(
      world.as(alice).write.betRound([BNB, round.lockAt, round.lockAt + 86_401, YES, ref], {
        value: parseEther('0.01'),
      }),
      'BadRoundSpan',
    );
  });

  test('anyone settles a round UP from the rounds in force; winners share pool − fee pro rata, dust to the fee', async () => {
    const { round, aliceStake, bobStake } = await playedRound(
      usd(600),
      usd(601),
      parseEther('1'),
      parseEther('3'),
    );
    const lock = world.roundAt(BNB, round.lockAt);
    const close = world.roundAt(BNB, round.closeAt);
    const receipt = await world.settleRound(round, STRANGER);
    const [event] = parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'PriceSettled' });
    const pool = parseEther('4');
    const fee = (pool * 300n) / 10_000n;
    expect(event?.args).toMatchObject({
      market: round.key,
      outcome: YES,
      lockRoundId: lock.roundId,
      lockPrice: usd(600),
      closeRoundId: close.roundId,
      closePrice: usd(601),
      payoutTotal: pool - fee,
      fee,
    });
    const [lockReading, closeReading] = await world.read.readings([round.key]);
    expect(lockReading).toEqual({ roundId: lock.roundId, answer: usd(600), updatedAt: lock.updatedAt });
    expect(closeReading).toEqual({ roundId: close.roundId, answer: usd(601), updatedAt: close.updatedAt });
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Settled, outcome: YES });
    await expectVerified(round.key);

    const before = await world.balance(alice);
    await world.mined(world.as(STRANGER).write.claim([world.priceClaim(aliceStake)]));
    expect((await world.balance(alice)) - before).toBe(pool - fee);
    await expectRevert(world.as(STRANGER).write.claim([world.priceClaim(bobStake)]), 'NotAWinner');
    // The only winner claimed: no dust; the fee goes to the treasury.
    const treasuryBefore = await world.balance(TREASURY);
    await world.mined(world.as(STRANGER).write.collectFee([round.key]));
    expect((await world.balance(TREASURY)) - treasuryBefore).toBe(fee);
    expect(await world.read.liabilities()).toBeGreaterThanOrEqual(0n);
  });

  test('a round closing below its lock pays DOWN; equal prices refund every stake', async () => {
    const down = await playedRound(usd(600), usd(599));
    await world.settleRound(down.round);
    expect(await world.market(down.round.key)).toMatchObject({ state: STATE.Settled, outcome: NO });

    const draw = await playedRound(usd(600), usd(600));
    await world.settleRound(draw.round);
    expect(await world.market(draw.round.key)).toMatchObject({
      state: STATE.Refunding,
      outcome: REFUND.draw,
    });
    await expectVerified(down.round.key);
    await expectVerified(draw.round.key);
    const before = await world.balance(alice);
    await world.mined(world.as(STRANGER).write.refund([draw.aliceStake]));
    expect((await world.balance(alice)) - before).toBe(draw.aliceStake.amount);
  });

  test('a side nobody took refunds the round; a stale price at the lock refunds it too', async () => {
    const round = await world.nextRound(BNB);
    await world.publish(BNB, usd(600));
    const onlyDown = await world.betRound(bob, round, NO, parseEther('1'));
    await world.publish(BNB, usd(600), round.lockAt - 10);
    await world.publish(BNB, usd(610), round.closeAt - 10);
    await world.travelTo(round.closeAt + 1);
    await world.settleRound(round);
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Refunding, outcome: REFUND.noWinner });
    await expectVerified(round.key);
    await world.mined(world.as(bob).write.refund([onlyDown]));

    const stale = await world.nextRound(BNB, 10 * MINUTE);
    await world.publish(BNB, usd(600));
    await world.betRound(alice, stale, YES, parseEther('1'));
    await world.betRound(bob, stale, NO, parseEther('1'));
    // The last round before the lock is older than the price's age limit.
    await world.publish(BNB, usd(600), stale.lockAt - MAX_PRICE_AGE - 1);
    await world.publish(BNB, usd(620), stale.closeAt - 1);
    await world.travelTo(stale.closeAt + 1);
    await world.settleRound(stale);
    expect(await world.market(stale.key)).toMatchObject({ state: STATE.Refunding, outcome: REFUND.stale });
    await expectVerified(stale.key);
  });

  test('a wrong round id (earlier, later, not yet published) settles nothing', async () => {
    const { round } = await playedRound(usd(600), usd(605));
    const lock = world.roundAt(BNB, round.lockAt);
    const close = world.roundAt(BNB, round.closeAt);
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, lock.roundId - 1n, close.roundId]),
      'RoundNotInForce',
    );
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, lock.roundId, close.roundId + 1n]),
      'NoSuchRound',
    );
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, close.roundId, close.roundId]),
      'RoundTooLate',
    );
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Open });
    await world.settleRound(round);
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, lock.roundId, close.roundId]),
      'NotSettleable',
    );
  });

  test('a round cannot be settled before its close, nor by the operator any other way', async () => {
    const round = await world.nextRound(BNB);
    await world.publish(BNB, usd(600));
    await world.betRound(alice, round, YES, parseEther('1'));
    await world.publish(BNB, usd(600), round.lockAt - 1);
    const lock = world.roundAt(BNB, round.lockAt);
    await world.travelTo(round.closeAt - 1);
    // At the close's own second a round published in this block could still cover it.
    await world.testClient.setNextBlockTimestamp({ timestamp: BigInt(round.closeAt) });
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, lock.roundId, lock.roundId]),
      'InstantNotPast',
    );
    const hash = `0x${'1'.repeat(64)}` as const;
    await expectRevert(
      world.as(OPERATOR).write.settle([round.key, YES, hash, hash, 1n, 0n, 600]),
      'WrongKind',
    );
    await expectRevert(world.as(OPERATOR).write.settleAsRefund([round.key, 9, hash]), 'WrongKind');
  });

  test('settled hours late by a stranger, a round pays exactly what it would have paid on time', async () => {
    const onTime = await playedRound(usd(600), usd(650), parseEther('2'), parseEther('5'));
    await world.settleRound(onTime.round);
    const late = await playedRound(usd(600), usd(650), parseEther('2'), parseEther('5'));
    // Many rounds published since, hours pass.
    for (let i = 0; i < 5; i += 1) await world.publish(BNB, usd(700 + i));
    await world.travel(6 * HOUR);
    await world.settleRound(late.round, STRANGER);
    const [onTimeMarket, lateMarket] = [
      await world.market(onTime.round.key),
      await world.market(late.round.key),
    ];
    expect(lateMarket.outcome).toBe(onTimeMarket.outcome);
    expect(lateMarket.payoutTotal).toBe(onTimeMarket.payoutTotal);
    expect(await world.read.pricePayout([late.round.key, YES, late.aliceStake.amount])).toBe(
      await world.read.pricePayout([onTime.round.key, YES, onTime.aliceStake.amount]),
    );
  });

  test("an unsettled round escapes to refunds ESCAPE_DELAY after its lock, on anyone's call", async () => {
    const round = await world.nextRound(BNB);
    await world.publish(BNB, usd(600));
    const stake = await world.betRound(alice, round, YES, parseEther('1'));
    await world.travelTo(round.closeAt + 1);
    await expectRevert(world.as(STRANGER).write.refund([stake]), 'NotRefundable');
    await world.travelTo(round.lockAt + ESCAPE_DELAY);
    const receipt = await world.mined(world.as(STRANGER).write.refund([stake]));
    expect(parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Escaped' })).toHaveLength(
      1,
    );
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Refunding });
  });
});

describe('price markets', () => {
  test('a price market is created under a key bound to its creator, with its terms on chain', async () => {
    const created = await world.createPriceMarket(alice, { coin: BTC, target: usd(100_000), above: true });
    expect(created.key).toBe(
      await world.read.marketKey([KIND.PriceMarket, devAccount(alice).address, created.id]),
    );
    expect(await world.read.priceTerms([created.key])).toEqual([usd(100_000), created.closesAt, true]);
    // The same id from another creator is another market; the same creator's again is refused.
    const ref = `0x${'0'.repeat(64)}` as const;
    await world.mined(
      world.as(bob).write.createPriceMarket([created.id, BTC, usd(1), true, created.closesAt, YES, ref], {
        value: parseEther('0.005'),
      }),
    );
    await expectRevert(
      world.as(alice).write.createPriceMarket([created.id, BTC, usd(1), true, created.closesAt, YES, ref], {
        value: parseEther('0.005'),
      }),
      'MarketExists',
    );
    await expectRevert(
      world.as(alice).write.createPriceMarket([created.id, BTC, 0n, true, created.closesAt, YES, ref], {
        value: parseEther('0.005'),
      }),
      'BadTarget',
    );
    await expectRevert(
      world.as(bob).write.bet([created.key, YES, ref], { value: parseEther('0.0049') }),
      'BelowMinimum',
    );
  });

  test('above: YES only strictly above the target at the deadline; equal is NO', async () => {
    for (const [price, outcome] of [
      [usd(100_000.01), YES],
      [usd(100_000), NO],
      [usd(99_999), NO],
    ] as const) {
      const created = await world.createPriceMarket(alice, { coin: BTC, target: usd(100_000), side: YES });
      await world.bet(bob, created.key, NO, parseEther('0.02'));
      await world.publish(BTC, price, created.closesAt - 30);
      await world.travelTo(created.closesAt + 1);
      await world.settlePriceMarket(created);
      expect(await world.market(created.key)).toMatchObject({ state: STATE.Settled, outcome });
      await expectVerified(created.key);
      const [, closeReading] = await world.read.readings([created.key]);
      expect(closeReading.answer).toBe(price);
    }
  });

  test('below: YES only strictly below; a winner claims stake × (pool − fee) / winning side', async () => {
    const created = await world.createPriceMarket(alice, {
      coin: BTC,
      target: usd(90_000),
      above: false,
      side: YES,
      amount: parseEther('1'),
    });
    const carolStake = await world.bet(carol, created.key, YES, parseEther('2'));
    await world.bet(bob, created.key, NO, parseEther('3'));
    await world.publish(BTC, usd(89_000), created.closesAt - 30);
    await world.travelTo(created.closesAt + 1);
    await world.settlePriceMarket(created);
    const pool = parseEther('6');
    const share = pool - (pool * 200n) / 10_000n;
    expect(await world.read.pricePayout([created.key, YES, carolStake.amount])).toBe(
      (carolStake.amount * share) / parseEther('3'),
    );
    const before = await world.balance(carol);
    await world.mined(world.as(STRANGER).write.claim([world.priceClaim(carolStake)]));
    expect((await world.balance(carol)) - before).toBe((carolStake.amount * share) / parseEther('3'));
    await expectRevert(world.as(STRANGER).write.claim([world.priceClaim(carolStake)]), 'StakeMismatch');
    await expectRevert(
      world.as(STRANGER).write.claim([{ stake: created.stake, payout: 1n, proof: [] }]),
      'PayoutNamed',
    );
  });
});

describe('the settlement call anyone builds from public data', () => {
  test('it finds the rounds in force itself and settles a round and a price market', async () => {
    const round = await world.nextRound(BNB);
    await world.publish(BNB, usd(600));
    await world.betRound(alice, round, YES, parseEther('1'));
    await world.betRound(bob, round, NO, parseEther('1'));
    expect(await priceSettlementCall(world.publicClient, world.address, round.key)).toEqual({
      wait: 'not_closed',
    });
    await world.publish(BNB, usd(600), round.lockAt - 30);
    await world.publish(BNB, usd(601), round.lockAt + 30);
    await world.publish(BNB, usd(599), round.closeAt - 30);
    await world.publish(BNB, usd(650), round.closeAt + 30);
    await world.travelTo(round.closeAt + 60);
    const call = await priceSettlementCall(world.publicClient, world.address, round.key);
    expect(call).toEqual({
      functionName: 'settleRound',
      args: [round.key, world.roundAt(BNB, round.lockAt).roundId, world.roundAt(BNB, round.closeAt).roundId],
    });
    if (!('functionName' in call) || call.functionName !== 'settleRound') throw new Error('no call');
    await world.mined(world.as(STRANGER).write.settleRound(call.args));
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Settled, outcome: NO });
    expect(await priceSettlementCall(world.publicClient, world.address, round.key)).toEqual({
      wait: 'not_open',
    });

    const created = await world.createPriceMarket(alice, { coin: BTC, target: usd(90_000) });
    await world.publish(BTC, usd(91_000), created.closesAt - 20);
    await world.travelTo(created.closesAt + 5);
    const marketCall = await priceSettlementCall(world.publicClient, world.address, created.key);
    if (!('functionName' in marketCall) || marketCall.functionName !== 'settlePriceMarket')
      throw new Error('no call');
    await world.mined(world.as(STRANGER).write.settlePriceMarket(marketCall.args));
    expect(await world.market(created.key)).toMatchObject({ state: STATE.Settled, outcome: YES });
  });

  // Last in this file: it moves BNB's feed to a second phase, which the world's publish() does not follow.
  test('a round in force before the feed moved to a new aggregator is found in the phase before', async () => {
    const round = await world.nextRound(BNB, 2 * MINUTE, 2 * MINUTE);
    await world.publish(BNB, usd(600));
    await world.betRound(alice, round, YES, parseEther('1'));
    await world.betRound(bob, round, NO, parseEther('1'));
    await world.publish(BNB, usd(600), round.lockAt - 30);
    // The feed's owner moves the proxy to a new aggregator between the lock and the close.
    const next = await world.mined(
      world.walletOf(0).deployContract({
        abi: devFeedAggregatorAbi,
        bytecode: devFeedAggregatorBytecode,
        args: [devAccount(FEED_WRITER).address, 8, 'BNB / USD'],
      }),
    );
    const proxy = world.feeds[BNB]?.proxy as `0x${string}`;
    await world.mined(
      world.walletOf(0).writeContract({
        address: proxy,
        abi: devFeedProxyAbi,
        functionName: 'setAggregator',
        args: [next.contractAddress as `0x${string}`],
      }),
    );
    await world.testClient.setNextBlockTimestamp({ timestamp: BigInt(round.lockAt + 30) });
    await world.mined(
      world.walletOf(FEED_WRITER).writeContract({
        address: next.contractAddress as `0x${string}`,
        abi: devFeedAggregatorAbi,
        functionName: 'publish',
        args: [usd(610)],
      }),
    );
    await world.travelTo(round.closeAt + 10);
    const call = await priceSettlementCall(world.publicClient, world.address, round.key);
    if (!('functionName' in call) || call.functionName !== 'settleRound')
      throw new Error(`no call: ${JSON.stringify(call)}`);
    expect(call.args[1] >> 64n).toBe(1n);
    expect(call.args[2]).toBe((2n << 64n) | 1n);
    await world.mined(world.as(STRANGER).write.settleRound(call.args));
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Settled, outcome: YES });
    await expectVerified(round.key);
  });
});

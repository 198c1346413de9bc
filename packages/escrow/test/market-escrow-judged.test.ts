import {
  type Address,
  decodeErrorResult,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { marketEscrowAbi, marketEscrowBytecode } from '../src/market-escrow.gen.ts';
import { hostileAccountAbi, hostileAccountBytecode } from './attackers.gen.ts';
import { devAccount } from './chain-clients.ts';
import {
  ADMIN,
  ANSWER_WINDOW,
  BETTORS,
  BNB,
  createMarketEscrowWorld,
  DAY,
  DISPUTE_BOND_BPS,
  DISPUTE_BOND_MIN,
  ESCAPE_DELAY,
  expectRevert,
  GUARDIAN,
  HOUR,
  KIND,
  type MarketEscrowWorld,
  NO,
  OPERATOR,
  PAYOUT_DELAY,
  STATE,
  STRANGER,
  type StakeRef,
  stakeOf,
  TREASURY,
  YES,
} from './market-escrow-world.ts';

// MarketEscrow's judged markets and every function around money out, roles and settings, with each
// custom error they raise, on a real Hardhat node.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

const [alice, bob, carol, dave] = BETTORS;
const address = (index: number) => devAccount(index).address;
const verdict = keccak256(toHex('verdict'));
const ZERO_REF = zeroHash;

/** A judged market with alice YES 1 and bob NO 1, past its close. */
async function closedMarket() {
  const created = await world.createJudgedMarket(alice, { amount: parseEther('1') });
  const bobStake = await world.bet(bob, created.key, NO, parseEther('1'));
  await world.travelTo(created.closesAt + 1);
  return { ...created, aliceStake: created.stake, bobStake };
}

/** The same market settled YES: alice's list pays her the pool less a 1 % fee. */
async function settledMarket(delay = PAYOUT_DELAY) {
  const market = await closedMarket();
  const fee = parseEther('0.02');
  const { tree } = await world.settleJudged(
    market.key,
    [{ stakeId: market.aliceStake.stakeId, amount: parseEther('2') - fee }],
    { delay },
  );
  return { ...market, tree, fee };
}

describe('creation and bets', () => {
  test('a judged market opens under its creator-bound key with its content hash, and takes bets until its close', async () => {
    const created = await world.createJudgedMarket(alice);
    expect(created.key).toBe(await world.read.marketKey([KIND.Judged, address(alice), created.id]));
    const [events] = [
      parseEventLogs({ abi: marketEscrowAbi, logs: created.receipt.logs, eventName: 'JudgedMarketCreated' }),
    ];
    expect(events[0]?.args).toMatchObject({
      market: created.key,
      creator: address(alice),
      id: created.id,
      closesAt: created.closesAt,
      contentHash: created.contentHash,
    });
    expect(await world.market(created.key)).toMatchObject({ kind: KIND.Judged, state: STATE.Open });
    const [contentHash] = await world.read.judgements([created.key]);
    expect(contentHash).toBe(created.contentHash);
    await world.bet(bob, created.key, NO, parseEther('0.005'));
    await world.travelTo(created.closesAt);
    await expectRevert(
      world.as(carol).write.bet([created.key, YES, ZERO_REF], { value: parseEther('0.01') }),
      'BettingClosed',
    );
  });

  test('a creation closing now, past MAX_BETTING_PERIOD or twice under one id is refused; a bet on no market too', async () => {
    const id = keccak256(toHex('twice'));
    const now = await world.now();
    const create = (closesAt: number) =>
      world
        .as(alice)
        .write.createJudgedMarket([id, closesAt, verdict, YES, ZERO_REF], { value: parseEther('0.01') });
    await expectRevert(create(now), 'BettingClosed');
    await expectRevert(create(now + 2 * DAY + 10), 'CloseTooFar');
    await world.mined(create(now + HOUR));
    await expectRevert(create(now + HOUR), 'MarketExists');
    await expectRevert(
      world.as(alice).write.bet([keccak256(toHex('nothing')), YES, ZERO_REF], { value: parseEther('0.01') }),
      'NoSuchMarket',
    );
    await expectRevert(
      world
        .as(alice)
        .write.createJudgedMarket([keccak256(toHex('small')), now + HOUR, verdict, YES, ZERO_REF], {
          value: parseEther('0.004'),
        }),
      'BelowMinimum',
    );
  });

  test('plain transfers and unknown calls are refused', async () => {
    await expectRevert(
      world.walletOf(alice).sendTransaction({ to: world.address, value: 1n }),
      'DirectTransfer',
    );
    await expect(
      world.walletOf(alice).sendTransaction({ to: world.address, value: 1n, data: '0x12345678' }),
    ).rejects.toThrow();
  });
});

describe('judged settlement', () => {
  test('the operator settles a closed market; payouts open after the delay; a winner claims with its proof', async () => {
    const market = await settledMarket();
    const settledAt = await world.now();
    expect(await world.market(market.key)).toMatchObject({
      state: STATE.Settled,
      payoutTotal: parseEther('1.98'),
      fee: market.fee,
      claimableAt: settledAt + PAYOUT_DELAY,
    });
    const claim = {
      stake: market.aliceStake,
      payout: parseEther('1.98'),
      proof: market.tree.proof(market.aliceStake.stakeId),
    };
    await expectRevert(world.as(STRANGER).write.claim([claim]), 'NotClaimable');
    await expectRevert(world.as(STRANGER).write.collectFee([market.key]), 'NoFee');
    await world.travel(PAYOUT_DELAY);
    await expectRevert(
      world.as(STRANGER).write.claim([{ ...claim, payout: parseEther('1.99') }]),
      'InvalidProof',
    );
    await expectRevert(world.as(STRANGER).write.claim([{ ...claim, payout: 0n }]), 'NotAWinner');
    const before = await world.balance(alice);
    await world.mined(world.as(STRANGER).write.claim([claim]));
    expect((await world.balance(alice)) - before).toBe(parseEther('1.98'));
    await expectRevert(world.as(STRANGER).write.claim([claim]), 'StakeMismatch');
    const treasuryBefore = await world.balance(TREASURY);
    await world.mined(world.as(STRANGER).write.collectFee([market.key]));
    expect((await world.balance(TREASURY)) - treasuryBefore).toBe(market.fee);
  });

  test('settle refuses: not the operator, before the close, no root, a pool mismatch, a fee above 10 %, a delay out of bounds', async () => {
    const created = await world.createJudgedMarket(alice, { amount: parseEther('1') });
    const root = keccak256(toHex('root'));
    const settle = (payoutTotal: bigint, fee: bigint, delay = PAYOUT_DELAY, who = OPERATOR, r: Hex = root) =>
      world.as(who).write.settle([created.key, YES, verdict, r, payoutTotal, fee, delay]);
    await expectRevert(settle(parseEther('1'), 0n, PAYOUT_DELAY, STRANGER), 'NotOperator');
    await expectRevert(settle(parseEther('1'), 0n), 'MarketNotClosed');
    await world.travelTo(created.closesAt + 1);
    await expectRevert(settle(parseEther('1'), 0n, PAYOUT_DELAY, OPERATOR, zeroHash), 'InvalidRoot');
    await expectRevert(settle(parseEther('0.5'), 0n), 'PoolMismatch');
    await expectRevert(settle(parseEther('0.899'), parseEther('0.101')), 'FeeTooHigh');
    await expectRevert(settle(parseEther('1'), 0n, 59), 'DelayOutOfBounds');
    await expectRevert(settle(parseEther('1'), 0n, 7 * DAY + 1), 'DelayOutOfBounds');
    const round = await world.nextRound(BNB);
    await world.betRound(bob, round, YES, parseEther('0.01'));
    await expectRevert(
      world.as(OPERATOR).write.settle([round.key, YES, verdict, root, parseEther('0.01'), 0n, PAYOUT_DELAY]),
      'WrongKind',
    );
  });

  test('the settlement bucket bounds what the operator settles per hour; an amendment draws only what it adds', async () => {
    const limited = await createMarketEscrowWorld({
      capacity: parseEther('3'),
      refillPerHour: parseEther('1'),
    });
    try {
      const created = await limited.createJudgedMarket(alice, { amount: parseEther('2') });
      const bobStake = await limited.bet(bob, created.key, NO, parseEther('1'));
      const other = await limited.createJudgedMarket(carol, { amount: parseEther('1') });
      await limited.travelTo(other.closesAt + 1);
      await limited.settleJudged(created.key, [{ stakeId: created.stake.stakeId, amount: parseEther('3') }]);
      expect(await limited.read.settlementAllowance()).toBe(0n);
      // An amendment to the other side, the same total: nothing more drawn.
      await limited.settleJudged(created.key, [{ stakeId: bobStake.stakeId, amount: parseEther('3') }], {
        outcome: NO,
      });
      await expectRevert(
        limited.settleJudged(other.key, [{ stakeId: other.stake.stakeId, amount: parseEther('1') }]),
        'SettlementRateLimited',
      );
      await expectRevert(
        limited.as(STRANGER).write.setSettlementLimit([parseEther('5'), parseEther('1')]),
        'OwnableUnauthorizedAccount',
      );
      await expectRevert(
        limited.as(ADMIN).write.setSettlementLimit([parseEther('0.01'), parseEther('0.01')]),
        'LimitOutOfBounds',
      );
      await limited.mined(limited.as(ADMIN).write.setSettlementLimit([parseEther('5'), parseEther('5')]));
      await limited.travel(HOUR);
      await limited.settleJudged(other.key, [{ stakeId: other.stake.stakeId, amount: parseEther('1') }]);
    } finally {
      await limited.stop();
    }
  });

  test('settleAsRefund voids a market, before its close too; every stake is refunded once', async () => {
    const created = await world.createJudgedMarket(alice, { amount: parseEther('1') });
    await expectRevert(world.as(STRANGER).write.settleAsRefund([created.key, 9, verdict]), 'NotOperator');
    const receipt = await world.mined(world.as(OPERATOR).write.settleAsRefund([created.key, 9, verdict]));
    expect(
      parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Voided' })[0]?.args,
    ).toMatchObject({
      market: created.key,
      outcome: 9,
      verdictHash: verdict,
    });
    await expectRevert(world.as(OPERATOR).write.settleAsRefund([created.key, 9, verdict]), 'NotSettleable');
    const before = await world.balance(alice);
    await world.mined(world.as(STRANGER).write.refund([created.stake]));
    expect((await world.balance(alice)) - before).toBe(parseEther('1'));
    await expectRevert(world.as(STRANGER).write.refund([created.stake]), 'StakeMismatch');
  });

  test('refundStake gives a refused deposit back to its sender while the market is open, only for judged markets', async () => {
    const created = await world.createJudgedMarket(alice);
    const stray = await world.bet(bob, created.key, NO, parseEther('0.005'));
    await expectRevert(world.as(STRANGER).write.refundStake([stray]), 'NotOperator');
    await expectRevert(world.as(OPERATOR).write.refundStake([{ ...stray, amount: 1n }]), 'StakeMismatch');
    const before = await world.balance(bob);
    await world.mined(world.as(OPERATOR).write.refundStake([stray]));
    expect((await world.balance(bob)) - before).toBe(parseEther('0.005'));
    expect((await world.market(created.key)).pool).toBe(created.stake.amount);
    const round = await world.nextRound(BNB);
    const roundStake = await world.betRound(bob, round, YES, parseEther('0.01'));
    await expectRevert(world.as(OPERATOR).write.refundStake([roundStake]), 'WrongKind');
    const market = await settledMarket();
    await expectRevert(world.as(OPERATOR).write.refundStake([market.bobStake]), 'MarketNotOpen');
  });
});

describe('disputes', () => {
  test('a bettor disputes a pending settlement with exactly the bond: payouts close until the operator answers', async () => {
    const market = await settledMarket();
    const bond = await world.read.disputeBond([market.key]);
    // The larger of the floor and 5 % of the stakes (2 BNB): 0.1 BNB.
    expect(bond).toBe((parseEther('2') * BigInt(DISPUTE_BOND_BPS)) / 10_000n);
    await expectRevert(
      world.as(bob).write.dispute([market.bobStake, ZERO_REF], { value: bond + 1n }),
      'BondMismatch',
      [bond + 1n, bond],
    );
    await expectRevert(
      world.as(carol).write.dispute([market.bobStake, ZERO_REF], { value: bond }),
      'NotStakeOwner',
    );
    await expectRevert(
      world.as(bob).write.dispute([{ ...market.bobStake, amount: 1n }, ZERO_REF], { value: bond }),
      'StakeMismatch',
    );
    const disputedAt = (await world.now()) + 1;
    const { bond: bondStake, disputes, answerBy } = await world.dispute(market.bobStake);
    expect(disputes).toBe(1);
    expect(answerBy).toBe(BigInt(disputedAt + ANSWER_WINDOW));
    expect(bondStake).toMatchObject({ side: 0, amount: bond, owner: address(bob) });
    expect(await world.market(market.key)).toMatchObject({
      state: STATE.Reopened,
      claimableAt: 0,
      pool: parseEther('2') + bond,
    });
    await expectRevert(
      world.as(bob).write.dispute([market.bobStake, ZERO_REF], { value: bond }),
      'NotDisputable',
    );
    await world.travel(PAYOUT_DELAY);
    await expectRevert(
      world.as(STRANGER).write.claim([
        {
          stake: market.aliceStake,
          payout: parseEther('1.98'),
          proof: market.tree.proof(market.aliceStake.stakeId),
        },
      ]),
      'NotClaimable',
    );
    // The answer: bob was right; his stake, his bond and alice's stake less the fee to him.
    const pool = parseEther('2') + bond;
    await world.settleJudged(
      market.key,
      [
        { stakeId: market.bobStake.stakeId, amount: parseEther('1.98') },
        { stakeId: bondStake.stakeId, amount: bond },
      ],
      { outcome: NO },
    );
    expect((await world.market(market.key)).fee).toBe(pool - parseEther('1.98') - bond);
    // A second dispute, by the same owner, is refused; by another bettor it is taken.
    await expectRevert(
      world
        .as(bob)
        .write.dispute([market.bobStake, ZERO_REF], { value: await world.read.disputeBond([market.key]) }),
      'AlreadyDisputed',
    );
    const second = await world.dispute(market.aliceStake);
    expect(second.disputes).toBe(2);
    // The bond does not count toward the next bond.
    expect(await world.read.disputeBond([market.key])).toBe(bond);
  });

  test('only judged markets take disputes; a settlement whose payouts opened cannot be disputed', async () => {
    const round = await world.nextRound(BNB);
    const stake = await world.betRound(alice, round, YES, parseEther('0.01'));
    await expectRevert(
      world.as(alice).write.dispute([stake, ZERO_REF], { value: DISPUTE_BOND_MIN }),
      'WrongKind',
    );
    const market = await settledMarket();
    await world.travel(PAYOUT_DELAY);
    await expectRevert(
      world
        .as(bob)
        .write.dispute([market.bobStake, ZERO_REF], { value: await world.read.disputeBond([market.key]) }),
      'NotDisputable',
    );
  });

  test('a dispute in the last seconds of the window leaves the operator ANSWER_WINDOW to answer, not a void', async () => {
    const market = await closedMarket();
    await world.travelTo(market.closesAt + ESCAPE_DELAY - 2 * PAYOUT_DELAY);
    await world.settleJudged(market.key, [{ stakeId: market.aliceStake.stakeId, amount: parseEther('2') }], {
      delay: HOUR,
    });
    await world.travelTo(market.closesAt + ESCAPE_DELAY - 10);
    const { answerBy } = await world.dispute(market.bobStake);
    expect(await world.read.settleBy([market.key])).toBe(answerBy);
    await world.travelTo(market.closesAt + ESCAPE_DELAY + HOUR);
    await expectRevert(world.as(STRANGER).write.refund([market.aliceStake]), 'NotRefundable');
    await world.settleJudged(market.key, [{ stakeId: market.aliceStake.stakeId, amount: parseEther('2') }]);
    expect((await world.market(market.key)).state).toBe(STATE.Settled);
  });

  test('unanswered past its answer window, a reopened market escapes to refunds', async () => {
    const market = await settledMarket();
    const { answerBy, bond } = await world.dispute(market.bobStake);
    await world.travelTo(
      Number(answerBy > BigInt(market.closesAt + ESCAPE_DELAY) ? answerBy : market.closesAt + ESCAPE_DELAY),
    );
    await expectRevert(
      world.settleJudged(market.key, [
        { stakeId: market.aliceStake.stakeId, amount: parseEther('2') + bond.amount },
      ]),
      'SettlementWindowOver',
    );
    await world.mined(world.as(STRANGER).write.refundMany([[market.aliceStake, market.bobStake, bond]]));
    expect(await world.market(market.key)).toMatchObject({ state: STATE.Refunding, pool: 0n });
  });
});

describe('operator withdrawal and guardian veto', () => {
  test('the operator withdraws a pending settlement: payouts stay closed until its next one lands, late or not', async () => {
    const market = await settledMarket();
    await expectRevert(world.as(STRANGER).write.withdrawSettlement([market.key]), 'NotOperator');
    const receipt = await world.mined(world.as(OPERATOR).write.withdrawSettlement([market.key]));
    expect(
      parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'SettlementWithdrawn' }),
    ).toHaveLength(1);
    expect(await world.market(market.key)).toMatchObject({ state: STATE.Reopened, claimableAt: 0 });
    await world.travel(2 * PAYOUT_DELAY);
    await expectRevert(
      world.as(STRANGER).write.claim([
        {
          stake: market.aliceStake,
          payout: parseEther('1.98'),
          proof: market.tree.proof(market.aliceStake.stakeId),
        },
      ]),
      'NotClaimable',
    );
    await expectRevert(world.as(OPERATOR).write.withdrawSettlement([market.key]), 'NotSettleable');
    // It does not move the window: an operator cannot hold a market past its escape.
    expect(await world.read.settleBy([market.key])).toBe(BigInt(market.closesAt + ESCAPE_DELAY));
    await world.settleJudged(market.key, [{ stakeId: market.bobStake.stakeId, amount: parseEther('2') }], {
      outcome: NO,
    });
  });

  test('the guardian vetoes a judged settlement before its payouts open, never after, never a price kind', async () => {
    const market = await settledMarket();
    await expectRevert(world.as(STRANGER).write.veto([market.key]), 'NotGuardian');
    const receipt = await world.mined(world.as(GUARDIAN).write.veto([market.key]));
    expect(parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Vetoed' })).toHaveLength(1);
    expect((await world.market(market.key)).state).toBe(STATE.Refunding);
    await world.mined(world.as(STRANGER).write.refund([market.bobStake]));
    const late = await settledMarket();
    await world.travel(PAYOUT_DELAY);
    await expectRevert(world.as(GUARDIAN).write.veto([late.key]), 'NotVetoable');
    const round = await world.nextRound(BNB);
    await world.betRound(alice, round, YES, parseEther('0.01'));
    await expectRevert(world.as(GUARDIAN).write.veto([round.key]), 'NotVetoable');
  });
});

describe('pause', () => {
  test('pause stops deposits and judged settlements; disputes, claims, refunds and price settlements go on', async () => {
    const open = await world.createJudgedMarket(alice);
    const pending = await settledMarket();
    const round = await world.nextRound(BNB);
    await world.publish(BNB, 600_00000000n);
    await world.betRound(alice, round, YES, parseEther('0.01'));
    await world.betRound(bob, round, NO, parseEther('0.01'));
    await world.publish(BNB, 600_00000000n, round.lockAt - 5);
    await world.publish(BNB, 601_00000000n, round.closeAt - 5);

    await expectRevert(world.as(STRANGER).write.pause(), 'NotGuardian');
    await world.mined(world.as(GUARDIAN).write.pause());
    expect(await world.read.paused()).toBe(true);
    await expectRevert(world.as(GUARDIAN).write.pause(), 'EnforcedPause');
    await expectRevert(
      world.as(bob).write.bet([open.key, NO, ZERO_REF], { value: parseEther('0.01') }),
      'EnforcedPause',
    );
    await expectRevert(world.as(OPERATOR).write.settleAsRefund([open.key, 9, verdict]), 'EnforcedPause');
    await world.dispute(pending.bobStake);
    await world.travelTo(round.closeAt + 1);
    await world.settleRound(round);
    expect((await world.market(round.key)).state).toBe(STATE.Settled);

    await expectRevert(world.as(GUARDIAN).write.unpause(), 'OwnableUnauthorizedAccount');
    await world.mined(world.as(ADMIN).write.unpause());
    await expectRevert(world.as(ADMIN).write.unpause(), 'ExpectedPause');
    // The owner may pause too.
    await world.mined(world.as(ADMIN).write.pause());
    await world.mined(world.as(ADMIN).write.unpause());
  });
});

describe('money out: batches, credits, excess', () => {
  test('claimMany skips a stake someone already claimed, and refuses to start without gas for every item', async () => {
    const created = await world.createJudgedMarket(alice, { amount: parseEther('1') });
    const carolStake = await world.bet(carol, created.key, YES, parseEther('1'));
    await world.bet(bob, created.key, NO, parseEther('2'));
    await world.travelTo(created.closesAt + 1);
    const { tree } = await world.settleJudged(created.key, [
      { stakeId: created.stake.stakeId, amount: parseEther('2') },
      { stakeId: carolStake.stakeId, amount: parseEther('2') },
    ]);
    await world.travel(PAYOUT_DELAY);
    const claimOf = (stake: StakeRef) => ({
      stake,
      payout: parseEther('2'),
      proof: tree.proof(stake.stakeId),
    });
    // Someone front-runs the batch with one of its claims.
    await world.mined(world.as(carol).write.claim([claimOf(carolStake)]));
    const batch = [claimOf(created.stake), claimOf(carolStake)];
    await expectRevert(world.as(STRANGER).write.claimMany([batch], { gas: 200_000n }), 'InsufficientGas');
    const before = await world.balance(alice);
    await world.mined(world.as(STRANGER).write.claimMany([batch]));
    expect((await world.balance(alice)) - before).toBe(parseEther('2'));
    // A wrong stake in a batch is still an error, not a skip.
    await expectRevert(
      world
        .as(STRANGER)
        .write.claimMany([[{ ...claimOf(carolStake), stake: { ...carolStake, stakeId: 10_000n } }]]),
      'StakeMismatch',
    );
  });

  test('reentry from a payout takes nothing more; a payout its owner refuses becomes a credit it withdraws anywhere', async () => {
    const hostile = await deployHostile();
    const setMode = (mode: number, reentry: Hex = '0x') =>
      world.mined(
        world.walletOf(dave).writeContract({
          address: hostile,
          abi: hostileAccountAbi,
          functionName: 'setMode',
          args: [mode, reentry],
        }),
      );
    /** A market the hostile account wins alone: its settled claim. */
    const wonByHostile = async () => {
      const created = await world.createJudgedMarket(alice, { amount: parseEther('1') });
      const receipt = await world.mined(
        world.walletOf(dave).writeContract({
          address: hostile,
          abi: hostileAccountAbi,
          functionName: 'forward',
          args: [
            encodeFunctionData({
              abi: marketEscrowAbi,
              functionName: 'bet',
              args: [created.key, NO, ZERO_REF],
            }),
          ],
          value: parseEther('1'),
        }),
      );
      const stake = stakeOf(receipt);
      expect(stake.owner).toBe(getAddress(hostile));
      await world.travelTo(created.closesAt + 1);
      const { tree } = await world.settleJudged(
        created.key,
        [{ stakeId: stake.stakeId, amount: parseEther('2') }],
        {
          outcome: NO,
        },
      );
      await world.travel(PAYOUT_DELAY);
      return { stake, payout: parseEther('2'), proof: tree.proof(stake.stakeId) };
    };
    const readHostile = (functionName: 'reentrySucceeded' | 'received') =>
      world.publicClient.readContract({ address: hostile, abi: hostileAccountAbi, functionName });

    const first = await wonByHostile();
    await setMode(4, encodeFunctionData({ abi: marketEscrowAbi, functionName: 'claim', args: [first] }));
    await world.mined(world.as(STRANGER).write.claim([first]));
    expect(await readHostile('reentrySucceeded')).toBe(false);
    expect(await readHostile('received')).toBe(parseEther('2'));
    expect(await world.read.credits([hostile])).toBe(0n);

    const second = await wonByHostile();
    await setMode(2);
    await world.mined(world.as(STRANGER).write.claim([second]));
    expect(await world.read.credits([hostile])).toBe(parseEther('2'));
    await expectRevert(world.as(STRANGER).write.withdraw([address(STRANGER)]), 'NothingToWithdraw');
    // To an address of the owner's choice (here carol's: she pays no gas, so her balance shows it exactly).
    const before = await world.balance(carol);
    await world.mined(
      world.walletOf(dave).writeContract({
        address: hostile,
        abi: hostileAccountAbi,
        functionName: 'forward',
        args: [
          encodeFunctionData({ abi: marketEscrowAbi, functionName: 'withdraw', args: [address(carol)] }),
        ],
      }),
    );
    expect((await world.balance(carol)) - before).toBe(parseEther('2'));
    expect(await world.read.credits([hostile])).toBe(0n);
  });

  test('BNB forced in without a deposit is swept to the treasury, never a stake', async () => {
    await expectRevert(world.as(STRANGER).write.sweepExcess(), 'NoExcess');
    const { forceFeederAbi, forceFeederBytecode } = await import('./attackers.gen.ts');
    await world.mined(
      world.walletOf(STRANGER).sendTransaction({
        data: encodeDeployData({ abi: forceFeederAbi, bytecode: forceFeederBytecode, args: [world.address] }),
        value: parseEther('0.5'),
      }),
    );
    const before = await world.balance(TREASURY);
    await world.mined(world.as(STRANGER).write.sweepExcess());
    expect((await world.balance(TREASURY)) - before).toBe(parseEther('0.5'));
  });
});

describe('roles and settings', () => {
  test('operator and guardian rotate by the admin only; the operator is never the admin, nor the pending one', async () => {
    await expectRevert(
      world.as(STRANGER).write.setOperator([address(STRANGER)]),
      'OwnableUnauthorizedAccount',
    );
    await expectRevert(world.as(ADMIN).write.setOperator([zeroAddress]), 'ZeroAddress');
    await expectRevert(world.as(ADMIN).write.setOperator([address(ADMIN)]), 'OperatorIsAdmin');
    await expectRevert(world.as(ADMIN).write.setGuardian([zeroAddress]), 'ZeroAddress');
    await expectRevert(world.as(ADMIN).write.transferOwnership([address(OPERATOR)]), 'OperatorIsAdmin');
    await world.mined(world.as(ADMIN).write.transferOwnership([address(STRANGER)]));
    await expectRevert(world.as(ADMIN).write.setOperator([address(STRANGER)]), 'OperatorIsAdmin');
    await world.mined(world.as(ADMIN).write.transferOwnership([address(ADMIN)]));
    await world.mined(world.as(ADMIN).write.acceptOwnership());
    await world.mined(world.as(ADMIN).write.setGuardian([address(GUARDIAN)]));
    await world.mined(world.as(ADMIN).write.setOperator([address(OPERATOR)]));
    await expectRevert(world.read.renounceOwnership({ account: address(ADMIN) }), 'RenounceDisabled');
    await expectRevert(world.as(ADMIN).write.setMinPayoutDelay([59]), 'DelayOutOfBounds');
    await world.mined(world.as(ADMIN).write.setMinPayoutDelay([PAYOUT_DELAY]));
  });

  test('the constructor refuses a zero treasury, bonds and fees out of bounds, no feeds or a feed without code', async () => {
    const feeds = [world.feeds[0]?.proxy ?? zeroAddress];
    const base = {
      admin: address(ADMIN),
      operator: address(OPERATOR),
      guardian: address(GUARDIAN),
      treasury: address(TREASURY),
      settlementCapacity: parseEther('10'),
      settlementRefillPerHour: parseEther('1'),
      minPayoutDelay: PAYOUT_DELAY,
      disputeBondMin: DISPUTE_BOND_MIN,
      disputeBondBps: DISPUTE_BOND_BPS,
      roundFeeBps: 300,
      priceMarketFeeBps: 300,
      maxPriceAge: 120,
      feeds,
    };
    const deployError = async (config: typeof base) => {
      const data = encodeDeployData({ abi: marketEscrowAbi, bytecode: marketEscrowBytecode, args: [config] });
      const error = await world.publicClient.call({ account: address(ADMIN), data }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      const revert = /return data: (0x[0-9a-f]+)/.exec(String((error as Error | undefined)?.message))?.[1];
      if (!revert) throw new Error('the deployment did not revert');
      return decodeErrorResult({ abi: marketEscrowAbi, data: revert as Hex }).errorName;
    };
    expect(await deployError({ ...base, treasury: zeroAddress })).toBe('ZeroAddress');
    expect(await deployError({ ...base, disputeBondMin: 1n })).toBe('BadConfig');
    expect(await deployError({ ...base, disputeBondBps: 2001 })).toBe('BadConfig');
    expect(await deployError({ ...base, roundFeeBps: 1001 })).toBe('BadConfig');
    expect(await deployError({ ...base, priceMarketFeeBps: 1001 })).toBe('BadConfig');
    expect(await deployError({ ...base, maxPriceAge: 5 })).toBe('BadConfig');
    expect(await deployError({ ...base, feeds: [] })).toBe('BadConfig');
    expect(await deployError({ ...base, feeds: [address(STRANGER)] })).toBe('BadConfig');
    expect(await deployError({ ...base, operator: address(ADMIN) })).toBe('OperatorIsAdmin');
    expect(await deployError({ ...base, settlementRefillPerHour: 0n })).toBe('LimitOutOfBounds');
    expect(await deployError({ ...base, minPayoutDelay: 0 })).toBe('DelayOutOfBounds');
  });
});

async function deployHostile(): Promise<Address> {
  const receipt = await world.mined(
    world
      .walletOf(dave)
      .deployContract({ abi: hostileAccountAbi, bytecode: hostileAccountBytecode, args: [world.address] }),
  );
  if (!receipt.contractAddress) throw new Error('no contract');
  return receipt.contractAddress;
}

import {
  BaseError,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { marketEscrowAbi } from '../src/market-escrow.gen.ts';
import { createdMarketKey } from '../src/market-escrow-keys.ts';
import { buildPayoutTree } from '../src/payout-tree.ts';
import {
  gasBurnerAbi,
  gasBurnerBytecode,
  hostileAccountAbi,
  hostileAccountBytecode,
} from './attackers.gen.ts';
import { devAccount } from './chain-clients.ts';
import { createFeedPhases, type FeedPhases, roundIdOf } from './market-escrow-feeds.ts';
import {
  ADMIN,
  ANSWER_WINDOW,
  BETTORS,
  BNB,
  BTC,
  createMarketEscrowWorld,
  ESCAPE_DELAY,
  expectRevert,
  GUARDIAN,
  HOUR,
  MAX_PRICE_AGE,
  type MarketEscrowWorld,
  MINUTE,
  NO,
  OPERATOR,
  PAYOUT_DELAY,
  REFUND,
  refOf,
  STATE,
  STRANGER,
  type StakeRef,
  stakeOf,
  TREASURY,
  YES,
} from './market-escrow-world.ts';

// The attacks the third security review found against decision 025's escrow, and the new ones a
// contract that settles price kinds itself invites, each tried against MarketEscrow on a real node
// (docs/decisions/031-an-escrow-that-knows-what-it-settles.md): each fails for the attacker.
// docs/security.md maps them to the review's findings.

let world: MarketEscrowWorld;
let feeds: FeedPhases;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
  feeds = createFeedPhases(world);
});
afterAll(() => world?.stop());

const [alice, bob, carol, dave, relayer, thief, griefer, twiceLucky, , delegated] = BETTORS;
const address = (index: number) => devAccount(index).address;
const balanceOf = (index: number) => world.balance(index);
const verdict = keccak256(toHex('verdict'));
const usd = (dollars: number) => BigInt(Math.round(dollars * 100)) * 1_000_000n;
const isOpen = async (stake: StakeRef) => (await world.read.stakes([stake.stakeId])) !== zeroHash;

/** A round of BNB, bet on as `bets` says, its lock and close priced `lockPrice` → `closePrice`, closed. */
async function playedRound(
  lockPrice: bigint,
  closePrice: bigint,
  bets: Array<[bettor: number, side: number, amount: bigint]>,
) {
  const round = await world.nextRound(BNB);
  await feeds.publish(BNB, usd(600));
  const stakes: StakeRef[] = [];
  for (const [bettor, side, amount] of bets) stakes.push(await world.betRound(bettor, round, side, amount));
  await feeds.publish(BNB, lockPrice, round.lockAt - 10);
  await feeds.publish(BNB, closePrice, round.closeAt - 5);
  await world.travelTo(round.closeAt + 1);
  return { round, stakes };
}

/** A judged market with alice YES 1 and bob NO 1, past its close. */
async function closedJudgedMarket() {
  const created = await world.createJudgedMarket(alice, { amount: parseEther('1') });
  const no = await world.bet(bob, created.key, NO, parseEther('1'));
  await world.travelTo(created.closesAt + 1);
  return { ...created, yes: created.stake, no };
}

const TxHashSchema = z.object({ data: z.object({ txHash: z.string().regex(/^0x[0-9a-f]{64}$/) }) });

/**
 * Sends `data` to the escrow as `from` with exactly `gas`, no estimate, as a careless relayer would,
 * and answers its receipt (Hardhat mines a reverting transaction but answers the send with an error
 * that names its hash).
 */
async function sendWithGas(from: number, data: Hex, gas: bigint) {
  const hash = await world
    .walletOf(from)
    .sendTransaction({ to: world.address, data, gas })
    .catch((error: unknown) => {
      const mined =
        error instanceof BaseError ? error.walk((cause) => TxHashSchema.safeParse(cause).success) : null;
      const parsed = TxHashSchema.safeParse(mined);
      if (!parsed.success) throw error;
      return `0x${parsed.data.data.txHash.slice(2)}` as Hash;
    });
  return world.publicClient.waitForTransactionReceipt({ hash });
}

/**
 * The server's operator sender's gas limit: a simulation and an estimate from a plain address (no fee
 * fields, so the node runs them at a base fee of 0), signed at the estimate + 20 %.
 */
async function operatorSenderLimit(from: number, data: Hex): Promise<bigint> {
  await world.publicClient.call({ account: address(from), to: world.address, data });
  const estimate = await world.publicClient.estimateGas({ account: address(from), to: world.address, data });
  return (estimate * 120n + 99n) / 100n;
}

/**
 * The least a transaction with `data` is charged besides its execution: 21,000 and its calldata
 * (EIP-2028), but never below Prague's calldata floor (EIP-7623), which a call that does little pays.
 */
function chargedAtLeast(data: Hex, execution: bigint): bigint {
  let zeros = 0n;
  let others = 0n;
  for (let i = 2; i < data.length; i += 2) {
    if (data.slice(i, i + 2) === '00') zeros += 1n;
    else others += 1n;
  }
  const standard = 21_000n + 4n * zeros + 16n * others + execution;
  const floor = 21_000n + 10n * (zeros + 4n * others);
  return standard > floor ? standard : floor;
}

/** A contract bettor (HostileAccount) its controller drives: bets, disputes and withdrawals go through it. */
async function deployHostile(controller: number) {
  const receipt = await world.mined(
    world.walletOf(controller).deployContract({
      abi: hostileAccountAbi,
      bytecode: hostileAccountBytecode,
      args: [world.address],
    }),
  );
  if (!receipt.contractAddress) throw new Error('no hostile account');
  const hostile = getAddress(receipt.contractAddress);
  return {
    address: hostile,
    setMode: (mode: number) =>
      world.mined(
        world.walletOf(controller).writeContract({
          address: hostile,
          abi: hostileAccountAbi,
          functionName: 'setMode',
          args: [mode, '0x'],
        }),
      ),
    forward: (data: Hex, value = 0n) =>
      world.mined(
        world.walletOf(controller).writeContract({
          address: hostile,
          abi: hostileAccountAbi,
          functionName: 'forward',
          args: [data],
          value,
        }),
      ),
  };
}
const BURN_GAS = 1;

/** Delegates `index`'s EOA (EIP-7702) to code that burns its gas when paid, except under an estimate. */
async function delegateToBurner(index: number) {
  const burner = await world.mined(
    world.walletOf(carol).deployContract({ abi: gasBurnerAbi, bytecode: gasBurnerBytecode }),
  );
  if (!burner.contractAddress) throw new Error('no burner');
  const authorization = await world
    .walletOf(index)
    .signAuthorization({ account: devAccount(index), contractAddress: burner.contractAddress });
  await world.mined(
    world.walletOf(carol).sendTransaction({ to: address(carol), authorizationList: [authorization] }),
  );
  expect(await world.publicClient.getCode({ address: address(index) })).toBe(
    `0xef0100${burner.contractAddress.slice(2).toLowerCase()}`,
  );
}

describe('a griefer against a settled round', () => {
  test('cannot send it back: a dispute, a bet into it or a second settlement is refused, and its winners are paid at once', async () => {
    const { round, stakes } = await playedRound(usd(600), usd(601), [
      [alice, YES, parseEther('1')],
      [griefer, NO, parseEther('1')],
    ]);
    const [up, down] = stakes;
    if (!up || !down) throw new Error('two stakes');
    await world.settleRound(round, STRANGER);
    const settled = await world.market(round.key);
    expect(settled).toMatchObject({ state: STATE.Settled, outcome: YES });
    // Payouts open in the settlement's own block: there is no pending window to reach.
    expect(settled.claimableAt).toBe(await world.now());

    // The loser, an owner of an open stake of the round, tries every way to reopen it.
    await expectRevert(
      world.as(griefer).write.dispute([down, refOf(griefer)], { value: parseEther('1') }),
      'WrongKind',
    );
    await expectRevert(
      world.as(griefer).write.bet([round.key, NO, refOf(griefer)], { value: parseEther('0.1') }),
      'MarketNotOpen',
    );
    await expectRevert(
      world.as(griefer).write.betRound([round.coin, round.lockAt, round.closeAt, NO, refOf(griefer)], {
        value: parseEther('0.1'),
      }),
      'MarketNotOpen',
    );
    const lock = world.roundAt(BNB, round.lockAt);
    const close = world.roundAt(BNB, round.closeAt);
    await expectRevert(
      world.as(griefer).write.settleRound([round.key, lock.roundId, close.roundId]),
      'NotSettleable',
    );
    await expectRevert(
      world.as(OPERATOR).write.settleAsRefund([round.key, REFUND.draw, verdict]),
      'WrongKind',
    );

    const before = await balanceOf(alice);
    await world.mined(world.as(relayer).write.claim([world.priceClaim(up)]));
    const pool = parseEther('2');
    expect((await balanceOf(alice)) - before).toBe(pool - (pool * 300n) / 10_000n);
  });
});

describe('a market created under a round’s terms', () => {
  test('lands under its creator’s own key: the round’s pool, settlement and payouts are untouched', async () => {
    const round = await world.nextRound(BNB);
    await feeds.publish(BNB, usd(600));
    const up = await world.betRound(alice, round, YES, parseEther('1'));
    await world.betRound(bob, round, NO, parseEther('1'));
    // The attacker creates a judged market and a price market with the round's key as their id and
    // its lock as their close: each is another market, in its own kind's key space.
    const ref = refOf(thief);
    await world.mined(
      world
        .as(thief)
        .write.createJudgedMarket([round.key, round.lockAt, keccak256(toHex('squat')), NO, ref], {
          value: parseEther('0.01'),
        }),
    );
    await world.mined(
      world.as(thief).write.createPriceMarket([round.key, BNB, usd(600), true, round.lockAt, NO, ref], {
        value: parseEther('0.01'),
      }),
    );
    const judgedKey = createdMarketKey('judged', address(thief), round.key);
    const priceKey = createdMarketKey('priceMarket', address(thief), round.key);
    expect(new Set([round.key, judgedKey, priceKey]).size).toBe(3);
    expect((await world.market(judgedKey)).pool).toBe(parseEther('0.01'));
    expect((await world.market(round.key)).pool).toBe(parseEther('2'));

    await feeds.publish(BNB, usd(600), round.lockAt - 10);
    await feeds.publish(BNB, usd(650), round.closeAt - 5);
    await world.travelTo(round.closeAt + 1);
    await world.settleRound(round);
    expect(await world.market(round.key)).toMatchObject({
      state: STATE.Settled,
      outcome: YES,
      pool: parseEther('2'),
    });
    const before = await balanceOf(alice);
    await world.mined(world.as(relayer).write.claim([world.priceClaim(up)]));
    expect((await balanceOf(alice)) - before).toBe(parseEther('2') - parseEther('0.06'));
  });
});

describe('a winner whose code burns the gas of its payout, in a relayed batch', () => {
  test('an EIP-7702 burner cheap under the estimate cannot make the operator sender’s claimMany revert: its 40 stakes are credited once, within the batch’s cap', async () => {
    await delegateToBurner(delegated);
    const round = await world.nextRound(BNB);
    await feeds.publish(BNB, usd(600));
    const stakes: StakeRef[] = [];
    for (let i = 0; i < 40; i += 1)
      stakes.push(await world.betRound(delegated, round, YES, parseEther('0.01')));
    await world.betRound(alice, round, NO, parseEther('0.4'));
    await feeds.publish(BNB, usd(600), round.lockAt - 10);
    await feeds.publish(BNB, usd(601), round.closeAt - 5);
    await world.travelTo(round.closeAt + 1);
    await world.settleRound(round);

    const data = encodeFunctionData({
      abi: marketEscrowAbi,
      functionName: 'claimMany',
      args: [stakes.map(world.priceClaim)],
    });
    const itemGas = await world.read.BATCH_ITEM_GAS();
    // A blind relayer's limit below the batch's worst case fails before any work, for little gas.
    const blind = await sendWithGas(relayer, data, 40n * itemGas);
    expect(blind.status).toBe('reverted');
    expect(blind.gasUsed).toBeLessThanOrEqual(chargedAtLeast(data, 10_000n));
    for (const stake of stakes) expect(await isOpen(stake)).toBe(true);

    // The operator sender's own rule (an estimate at a base fee of 0, where the burner is cheap).
    const limit = await operatorSenderLimit(relayer, data);
    const receipt = await sendWithGas(relayer, data, limit);
    expect(receipt.status).toBe('success');
    const credited = parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Credited' });
    expect(credited).toHaveLength(40);
    for (const stake of stakes) expect(await isOpen(stake)).toBe(false);
    const share = (parseEther('0.8') * 9_700n) / 10_000n / 40n;
    expect(await world.read.credits([address(delegated)])).toBe(40n * share);
    // No more than the cap per item: what a burner takes is bounded by the batch's own check.
    expect(receipt.gasUsed).toBeLessThanOrEqual(chargedAtLeast(data, 40n * itemGas));

    // The same batch again pays nothing and reverts nothing: every stake is spent, so skipped.
    const again = await world.mined(world.as(relayer).write.claimMany([stakes.map(world.priceClaim)]));
    expect(parseEventLogs({ abi: marketEscrowAbi, logs: again.logs, eventName: 'Claimed' })).toHaveLength(0);
    // The credit is withdrawn to another of its owner's addresses (its own burns what it is sent).
    const before = await balanceOf(bob);
    await world.mined(world.as(delegated).write.withdraw([address(bob)]));
    expect((await balanceOf(bob)) - before).toBe(40n * share);
  });

  test('an EIP-7702 burner’s first wins in two rounds, batched and sent at the node’s own estimate, are credited, not reverted', async () => {
    await delegateToBurner(twiceLucky);
    const wins: StakeRef[] = [];
    for (const closePrice of [usd(601), usd(602)]) {
      const { round, stakes } = await playedRound(usd(600), closePrice, [
        [twiceLucky, YES, parseEther('0.01')],
        [bob, NO, parseEther('0.01')],
      ]);
      await world.settleRound(round);
      const [win] = stakes;
      if (!win) throw new Error('a win');
      wins.push(win);
    }
    // Each item is its round's first claim and the burner's first credit: the most an item does
    // before its push. The estimate runs at a base fee of 0, where the burner returns at once.
    const data = encodeFunctionData({
      abi: marketEscrowAbi,
      functionName: 'claimMany',
      args: [wins.map(world.priceClaim)],
    });
    const estimate = await world.publicClient.estimateGas({
      account: address(relayer),
      to: world.address,
      data,
    });
    const receipt = await sendWithGas(relayer, data, estimate);
    expect(
      receipt.status,
      `claimMany at its estimate (${estimate} gas) ${receipt.status} after ${receipt.gasUsed}`,
    ).toBe('success');
    expect(parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Credited' })).toHaveLength(
      2,
    );
  });

  test('a contract that burns every gas it is sent, batched with honest winners, costs the batch one capped push and is credited; the others are paid', async () => {
    const hostile = await deployHostile(dave);
    await hostile.setMode(BURN_GAS);
    const created = await world.createJudgedMarket(alice, { amount: parseEther('1') });
    const hostileStake = stakeOf(
      await hostile.forward(
        encodeFunctionData({ abi: marketEscrowAbi, functionName: 'bet', args: [created.key, YES, zeroHash] }),
        parseEther('1'),
      ),
    );
    const carolStake = await world.bet(carol, created.key, YES, parseEther('1'));
    await world.bet(bob, created.key, NO, parseEther('0.3'));
    await world.travelTo(created.closesAt + 1);
    const payouts = [created.stake, hostileStake, carolStake].map((stake) => ({
      stakeId: stake.stakeId,
      amount: parseEther('1.1'),
    }));
    const { tree } = await world.settleJudged(created.key, payouts);
    await world.travel(PAYOUT_DELAY);
    const claims = [created.stake, hostileStake, carolStake].map((stake) => ({
      stake,
      payout: parseEther('1.1'),
      proof: tree.proof(stake.stakeId),
    }));
    const data = encodeFunctionData({ abi: marketEscrowAbi, functionName: 'claimMany', args: [claims] });
    const [aliceBefore, carolBefore] = [await balanceOf(alice), await balanceOf(carol)];
    const receipt = await sendWithGas(relayer, data, await operatorSenderLimit(relayer, data));
    expect(receipt.status).toBe('success');
    expect((await balanceOf(alice)) - aliceBefore).toBe(parseEther('1.1'));
    expect((await balanceOf(carol)) - carolBefore).toBe(parseEther('1.1'));
    expect(await world.read.credits([hostile.address])).toBe(parseEther('1.1'));
    expect(parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Credited' })).toHaveLength(
      1,
    );
    expect(receipt.gasUsed).toBeLessThanOrEqual(
      chargedAtLeast(data, 3n * (await world.read.BATCH_ITEM_GAS())),
    );
  });
});

describe('disputes of a judged market', () => {
  test('a stranger cannot dispute at all and a bettor only once, so no budget runs out: the honest loser still stops a wrong verdict', async () => {
    const created = await world.createJudgedMarket(alice, { amount: parseEther('1') });
    const no = await world.bet(bob, created.key, NO, parseEther('1'));
    // Griefers who hold a small stake each (so are bettors of the market), and a thief who holds none.
    const griefers: Array<[number, StakeRef]> = [];
    for (const index of [griefer, carol, dave]) {
      griefers.push([index, await world.bet(index, created.key, YES, parseEther('0.005'))]);
    }
    const market = { ...created, yes: created.stake, no };
    await world.travelTo(market.closesAt + 1);
    // A wrong verdict, YES, pending for its hour of review.
    const wrong = [{ stakeId: market.yes.stakeId, amount: parseEther('2.015') }];
    const { tree } = await world.settleJudged(market.key, wrong, { delay: HOUR });
    const bond = await world.read.disputeBond([market.key]);

    await expectRevert(
      world.as(thief).write.dispute([market.no, refOf(thief)], { value: bond }),
      'NotStakeOwner',
    );
    await expectRevert(
      world.as(thief).write.dispute([{ ...market.no, owner: address(thief) }, refOf(thief)], { value: bond }),
      'StakeMismatch',
    );
    // Each griefer disputes: a bettor may, once. Each time the operator refuses the bond and posts the
    // same verdict again, and no griefer can dispute a second time.
    for (const [at, [index, stake]] of griefers.entries()) {
      const { bond: refused, disputes } = await world.dispute(stake);
      expect(disputes).toBe(at + 1);
      await world.mined(world.as(OPERATOR).write.refundStake([refused]));
      await world.settleJudged(market.key, wrong, { delay: HOUR });
      const again = await world.read.disputeBond([market.key]);
      await expectRevert(
        world.as(index).write.dispute([stake, zeroHash], { value: again }),
        'AlreadyDisputed',
      );
    }
    // The three disputes that exhausted the old contract's budget leave the honest loser his own: payouts
    // of the wrong verdict stay closed.
    const second = await world.dispute(market.no);
    expect(second.disputes).toBe(4);
    expect(await world.market(market.key)).toMatchObject({ state: STATE.Reopened, claimableAt: 0 });
    await world.travel(2 * HOUR);
    await expectRevert(
      world
        .as(relayer)
        .write.claim([
          { stake: market.yes, payout: parseEther('2.015'), proof: tree.proof(market.yes.stakeId) },
        ]),
      'NotClaimable',
    );
    // The operator answers with the right verdict: bob takes the pool with his bond back.
    const { pool } = await world.market(market.key);
    const right = [
      { stakeId: market.no.stakeId, amount: pool - second.bond.amount },
      { stakeId: second.bond.stakeId, amount: second.bond.amount },
    ];
    const answer = await world.settleJudged(market.key, right, { outcome: NO });
    await world.travel(PAYOUT_DELAY);
    const before = await balanceOf(bob);
    await world.mined(
      world.as(relayer).write.claimMany([
        right.map((payout, index) => ({
          stake: index === 0 ? market.no : second.bond,
          payout: payout.amount,
          proof: answer.tree.proof(payout.stakeId),
        })),
      ]),
    );
    expect((await balanceOf(bob)) - before).toBe(pool);
  });

  test('a loser’s bond above the dispute bond is refused, and the exact bond never counts on the bucket: the confirmed verdict settles with the bucket empty', async () => {
    const market = await closedJudgedMarket();
    await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('2'), parseEther('0.1')]));
    try {
      const payouts = [{ stakeId: market.yes.stakeId, amount: parseEther('2') }];
      await world.settleJudged(market.key, payouts, { delay: HOUR });
      // The settlement drew the whole bucket.
      expect(await world.read.settlementAllowance()).toBeLessThan(parseEther('0.01'));
      const bond = await world.read.disputeBond([market.key]);
      expect(bond).toBe(parseEther('0.1'));
      for (const value of [parseEther('5'), bond + 1n, bond - 1n]) {
        await expectRevert(world.as(bob).write.dispute([market.no, refOf(bob)], { value }), 'BondMismatch', [
          value,
          bond,
        ]);
      }
      const { bond: bondStake } = await world.dispute(market.no);
      // Reviewed and confirmed: the bond is forfeited to the winner, a total of 2.1 BNB, which draws
      // nothing on the bucket beyond the first settlement's 2 BNB.
      const confirmed = [{ stakeId: market.yes.stakeId, amount: parseEther('2') + bond }];
      const { tree } = await world.settleJudged(market.key, confirmed);
      expect(await world.read.judgements([market.key])).toMatchObject([
        expect.anything(),
        tree.root,
        expect.anything(),
        bond,
        parseEther('2'),
        expect.anything(),
        1,
      ]);
      await world.travel(PAYOUT_DELAY);
      await expectRevert(world.as(bob).write.refund([bondStake]), 'NotRefundable');
      const before = await balanceOf(alice);
      await world.mined(
        world
          .as(relayer)
          .write.claim([
            { stake: market.yes, payout: parseEther('2') + bond, proof: tree.proof(market.yes.stakeId) },
          ]),
      );
      expect((await balanceOf(alice)) - before).toBe(parseEther('2') + bond);
    } finally {
      await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('100'), parseEther('100')]));
    }
  });

  test('a dispute in the settlement window’s last seconds buys no void: the operator answers after the window, and the escape waits for it', async () => {
    const market = await closedJudgedMarket();
    const deadline = market.closesAt + ESCAPE_DELAY;
    // A settlement posted late, its hour of review spanning the deadline.
    await world.travelTo(deadline - 30 * MINUTE);
    const payouts = [{ stakeId: market.yes.stakeId, amount: parseEther('2') }];
    await world.settleJudged(market.key, payouts, { delay: HOUR });
    await world.testClient.setNextBlockTimestamp({ timestamp: BigInt(deadline - 10) });
    const { bond, answerBy } = await world.dispute(market.no);
    expect(Number(answerBy)).toBe(deadline - 10 + ANSWER_WINDOW);
    expect(Number(await world.read.settleBy([market.key]))).toBe(Number(answerBy));
    await world.travelTo(deadline + 20);
    // Past the first deadline, the loser cannot take its stake and bond back: an answer is due.
    await expectRevert(world.as(bob).write.refundMany([[market.no, bond]]), 'NotRefundable');
    await expectRevert(world.as(STRANGER).write.refund([market.yes]), 'NotRefundable');
    // The operator answers within the answer window: the verdict confirmed, the bond forfeited.
    const confirmed = [{ stakeId: market.yes.stakeId, amount: parseEther('2') + bond.amount }];
    const { tree } = await world.settleJudged(market.key, confirmed);
    await world.travel(PAYOUT_DELAY);
    const before = await balanceOf(alice);
    await world.mined(
      world
        .as(relayer)
        .write.claim([
          { stake: market.yes, payout: parseEther('2') + bond.amount, proof: tree.proof(market.yes.stakeId) },
        ]),
    );
    expect((await balanceOf(alice)) - before).toBe(parseEther('2') + bond.amount);
  });
});

describe('an operator’s overturn in review', () => {
  test('withdraws the overturned verdict with the bucket empty: it never pays, and the answer draws nothing more', async () => {
    await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('5'), parseEther('0.1')]));
    try {
      const market = await closedJudgedMarket();
      const busy = await world.createJudgedMarket(carol, { amount: parseEther('3') });
      await world.travelTo(busy.closesAt + 1);
      // The judge proposes YES, pending for an hour; other settlements of the hour empty the bucket.
      const proposed = [{ stakeId: market.yes.stakeId, amount: parseEther('2') }];
      const { tree } = await world.settleJudged(market.key, proposed, { delay: HOUR });
      await world.settleJudged(busy.key, [{ stakeId: busy.stake.stakeId, amount: parseEther('3') }]);
      expect(await world.read.settlementAllowance()).toBeLessThan(parseEther('0.01'));
      // An amendment to NO for the same total draws nothing: it lands with the bucket empty.
      const overturned = buildPayoutTree([{ stakeId: market.no.stakeId, amount: parseEther('2') }]);
      await world.mined(
        world
          .as(OPERATOR)
          .write.settle([market.key, NO, verdict, overturned.root, parseEther('2'), 0n, HOUR]),
      );
      // Or the operator withdraws the settlement outright, which needs no bucket at all.
      await world.mined(world.as(OPERATOR).write.withdrawSettlement([market.key]));
      const { claimableAt } = await world.market(market.key);
      expect(claimableAt).toBe(0);
      // Past the proposal's review window, its YES cannot pay.
      await world.travel(2 * HOUR);
      await expectRevert(
        world
          .as(relayer)
          .write.claim([
            { stake: market.yes, payout: parseEther('2'), proof: tree.proof(market.yes.stakeId) },
          ]),
        'NotClaimable',
      );
      // The answer, however late in the window, settles without the bucket's room.
      expect(await world.read.settlementAllowance()).toBeLessThan(parseEther('2'));
      await world.mined(
        world
          .as(OPERATOR)
          .write.settle([market.key, NO, verdict, overturned.root, parseEther('2'), 0n, PAYOUT_DELAY]),
      );
      await world.travel(PAYOUT_DELAY);
      const before = await balanceOf(bob);
      await world.mined(
        world
          .as(relayer)
          .write.claim([
            { stake: market.no, payout: parseEther('2'), proof: overturned.proof(market.no.stakeId) },
          ]),
      );
      expect((await balanceOf(bob)) - before).toBe(parseEther('2'));
    } finally {
      await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('100'), parseEther('100')]));
    }
  });
});

describe('a third party spending one stake of a pending batch', () => {
  test('makes the batch skip it, not revert: claimMany and refundMany pay every other stake once', async () => {
    const { round, stakes } = await playedRound(usd(600), usd(610), [
      ...Array.from({ length: 5 }, () => [alice, YES, parseEther('0.1')] as [number, number, bigint]),
      [bob, NO, parseEther('0.5')],
    ]);
    await world.settleRound(round);
    const winners = stakes.slice(0, 5);
    const claims = winners.map(world.priceClaim);
    const data = encodeFunctionData({ abi: marketEscrowAbi, functionName: 'claimMany', args: [claims] });
    const limit = await operatorSenderLimit(relayer, data);
    // Someone claims the batch's last stake first (it pays alice).
    const last = claims[4];
    if (!last) throw new Error('five claims');
    await world.mined(world.as(thief).write.claim([last]));
    const before = await balanceOf(alice);
    const receipt = await sendWithGas(relayer, data, limit);
    expect(receipt.status).toBe('success');
    const paid = parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Claimed' });
    expect(paid.map((event) => event.args.stakeId)).toEqual(
      winners.slice(0, 4).map((stake) => stake.stakeId),
    );
    const each = await world.read.pricePayout([round.key, YES, parseEther('0.1')]);
    expect((await balanceOf(alice)) - before).toBe(4n * each);

    // The same with refunds of a drawn round.
    const drawn = await playedRound(usd(600), usd(600), [
      [alice, YES, parseEther('0.1')],
      [carol, YES, parseEther('0.1')],
      [bob, NO, parseEther('0.1')],
    ]);
    await world.settleRound(drawn.round);
    const [first, second, third] = drawn.stakes;
    if (!first || !second || !third) throw new Error('three stakes');
    await world.mined(world.as(thief).write.refund([second]));
    const refunds = await world.mined(world.as(relayer).write.refundMany([[first, second, third, second]]));
    const refunded = parseEventLogs({ abi: marketEscrowAbi, logs: refunds.logs, eventName: 'Refunded' });
    expect(refunded.map((event) => event.args.stakeId)).toEqual([first.stakeId, third.stakeId]);
  });
});

describe('a front-runner copying a creation', () => {
  test('lands under its own key with the victim’s id and close; the victim’s creation goes through under its own', async () => {
    const id = keccak256(toHex('market:4242'));
    const closesAt = (await world.now()) + HOUR;
    const contentHash = keccak256(toHex('the victim’s question'));
    // The front-runner sends the victim's pending creation first, with the same id and close.
    await world.mined(
      world
        .as(thief)
        .write.createJudgedMarket([id, closesAt, keccak256(toHex('another question')), YES, zeroHash], {
          value: parseEther('0.005'),
        }),
    );
    await world.mined(
      world.as(alice).write.createJudgedMarket([id, closesAt, contentHash, YES, zeroHash], {
        value: parseEther('0.005'),
      }),
    );
    const victim = createdMarketKey('judged', address(alice), id);
    expect(victim).not.toBe(createdMarketKey('judged', address(thief), id));
    expect((await world.read.judgements([victim]))[0]).toBe(contentHash);
    // The same for a price market's terms.
    await world.mined(
      world.as(thief).write.createPriceMarket([id, BTC, usd(1), false, closesAt, YES, zeroHash], {
        value: parseEther('0.005'),
      }),
    );
    await world.mined(
      world.as(alice).write.createPriceMarket([id, BTC, usd(100_000), true, closesAt, YES, zeroHash], {
        value: parseEther('0.005'),
      }),
    );
    expect(await world.read.priceTerms([createdMarketKey('priceMarket', address(alice), id)])).toEqual([
      usd(100_000),
      closesAt,
      true,
    ]);
  });
});

describe('dust deposits', () => {
  test('are refused: below 0.005 BNB into a market or its creation, below 0.01 BNB into a round, and any bond but the exact one', async () => {
    const market = await world.createJudgedMarket(alice, { amount: parseEther('0.005') });
    await expectRevert(
      world.as(thief).write.bet([market.key, YES, zeroHash], { value: 1n }),
      'BelowMinimum',
      [1n, parseEther('0.005')],
    );
    await expectRevert(
      world
        .as(thief)
        .write.createJudgedMarket([keccak256(toHex('dust')), market.closesAt, zeroHash, YES, zeroHash], {
          value: parseEther('0.005') - 1n,
        }),
      'BelowMinimum',
    );
    const price = await world.createPriceMarket(alice, { target: usd(100_000), amount: parseEther('0.005') });
    await expectRevert(world.as(thief).write.bet([price.key, NO, zeroHash], { value: 1n }), 'BelowMinimum');
    const round = await world.nextRound(BNB);
    for (const value of [1n, parseEther('0.005'), parseEther('0.01') - 1n]) {
      await expectRevert(
        world.as(thief).write.betRound([round.coin, round.lockAt, round.closeAt, YES, zeroHash], { value }),
        'BelowMinimum',
        [value, parseEther('0.01')],
      );
    }
    // A pending settlement's dispute takes the exact bond only: no dust bond, no oversized one.
    await world.bet(thief, market.key, NO, parseEther('0.005'));
    await world.travelTo(market.closesAt + 1);
    await world.settleJudged(market.key, [{ stakeId: market.stake.stakeId, amount: parseEther('0.01') }]);
    await expectRevert(
      world.as(alice).write.dispute([market.stake, zeroHash], { value: 1n }),
      'BondMismatch',
    );
  });
});

describe('the operator key', () => {
  test('never becomes the admin: a transfer of ownership to it is refused, and neither the admin nor the pending admin can be made operator', async () => {
    await expectRevert(world.as(ADMIN).write.transferOwnership([address(OPERATOR)]), 'OperatorIsAdmin');
    await world.mined(world.as(ADMIN).write.transferOwnership([address(carol)]));
    expect(await world.read.pendingOwner()).toBe(address(carol));
    await expectRevert(world.as(ADMIN).write.setOperator([address(carol)]), 'OperatorIsAdmin');
    await expectRevert(world.as(ADMIN).write.setOperator([address(ADMIN)]), 'OperatorIsAdmin');
    await expectRevert(
      world.publicClient.readContract({
        address: world.address,
        abi: marketEscrowAbi,
        functionName: 'renounceOwnership',
        account: address(ADMIN),
      }),
      'RenounceDisabled',
    );
    // The admin cancels the transfer: nothing changed.
    await world.mined(world.as(ADMIN).write.transferOwnership([zeroAddress]));
    expect(await world.read.owner()).toBe(address(ADMIN));
    expect(await world.read.operator()).toBe(address(OPERATOR));
  });

  test('cannot decide a price kind: settle, settleAsRefund, withdrawSettlement and refundStake revert, and no key vetoes one', async () => {
    const { round, stakes } = await playedRound(usd(600), usd(590), [
      [alice, YES, parseEther('1')],
      [bob, NO, parseEther('1')],
    ]);
    const price = await world.createPriceMarket(alice, { target: usd(100_000), closesIn: 10 * MINUTE });
    await feeds.publish(BTC, usd(100_001), price.closesAt - 30);
    await world.travelTo(price.closesAt + 1);
    const [up] = stakes;
    if (!up) throw new Error('a stake');
    const root = buildPayoutTree([{ stakeId: up.stakeId, amount: parseEther('2') }]).root;
    const tryAll = async () => {
      for (const key of [round.key, price.key]) {
        await expectRevert(
          world.as(OPERATOR).write.settle([key, YES, verdict, root, parseEther('2'), 0n, PAYOUT_DELAY]),
          'WrongKind',
        );
        await expectRevert(world.as(OPERATOR).write.settleAsRefund([key, REFUND.draw, verdict]), 'WrongKind');
        await expectRevert(world.as(OPERATOR).write.withdrawSettlement([key]), 'WrongKind');
        await expectRevert(world.as(OPERATOR).write.veto([key]), 'NotGuardian');
        await expectRevert(world.as(GUARDIAN).write.veto([key]), 'NotVetoable');
      }
      await expectRevert(world.as(OPERATOR).write.refundStake([up]), 'WrongKind');
      await expectRevert(world.as(OPERATOR).write.refundStake([price.stake]), 'WrongKind');
    };
    // Before its settlement and after it.
    await tryAll();
    await world.settleRound(round);
    await world.settlePriceMarket(price);
    await tryAll();
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Settled, outcome: NO });
    expect(await world.market(price.key)).toMatchObject({ state: STATE.Settled, outcome: YES });
  });
});

describe('a wrong round id', () => {
  test('settles nothing: an earlier or later round, an id of another phase or of none, or a fresh round in place of the stale one in force', async () => {
    const { round } = await playedRound(usd(600), usd(605), [
      [alice, YES, parseEther('1')],
      [bob, NO, parseEther('1')],
    ]);
    // A round published after the close, so later ids exist.
    await feeds.publish(BNB, usd(700));
    const lock = world.roundAt(BNB, round.lockAt);
    const close = world.roundAt(BNB, round.closeAt);
    const settleWith = (lockId: bigint, closeId: bigint) =>
      world.as(STRANGER).write.settleRound([round.key, lockId, closeId]);
    await expectRevert(settleWith(lock.roundId - 1n, close.roundId), 'RoundNotInForce');
    await expectRevert(settleWith(lock.roundId, close.roundId + 1n), 'RoundTooLate');
    await expectRevert(settleWith(lock.roundId, close.roundId + 2n), 'NoSuchRound');
    await expectRevert(settleWith(close.roundId, close.roundId), 'RoundTooLate');
    await expectRevert(settleWith(lock.roundId, close.roundId - 1n), 'RoundNotInForce');
    await expectRevert(settleWith(roundIdOf(feeds.phase(BNB) + 1, 1n), close.roundId), 'NoSuchRound');
    await expectRevert(settleWith(0n, close.roundId), 'NoSuchRound');
    expect((await world.market(round.key)).state).toBe(STATE.Open);
    await world.settleRound(round);
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Settled, outcome: YES });

    // A stale price at the lock: a fresher round published after it cannot stand in for it.
    const stale = await world.nextRound(BNB);
    await feeds.publish(BNB, usd(600));
    await world.betRound(alice, stale, YES, parseEther('1'));
    await world.betRound(bob, stale, NO, parseEther('1'));
    const old = await feeds.publish(BNB, usd(600), stale.lockAt - MAX_PRICE_AGE - 1);
    const fresh = await feeds.publish(BNB, usd(590), stale.lockAt + 1);
    await feeds.publish(BNB, usd(620), stale.closeAt - 1);
    await world.travelTo(stale.closeAt + 1);
    const staleClose = world.roundAt(BNB, stale.closeAt);
    await expectRevert(
      world.as(bob).write.settleRound([stale.key, fresh.round.roundId, staleClose.roundId]),
      'RoundTooLate',
    );
    await expectRevert(
      world.as(bob).write.settleRound([stale.key, old.round.roundId - 1n, staleClose.roundId]),
      'RoundNotInForce',
    );
    await world.settleRound(stale, bob);
    expect(await world.market(stale.key)).toMatchObject({ state: STATE.Refunding, outcome: REFUND.stale });
  });

  test('of the phase before a feed move settles nothing once the new phase covers the instant; a round two moves back can no longer be proved and escapes', async () => {
    const round = await world.nextRound(BNB);
    await feeds.publish(BNB, usd(600));
    const up = await world.betRound(alice, round, YES, parseEther('1'));
    const down = await world.betRound(bob, round, NO, parseEther('1'));
    await feeds.publish(BNB, usd(600), round.lockAt - 10);
    // The feed moves to a new aggregator between the lock and the close.
    await feeds.newPhase(BNB);
    const firstOfPhase = await feeds.publish(BNB, usd(610), round.lockAt + 30);
    await feeds.publish(BNB, usd(611), round.closeAt - 5);
    await world.travelTo(round.closeAt + 1);
    const lock = world.roundAt(BNB, round.lockAt);
    const close = world.roundAt(BNB, round.closeAt);
    expect(close.roundId >> 64n).toBe((lock.roundId >> 64n) + 1n);
    // The old phase's last round stands in for the close: the new phase replaced it.
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, lock.roundId, lock.roundId]),
      'RoundNotInForce',
    );
    // A round the new phase does not have.
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, roundIdOf(2, 3n), close.roundId]),
      'NoSuchRound',
    );
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, firstOfPhase.round.roundId, close.roundId]),
      'RoundTooLate',
    );
    // Another move: the lock's phase is now two back, so no id proves it and the round escapes.
    await feeds.newPhase(BNB);
    await expectRevert(
      world.as(STRANGER).write.settleRound([round.key, lock.roundId, close.roundId]),
      'PhaseTooOld',
    );
    await world.travelTo(round.lockAt + ESCAPE_DELAY);
    const before = await balanceOf(alice);
    await world.mined(world.as(STRANGER).write.refundMany([[up, down]]));
    expect((await balanceOf(alice)) - before).toBe(parseEther('1'));
    expect((await world.market(round.key)).state).toBe(STATE.Refunding);
  });
});

describe('a round settled late', () => {
  test('hours late by a stranger, after many rounds and a feed move, it pays exactly what it would have paid on time', async () => {
    const { round, stakes } = await playedRound(usd(600), usd(604), [
      [alice, YES, parseEther('0.3')],
      [carol, YES, parseEther('0.7')],
      [bob, NO, parseEther('2')],
    ]);
    const saved = feeds.save();
    const snapshot = await world.testClient.snapshot();
    const outcomeOf = async () => {
      const market = await world.market(round.key);
      const readings = await world.read.readings([round.key]);
      const payouts = await Promise.all(
        stakes.map((stake) => world.read.pricePayout([round.key, stake.side, stake.amount])),
      );
      return { market: { ...market, claimableAt: 0 }, readings, payouts };
    };
    // On time, by its first keeper.
    await world.settleRound(round, relayer);
    const onTime = await outcomeOf();

    // The same history, settled six hours late instead, by a stranger, the feed having moved on.
    await world.testClient.revert({ id: snapshot });
    feeds.restore(saved);
    for (let i = 0; i < 5; i += 1) await feeds.publish(BNB, usd(700 + i));
    await world.travel(3 * HOUR);
    await feeds.newPhase(BNB);
    for (let i = 0; i < 3; i += 1) await feeds.publish(BNB, usd(800 + i));
    await world.travel(3 * HOUR);
    await world.settleRound(round, STRANGER);
    const late = await outcomeOf();
    expect(late).toEqual(onTime);
    expect(late.market).toMatchObject({ state: STATE.Settled, outcome: YES });
    // And its winners are paid those amounts.
    const [aliceStake, carolStake] = stakes;
    if (!aliceStake || !carolStake) throw new Error('two winners');
    const before = await balanceOf(carol);
    await world.mined(world.as(STRANGER).write.claimMany([[aliceStake, carolStake].map(world.priceClaim)]));
    expect((await balanceOf(carol)) - before).toBe(onTime.payouts[1]);
  });
});

describe('rounding dust', () => {
  test('of a price kind goes to the fee when its last winner claims: the treasury collects it and the round owes nothing', async () => {
    const { round, stakes } = await playedRound(usd(600), usd(601), [
      [alice, YES, parseEther('0.01')],
      [carol, YES, parseEther('0.01')],
      [dave, YES, parseEther('0.01')],
      [bob, NO, parseEther('0.01')],
    ]);
    await world.settleRound(round);
    const pool = parseEther('0.04');
    const fee = (pool * 300n) / 10_000n;
    const each = ((pool - fee) * parseEther('0.01')) / parseEther('0.03');
    const dust = pool - fee - 3n * each;
    expect(dust).toBeGreaterThan(0n);
    const liabilities = await world.read.liabilities();
    await world.mined(world.as(relayer).write.claimMany([stakes.slice(0, 3).map(world.priceClaim)]));
    expect(await world.market(round.key)).toMatchObject({ fee: fee + dust, paid: 3n * each });
    const before = await balanceOf(TREASURY);
    await world.mined(world.as(relayer).write.collectFee([round.key]));
    expect((await balanceOf(TREASURY)) - before).toBe(fee + dust);
    // Everything the round held has left it: its winners' shares, the fee and the dust.
    expect(liabilities - (await world.read.liabilities())).toBe(pool);
  });
});

import {
  type Address,
  BaseError,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
  zeroHash,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { marketKey } from '../src/market-key.ts';
import { buildPayoutTree } from '../src/payout-tree.ts';
import { predictionEscrowAbi } from '../src/prediction-escrow.gen.ts';
import {
  forceFeederAbi,
  forceFeederBytecode,
  gasBurnerAbi,
  gasBurnerBytecode,
  hostileBettorAbi,
  hostileBettorBytecode,
} from './attackers.gen.ts';
import { devAccount } from './chain-clients.ts';
import {
  ADMIN,
  BETTORS,
  createEscrowWorld,
  DAY,
  ESCAPE_DELAY,
  type EscrowWorld,
  expectRevert,
  GUARDIAN,
  HOUR,
  OPERATOR,
  STATE,
  type StakeRef,
  TREASURY,
} from './escrow-fixture.ts';

// The attacks the contract is built to stop (decision 025), among them a recipient that burns its
// payout's gas and claims again, each against the contract on a real node.

let world: EscrowWorld;
beforeAll(async () => {
  world = await createEscrowWorld();
});
afterAll(() => world?.stop());

const [alice, bob, carol, relayer, thief, delegated] = BETTORS;
const address = (index: number) => devAccount(index).address;
const Mode = { Accept: 0, BurnGas: 1, Revert: 2, ReturnBomb: 3, Reenter: 4, SpendLikeASafe: 5 } as const;

async function deployHostile(): Promise<Address> {
  const receipt = await world.mined(
    world.walletOf(carol).deployContract({
      abi: hostileBettorAbi,
      bytecode: hostileBettorBytecode,
      args: [world.address],
    }),
  );
  if (!receipt.contractAddress) throw new Error('no address');
  return getAddress(receipt.contractAddress);
}

/** The hostile contract bets `amount` on `market`; alice bets the same on the other side. */
async function hostileBet(hostile: Address, market: { id: Hex; closesAt: number }, amount: bigint) {
  const receipt = await world.mined(
    world.walletOf(carol).writeContract({
      address: hostile,
      abi: hostileBettorAbi,
      functionName: 'bet',
      args: [market.id, market.closesAt, 1],
      value: amount,
    }),
  );
  const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
  if (!event) throw new Error('no deposit');
  const stake: StakeRef = {
    stakeId: event.args.stakeId,
    owner: event.args.owner,
    market: event.args.market,
    amount: event.args.amount,
  };
  return stake;
}

const setMode = (hostile: Address, mode: number, reentry: Hex = '0x') =>
  world.mined(
    world.walletOf(carol).writeContract({
      address: hostile,
      abi: hostileBettorAbi,
      functionName: 'setMode',
      args: [mode, reentry],
    }),
  );

/** A market where `winner` (a stake of 1 BNB) takes the pool of 2 BNB, settled and claimable. */
async function winningMarket(
  name: string,
  bet: (market: { id: Hex; closesAt: number }) => Promise<StakeRef>,
) {
  const market = await world.openMarket(name);
  const stake = await bet(market);
  await world.deposit(alice, market, parseEther('1'), 2);
  await world.travel(HOUR);
  const { tree } = await world.settle(market.key, [{ stakeId: stake.stakeId, amount: parseEther('2') }]);
  await world.travel(600);
  return { market, stake, claim: { stake, payout: parseEther('2'), proof: tree.proof(stake.stakeId) } };
}

const TxHashSchema = z.object({ data: z.object({ txHash: z.string().regex(/^0x[0-9a-f]{64}$/) }) });

/**
 * Sends `claim` as the relayer with a fixed gas limit (no estimate), as a careless relayer would, and
 * answers its receipt (Hardhat mines a reverting transaction but answers the send with an error that
 * names its hash).
 */
async function relayBlindly(claim: unknown) {
  const hash = await world
    .walletOf(relayer)
    .sendTransaction({
      to: world.address,
      // biome-ignore lint/suspicious/noExplicitAny: the claim tuple as the tests build it
      data: encodeFunctionData({ abi: predictionEscrowAbi, functionName: 'claim', args: [claim as any] }),
      gas: 300_000n,
    })
    .catch((error: unknown) => {
      const mined =
        error instanceof BaseError ? error.walk((cause) => TxHashSchema.safeParse(cause).success) : null;
      const parsed = TxHashSchema.safeParse(mined);
      if (!parsed.success) throw error;
      return `0x${parsed.data.data.txHash.slice(2)}` as const;
    });
  return world.publicClient.waitForTransactionReceipt({ hash });
}

describe('a recipient that burns gas, reverts or bombs return data', () => {
  test.each([
    ['burns every gas it gets', Mode.BurnGas],
    ['reverts', Mode.Revert],
    ['returns a return-data bomb', Mode.ReturnBomb],
  ])(
    'a winner contract that %s costs the relayer one capped attempt, then its money waits as a credit',
    async (_, mode) => {
      const hostile = await deployHostile();
      const { claim } = await winningMarket(`hostile-${mode}`, (market) =>
        hostileBet(hostile, market, parseEther('1')),
      );
      await setMode(hostile, mode);

      const first = await world.mined(world.as(relayer).write.claim([claim]));
      const [credited] = parseEventLogs({
        abi: predictionEscrowAbi,
        logs: first.logs,
        eventName: 'Credited',
      });
      expect(credited?.args).toEqual({
        owner: hostile,
        stakeId: claim.stake.stakeId,
        amount: parseEther('2'),
      });
      // The claim's own work plus at most the cap forwarded to the recipient.
      expect(first.gasUsed).toBeLessThan(60_000n + 50_000n + 30_000n);
      expect(await world.read.credits([hostile])).toBe(parseEther('2'));

      // 24 more tries (25 claims in all): each reverts before any call, cheaply.
      for (let i = 0; i < 24; i++) {
        const receipt = await relayBlindly(claim);
        expect(receipt.status).toBe('reverted');
        expect(receipt.gasUsed).toBeLessThan(40_000n);
      }
      await expectRevert(world.as(relayer).write.claim([claim]), 'StakeMismatch');
      expect(await world.read.credits([hostile])).toBe(parseEther('2'));

      // Still hostile, it takes its money elsewhere; the credit pays once.
      await world.mined(
        world.walletOf(carol).writeContract({
          address: hostile,
          abi: hostileBettorAbi,
          functionName: 'withdrawTo',
          args: [address(carol)],
        }),
      );
      expect(await world.read.credits([hostile])).toBe(0n);
      await expect(
        world.walletOf(carol).writeContract({
          address: hostile,
          abi: hostileBettorAbi,
          functionName: 'withdrawTo',
          args: [address(carol)],
        }),
      ).rejects.toThrow();
    },
  );

  test('a smart-account winner whose receive does some work (a Safe, an event and storage) is paid directly', async () => {
    const hostile = await deployHostile();
    await setMode(hostile, Mode.SpendLikeASafe);
    const { claim } = await winningMarket('safe-like', (market) =>
      hostileBet(hostile, market, parseEther('1')),
    );
    const receipt = await world.mined(world.as(relayer).write.claim([claim]));
    expect(
      parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Credited' }),
    ).toHaveLength(0);
    expect(await world.publicClient.getBalance({ address: hostile })).toBe(parseEther('2'));
  });

  test('an EOA delegated (EIP-7702) to a gas burner is paid once as a credit, and withdraws to where it likes', async () => {
    const bettor = devAccount(delegated);
    const { claim } = await winningMarket('delegated', (market) =>
      world.deposit(delegated, market, parseEther('1')),
    );

    const burner = await world.mined(
      world.walletOf(carol).deployContract({ abi: gasBurnerAbi, bytecode: gasBurnerBytecode }),
    );
    if (!burner.contractAddress) throw new Error('no burner');
    const authorization = await world.walletOf(delegated).signAuthorization({
      account: bettor,
      contractAddress: burner.contractAddress,
    });
    // A type-4 transaction sponsored by carol installs the delegation.
    await world.mined(
      world.walletOf(carol).sendTransaction({ to: address(carol), authorizationList: [authorization] }),
    );
    expect(await world.publicClient.getCode({ address: bettor.address })).toBe(
      `0xef0100${burner.contractAddress.slice(2).toLowerCase()}`,
    );

    const first = await world.mined(world.as(relayer).write.claim([claim]));
    expect(
      parseEventLogs({ abi: predictionEscrowAbi, logs: first.logs, eventName: 'Credited' }),
    ).toHaveLength(1);
    expect(first.gasUsed).toBeLessThan(140_000n);
    let spent = first.gasUsed;
    for (let i = 0; i < 24; i++) spent += (await relayBlindly(claim)).gasUsed;
    // 25 claims cost one capped attempt and 24 cheap reverts, against 16.2M gas each with an uncapped push.
    expect(spent).toBeLessThan(140_000n + 24n * 40_000n);

    // Its own address burns whatever it is sent: it withdraws to another of its addresses.
    const before = await world.publicClient.getBalance({ address: address(bob) });
    await world.mined(world.as(delegated).write.withdraw([address(bob)]));
    expect(await world.publicClient.getBalance({ address: address(bob) })).toBe(before + parseEther('2'));
  });
});

describe('re-entrancy', () => {
  test('a winner re-entering claim from its receive is paid once', async () => {
    const hostile = await deployHostile();
    const { claim } = await winningMarket('reenter-claim', (market) =>
      hostileBet(hostile, market, parseEther('1')),
    );
    await setMode(
      hostile,
      Mode.Reenter,
      encodeFunctionData({ abi: predictionEscrowAbi, functionName: 'claim', args: [claim] }),
    );
    await world.mined(world.as(relayer).write.claim([claim]));
    expect(await world.publicClient.getBalance({ address: hostile })).toBe(parseEther('2'));
    expect(await world.read.credits([hostile])).toBe(0n);
    const reentered = await world.publicClient.readContract({
      address: hostile,
      abi: hostileBettorAbi,
      functionName: 'reentrySucceeded',
    });
    expect(reentered).toBe(false);
  });

  test('a credit holder re-entering withdraw from its receive gets its credit once', async () => {
    const hostile = await deployHostile();
    const { claim } = await winningMarket('reenter-withdraw', (market) =>
      hostileBet(hostile, market, parseEther('1')),
    );
    await setMode(hostile, Mode.Revert);
    await world.mined(world.as(relayer).write.claim([claim]));
    expect(await world.read.credits([hostile])).toBe(parseEther('2'));
    await setMode(
      hostile,
      Mode.Reenter,
      encodeFunctionData({ abi: predictionEscrowAbi, functionName: 'withdraw', args: [hostile] }),
    );
    await world.mined(
      world.walletOf(carol).writeContract({
        address: hostile,
        abi: hostileBettorAbi,
        functionName: 'withdrawTo',
        args: [hostile],
      }),
    );
    expect(await world.publicClient.getBalance({ address: hostile })).toBe(parseEther('2'));
    expect(await world.read.credits([hostile])).toBe(0n);
    expect(
      await world.publicClient.readContract({
        address: hostile,
        abi: hostileBettorAbi,
        functionName: 'reentrySucceeded',
      }),
    ).toBe(false);
  });
});

describe('reserves', () => {
  test("BNB forced in by selfdestruct is no bettor's money: it stays outside the liabilities and only the treasury can get it", async () => {
    const liabilities = await world.read.liabilities();
    await world.mined(
      world.walletOf(carol).deployContract({
        abi: forceFeederAbi,
        bytecode: forceFeederBytecode,
        args: [world.address],
        value: parseEther('1.5'),
      }),
    );
    const balance = await world.publicClient.getBalance({ address: world.address });
    expect(balance).toBe(liabilities + parseEther('1.5'));
    expect(await world.read.liabilities()).toBe(liabilities);
    const treasury = await world.publicClient.getBalance({ address: address(TREASURY) });
    await world.mined(world.as(carol).write.sweepExcess());
    expect(await world.publicClient.getBalance({ address: address(TREASURY) })).toBe(
      treasury + parseEther('1.5'),
    );
    expect(await world.publicClient.getBalance({ address: world.address })).toBe(liabilities);
    await expectRevert(world.as(carol).write.sweepExcess(), 'NoExcess');
  });
});

describe('a stolen operator key', () => {
  test('drains at most the bucket, only to a bettor of each market, and the guardian vetoes what is still pending', async () => {
    await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('5'), parseEther('5')]));
    await world.travel(HOUR);
    const markets = [];
    for (const name of ['stolen-1', 'stolen-2']) {
      const market = await world.openMarket(name);
      await world.deposit(alice, market, parseEther('2'), 1);
      await world.deposit(bob, market, parseEther('2'), 2);
      // The thief bets a little on each market to be one of its bettors.
      const stake = await world.deposit(thief, market, parseEther('0.01'), 1);
      markets.push({ market, stake });
    }
    await world.travel(HOUR);
    const thiefBefore = await world.publicClient.getBalance({ address: address(thief) });

    // What the key cannot do at all: pay anyone but the stake's owner, or a stake of another market.
    const [first, second] = markets;
    if (!first || !second) throw new Error('two markets');
    await expectRevert(
      world.as(OPERATOR).write.refundStake([{ ...first.stake, owner: address(OPERATOR) }]),
      'StakeMismatch',
    );
    // Whole pools to itself: the first settlement fits the bucket, the second does not.
    const pool = parseEther('4.01');
    const loot = (pool * 9n) / 10n + 1n;
    const settleForThief = (entry: typeof first) =>
      world
        .as(OPERATOR)
        .write.settle([
          entry.market.key,
          1,
          zeroHash,
          buildPayoutTree([{ stakeId: entry.stake.stakeId, amount: loot }]).root,
          loot,
          pool - loot,
          600,
        ]);
    await world.mined(settleForThief(first));
    await expectRevert(settleForThief(second), 'SettlementRateLimited');
    await world.travel(600);
    await world.mined(
      world.as(thief).write.claim([
        {
          stake: first.stake,
          payout: loot,
          proof: buildPayoutTree([{ stakeId: first.stake.stakeId, amount: loot }]).proof(first.stake.stakeId),
        },
      ]),
    );
    // The thief got at most the bucket (5 BNB), from one market's own pool.
    const gained = (await world.publicClient.getBalance({ address: address(thief) })) - thiefBefore;
    expect(gained).toBeLessThanOrEqual(parseEther('5'));
    expect(gained).toBeGreaterThan(parseEther('3'));

    // An hour later it tries again; the guardian, alerted by the Settled event, vetoes before payouts open.
    await world.travel(HOUR);
    await world.mined(settleForThief(second));
    await world.mined(world.as(GUARDIAN).write.veto([second.market.key]));
    await world.mined(world.as(GUARDIAN).write.pause());
    await expectRevert(settleForThief(second), 'EnforcedPause');
    await world.mined(world.as(ADMIN).write.setOperator([address(carol)]));
    await world.mined(world.as(ADMIN).write.unpause());
    await expectRevert(settleForThief(second), 'NotOperator');
    await expectRevert(
      world.as(OPERATOR).write.settleAsRefund([second.market.key, 3, zeroHash]),
      'NotOperator',
    );
    await world.mined(world.as(ADMIN).write.setOperator([address(OPERATOR)]));
    await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('100'), parseEther('100')]));
  });
});

describe('replay', () => {
  test('a proof of one market, round or contract pays nothing on another', async () => {
    const roundA = await world.openMarket('round:100', 300);
    const roundB = { id: keccak256(toHex('round:101')), closesAt: roundA.closesAt + 600 };
    const stakeA = await world.deposit(alice, roundA, parseEther('1'));
    await world.deposit(bob, roundA, parseEther('1'), 2);
    const stakeB = await world.deposit(alice, roundB, parseEther('1'));
    await world.deposit(bob, roundB, parseEther('1'), 2);
    await world.travel(HOUR);
    const { tree: treeA } = await world.settle(roundA.key, [
      { stakeId: stakeA.stakeId, amount: parseEther('2') },
    ]);
    const { tree: treeB } = await world.settle(marketKey(roundB.id, roundB.closesAt), [
      { stakeId: stakeB.stakeId, amount: parseEther('2') },
    ]);
    await world.travel(600);
    const claimA = { stake: stakeA, payout: parseEther('2'), proof: treeA.proof(stakeA.stakeId) };
    // Round A's claim checked against round B's root.
    await expectRevert(
      world.as(carol).write.claim([{ ...claimA, stake: { ...stakeA, market: stakeB.market } }]),
      'InvalidProof',
    );
    // Another deployment, where the same stake id belongs to someone else.
    const other = await world.deployEscrow();
    const otherMarket = await world.openMarket('other-contract');
    let otherStake = await world.deposit(bob, otherMarket, parseEther('1'), 1, other);
    while (otherStake.stakeId < stakeA.stakeId)
      otherStake = await world.deposit(bob, otherMarket, parseEther('0.01'), 1, other);
    await world.travel(HOUR);
    await expectRevert(world.escrowAt(other, carol).write.claim([claimA]), 'NotClaimable');
    await expectRevert(
      world
        .escrowAt(other, carol)
        .write.claim([{ ...claimA, stake: { ...stakeA, market: otherMarket.key } }]),
      'NotClaimable',
    );
    // A list naming a stake of another round pays that stake nothing.
    const roundC = await world.openMarket('round:102', 300);
    await world.deposit(bob, roundC, parseEther('1'));
    await world.travel(HOUR);
    const crossTree = buildPayoutTree([{ stakeId: stakeA.stakeId, amount: parseEther('1') }]);
    await world.mined(
      world.as(OPERATOR).write.settle([roundC.key, 1, zeroHash, crossTree.root, parseEther('1'), 0n, 600]),
    );
    await world.travel(600);
    await expectRevert(
      world.as(carol).write.claim([
        {
          stake: { ...stakeA, market: roundC.key },
          payout: parseEther('1'),
          proof: crossTree.proof(stakeA.stakeId),
        },
      ]),
      'StakeMismatch',
    );
    // Round A's claim still pays once where it belongs.
    await world.mined(world.as(carol).write.claim([claimA]));
    await world.mined(
      world
        .as(carol)
        .write.claim([{ stake: stakeB, payout: parseEther('2'), proof: treeB.proof(stakeB.stakeId) }]),
    );
  });
});

describe('the escape hatch', () => {
  test('with the server gone, a bettor takes its stake back a week after the close, even while paused', async () => {
    const market = await world.openMarket('abandoned');
    const mine = await world.deposit(alice, market, parseEther('0.7'));
    const theirs = await world.deposit(bob, market, parseEther('0.3'), 2);
    await world.travel(HOUR + ESCAPE_DELAY - 10);
    await expectRevert(world.as(alice).write.refund([mine]), 'NotRefundable');
    await world.travel(10);
    await world.mined(world.as(GUARDIAN).write.pause());
    const before = await world.publicClient.getBalance({ address: address(bob) });
    const receipt = await world.mined(world.as(alice).write.refund([mine]));
    expect(
      parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Escaped' }),
    ).toHaveLength(1);
    // Anyone may push the others' refunds; they go to their owners.
    await world.mined(world.as(carol).write.refund([theirs]));
    expect(await world.publicClient.getBalance({ address: address(bob) })).toBe(before + parseEther('0.3'));
    await world.mined(world.as(ADMIN).write.unpause());
    await expectRevert(world.as(OPERATOR).write.settleAsRefund([market.key, 3, zeroHash]), 'NotSettleable');
    expect((await world.market(market.key)).pool).toBe(0n);
  });

  test('nobody can open a known market id with another close to cut its escape short', async () => {
    const id = keccak256(toHex('market:4242'));
    const real = (await world.now()) + DAY;
    // An early stake under the same id but a sooner close is another market entirely.
    await world.deposit(thief, { id, closesAt: real - 23 * HOUR }, 1n);
    await world.travel(2 * HOUR);
    const stake = await world.deposit(alice, { id, closesAt: real }, parseEther('1'));
    expect(stake.market).toBe(marketKey(id, real));
    expect((await world.market(stake.market)).state).toBe(STATE.Open);
  });
});

describe('a griefer disputing with bonds the server refuses', () => {
  test("delays payouts at most MAX_DISPUTES times, for gas only, and never to the escape hatch with the server's timeouts", async () => {
    // The server's defaults: a verdict by MARKET_RESOLUTION_TIMEOUT_S (3 days) after the close, paid out
    // after RESOLUTION_REVIEW_WINDOW_S (1 hour), the settlement's delay.
    const RESOLUTION_TIMEOUT = 3 * DAY;
    const REVIEW = HOUR;
    const market = await world.openMarket('griefed');
    const yes = await world.deposit(alice, market, parseEther('1'), 1);
    await world.deposit(bob, market, parseEther('1'), 2);
    // The server settles as late as it ever does.
    await world.travel(HOUR + RESOLUTION_TIMEOUT);
    const payouts = [{ stakeId: yes.stakeId, amount: parseEther('2') }];
    await world.settle(market.key, payouts, { delay: REVIEW });
    const firstClaimableAt = (await world.market(market.key)).claimableAt;

    const griefer = address(thief);
    const before = await world.publicClient.getBalance({ address: griefer });
    let gasPaid = 0n;
    for (let round = 1; round <= 3; round++) {
      // The griefer waits for the review window's last seconds, then disputes with the exact bond.
      const { claimableAt } = await world.market(market.key);
      await world.travel(claimableAt - (await world.now()) - 5);
      const bond = await world.read.disputeBond([market.key]);
      const { stake, disputes, receipt } = await world.dispute(thief, market, bond);
      expect(disputes).toBe(round);
      gasPaid += receipt.gasUsed * receipt.effectiveGasPrice;
      // No payout can open meanwhile.
      await expectRevert(
        world
          .as(relayer)
          .write.claim([
            { stake: yes, payout: parseEther('2'), proof: buildPayoutTree(payouts).proof(yes.stakeId) },
          ]),
        'NotClaimable',
      );
      // The server refuses the flag at the door (not a bettor, a second flag), gives the bond back, and
      // posts the same verdict again with a new review window.
      await world.mined(world.as(OPERATOR).write.refundStake([stake]));
      await world.settle(market.key, payouts, { delay: REVIEW });
    }
    const bond = await world.read.disputeBond([market.key]);
    await expectRevert(
      world.as(thief).write.deposit([market.id, market.closesAt, 4, 0, zeroHash, zeroHash], { value: bond }),
      'DisputesExhausted',
    );
    // Its bonds all came back: the griefing cost it gas only.
    expect(await world.publicClient.getBalance({ address: griefer })).toBe(before - gasPaid);

    // Payouts open at most MAX_DISPUTES review windows after they first would have, days before the
    // escape hatch; the market never turns to refunds.
    const { claimableAt } = await world.market(market.key);
    expect(claimableAt).toBeLessThanOrEqual(firstClaimableAt + 3 * REVIEW);
    expect(claimableAt + DAY).toBeLessThan(market.closesAt + ESCAPE_DELAY);
    await world.travel(claimableAt - (await world.now()));
    await expectRevert(world.as(alice).write.refund([yes]), 'NotRefundable');
    const aliceBefore = await world.publicClient.getBalance({ address: address(alice) });
    await world.mined(
      world
        .as(relayer)
        .write.claim([
          { stake: yes, payout: parseEther('2'), proof: buildPayoutTree(payouts).proof(yes.stakeId) },
        ]),
    );
    expect(await world.publicClient.getBalance({ address: address(alice) })).toBe(
      aliceBefore + parseEther('2'),
    );
  });
});

import {
  BaseError,
  decodeErrorResult,
  encodeDeployData,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildPayoutTree } from '../src/payout-tree.ts';
import { predictionEscrowAbi, predictionEscrowBytecode } from '../src/prediction-escrow.gen.ts';
import {
  ADMIN,
  BETTORS,
  createEscrowWorld,
  DAY,
  devAccount,
  ESCAPE_DELAY,
  type EscrowWorld,
  expectRevert,
  GUARDIAN,
  HOUR,
  OPERATOR,
  TREASURY,
} from './escrow-fixture.ts';

// Every function of PredictionEscrow and every custom error it can raise, on a real Hardhat node.

/**
 * The custom error a failed eth_call reverted with. Calls that name no function (a constructor, a
 * plain transfer, the fallback) come back undecoded: the node quotes their return data.
 */
function revertedWith(error: unknown): string {
  if (!(error instanceof BaseError)) throw new Error('the call did not revert');
  const data = /return data: (0x[0-9a-f]+)/.exec(error.message)?.[1];
  if (!data?.startsWith('0x')) throw new Error(`no revert data: ${error.shortMessage}`);
  return decodeErrorResult({ abi: predictionEscrowAbi, data: `0x${data.slice(2)}` }).errorName;
}

let world: EscrowWorld;
beforeAll(async () => {
  world = await createEscrowWorld();
});
afterAll(() => world?.stop());

const [alice, bob, carol, dave] = BETTORS;
const verdict = keccak256(toHex('verdict'));
const address = (index: number) => devAccount(index).address;

/** A market with two bets (alice YES 1, bob NO 1), past its close. */
async function closedMarket(name: string) {
  const market = await world.openMarket(name);
  const yes = await world.deposit(alice, market, parseEther('1'), 1);
  const no = await world.deposit(bob, market, parseEther('1'), 2);
  await world.travel(HOUR);
  return { market, yes, no };
}

async function expectDeployRevert(args: readonly unknown[], errorName: string) {
  const data = encodeDeployData({
    abi: predictionEscrowAbi,
    bytecode: predictionEscrowBytecode,
    // biome-ignore lint/suspicious/noExplicitAny: the constructor's tuple type, built by each test
    args: args as any,
  });
  const error = await world.publicClient.call({ account: address(ADMIN), data }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(revertedWith(error)).toBe(errorName);
}

describe('deployment and roles', () => {
  const args = (overrides: Partial<Record<'operator' | 'treasury' | 'capacity' | 'delay', unknown>> = {}) => [
    address(ADMIN),
    overrides.operator ?? address(OPERATOR),
    address(GUARDIAN),
    overrides.treasury ?? address(TREASURY),
    overrides.capacity ?? parseEther('10'),
    parseEther('10'),
    overrides.delay ?? 600,
  ];

  test('the deployment fixes the treasury and names the admin, operator and guardian', async () => {
    expect(await world.read.owner()).toBe(address(ADMIN));
    expect(await world.read.operator()).toBe(address(OPERATOR));
    expect(await world.read.guardian()).toBe(address(GUARDIAN));
    expect(await world.read.treasury()).toBe(address(TREASURY));
    expect(await world.read.minPayoutDelay()).toBe(600);
    expect(await world.read.settlementCapacity()).toBe(parseEther('100'));
    expect(await world.read.settlementAllowance()).toBe(parseEther('100'));
    expect(await world.read.nextStakeId()).toBe(1n);
    expect(await world.read.MAX_FEE_BPS()).toBe(1000n);
    expect(await world.read.ESCAPE_DELAY()).toBe(BigInt(ESCAPE_DELAY));
  });

  test('a deployment without a treasury, with the admin as operator, or with limits out of bounds is refused', async () => {
    await expectDeployRevert(args({ treasury: zeroAddress }), 'ZeroAddress');
    await expectDeployRevert(args({ operator: address(ADMIN) }), 'OperatorIsAdmin');
    await expectDeployRevert(args({ capacity: parseEther('20000') }), 'LimitOutOfBounds');
    await expectDeployRevert(args({ delay: 10 }), 'DelayOutOfBounds');
  });

  test('only the admin sets the operator and guardian, never to zero, and the operator never to the admin', async () => {
    await expectRevert(world.as(OPERATOR).write.setOperator([address(carol)]), 'OwnableUnauthorizedAccount');
    await expectRevert(world.as(ADMIN).write.setOperator([zeroAddress]), 'ZeroAddress');
    await expectRevert(world.as(ADMIN).write.setOperator([address(ADMIN)]), 'OperatorIsAdmin');
    await expectRevert(world.as(GUARDIAN).write.setGuardian([address(carol)]), 'OwnableUnauthorizedAccount');
    await expectRevert(world.as(ADMIN).write.setGuardian([zeroAddress]), 'ZeroAddress');
    await world.mined(world.as(ADMIN).write.setGuardian([address(dave)]));
    expect(await world.read.guardian()).toBe(address(dave));
    await world.mined(world.as(ADMIN).write.setGuardian([address(GUARDIAN)]));
    await world.mined(world.as(ADMIN).write.setOperator([address(OPERATOR)]));
  });

  test('the admin sets the rate limit and the payout delay only within the constant bounds', async () => {
    await expectRevert(
      world.as(OPERATOR).write.setSettlementLimit([parseEther('1'), parseEther('1')]),
      'OwnableUnauthorizedAccount',
    );
    await expectRevert(
      world.as(ADMIN).write.setSettlementLimit([parseEther('0.01'), parseEther('0.01')]),
      'LimitOutOfBounds',
    );
    await expectRevert(
      world.as(ADMIN).write.setSettlementLimit([parseEther('10001'), parseEther('1')]),
      'LimitOutOfBounds',
    );
    await expectRevert(world.as(ADMIN).write.setSettlementLimit([parseEther('1'), 0n]), 'LimitOutOfBounds');
    await expectRevert(
      world.as(ADMIN).write.setSettlementLimit([parseEther('1'), parseEther('2')]),
      'LimitOutOfBounds',
    );
    await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('5'), parseEther('1')]));
    expect(await world.read.settlementAllowance()).toBe(parseEther('5'));
    await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('100'), parseEther('100')]));

    await expectRevert(world.as(OPERATOR).write.setMinPayoutDelay([900]), 'OwnableUnauthorizedAccount');
    await expectRevert(world.as(ADMIN).write.setMinPayoutDelay([59]), 'DelayOutOfBounds');
    await expectRevert(world.as(ADMIN).write.setMinPayoutDelay([7 * DAY + 1]), 'DelayOutOfBounds');
    await world.mined(world.as(ADMIN).write.setMinPayoutDelay([900]));
    expect(await world.read.minPayoutDelay()).toBe(900);
    await world.mined(world.as(ADMIN).write.setMinPayoutDelay([600]));
  });

  test('the admin hands over in two steps and can never renounce', async () => {
    await expectRevert(
      world.as(carol).write.transferOwnership([address(carol)]),
      'OwnableUnauthorizedAccount',
    );
    await world.mined(world.as(ADMIN).write.transferOwnership([address(dave)]));
    expect(await world.read.owner()).toBe(address(ADMIN));
    expect(await world.read.pendingOwner()).toBe(address(dave));
    await expectRevert(world.as(carol).write.acceptOwnership(), 'OwnableUnauthorizedAccount');
    await world.mined(world.as(dave).write.acceptOwnership());
    expect(await world.read.owner()).toBe(address(dave));
    await world.mined(world.as(dave).write.transferOwnership([address(ADMIN)]));
    await world.mined(world.as(ADMIN).write.acceptOwnership());
    await expectRevert(world.read.renounceOwnership({ account: address(ADMIN) }), 'RenounceDisabled');
    await expectRevert(
      world.read.renounceOwnership({ account: address(carol) }),
      'OwnableUnauthorizedAccount',
    );
  });

  test('the guardian or the admin pauses, only the admin unpauses', async () => {
    await expectRevert(world.as(OPERATOR).write.pause(), 'NotGuardian');
    await expectRevert(world.as(ADMIN).write.unpause(), 'ExpectedPause');
    await world.mined(world.as(GUARDIAN).write.pause());
    expect(await world.read.paused()).toBe(true);
    await expectRevert(world.as(ADMIN).write.pause(), 'EnforcedPause');
    await expectRevert(world.as(GUARDIAN).write.unpause(), 'OwnableUnauthorizedAccount');
    await world.mined(world.as(ADMIN).write.unpause());
    await world.mined(world.as(ADMIN).write.pause());
    await world.mined(world.as(ADMIN).write.unpause());
    expect(await world.read.paused()).toBe(false);
  });
});

describe('deposits', () => {
  test('a deposit records a stake owned by its sender, in its market pool, with one event saying everything', async () => {
    const market = await world.openMarket('deposit');
    const before = await world.read.liabilities();
    const stakeId = await world.read.nextStakeId();
    const hash = await world
      .as(alice)
      .write.deposit([market.id, market.closesAt, 2, 1, keccak256(toHex('terms')), toHex(42, { size: 32 })], {
        value: parseEther('0.5'),
      });
    const receipt = await world.mined(hash);
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
    expect(event?.args).toEqual({
      stakeId,
      market: market.key,
      owner: address(alice),
      amount: parseEther('0.5'),
      kind: 2,
      side: 1,
      terms: keccak256(toHex('terms')),
      ref: toHex(42, { size: 32 }),
    });
    expect(await world.read.marketKey([market.id, market.closesAt])).toBe(market.key);
    const [pool, closesAt, , state] = await world.read.markets([market.key]);
    expect({ pool, closesAt, state }).toEqual({
      pool: parseEther('0.5'),
      closesAt: market.closesAt,
      state: 1,
    });
    expect(await world.read.liabilities()).toBe(before + parseEther('0.5'));
    expect(await world.read.nextStakeId()).toBe(stakeId + 1n);
    expect(await world.read.stakes([stakeId])).not.toBe(zeroHash);
  });

  test('a deposit of nothing, after the close, with a close too far ahead, or while paused is refused', async () => {
    const market = await world.openMarket('deposit-refusals');
    const value = parseEther('0.1');
    const write = world.as(alice).write;
    await expectRevert(
      write.deposit([market.id, market.closesAt, 1, 1, zeroHash, zeroHash], { value: 0n }),
      'ZeroAmount',
    );
    const now = await world.now();
    await expectRevert(write.deposit([market.id, now, 1, 1, zeroHash, zeroHash], { value }), 'BettingClosed');
    await expectRevert(
      write.deposit([market.id, now + 3 * DAY, 1, 1, zeroHash, zeroHash], { value }),
      'CloseTooFar',
    );
    await world.mined(world.as(GUARDIAN).write.pause());
    await expectRevert(
      write.deposit([market.id, market.closesAt, 1, 1, zeroHash, zeroHash], { value }),
      'EnforcedPause',
    );
    await world.mined(world.as(ADMIN).write.unpause());
    await world.deposit(alice, market, value);
  });

  test('plain transfers and unknown calls revert with DirectTransfer, so nothing arrives without an owner', async () => {
    const revertOf = async (call: { value: bigint; data?: Hex }) =>
      revertedWith(
        await world.publicClient
          .call({ account: world.walletOf(alice).account.address, to: world.address, ...call })
          .then(
            () => undefined,
            (caught: unknown) => caught,
          ),
      );
    expect(await revertOf({ value: parseEther('1') })).toBe('DirectTransfer');
    expect(await revertOf({ value: parseEther('1'), data: '0x12345678' })).toBe('DirectTransfer');
    expect(await revertOf({ value: 0n, data: '0x12345678' })).toBe('DirectTransfer');
  });

  test('a voided market takes no more deposits', async () => {
    const market = await world.openMarket('void-then-deposit');
    await world.deposit(alice, market, parseEther('0.1'));
    await world.mined(world.as(OPERATOR).write.settleAsRefund([market.key, 9, verdict]));
    await expectRevert(
      world.as(bob).write.deposit([market.id, market.closesAt, 1, 1, zeroHash, zeroHash], { value: 1n }),
      'MarketNotOpen',
    );
  });
});

describe('refused deposits', () => {
  test('the operator gives a refused deposit back to its sender, once, and the pool shrinks', async () => {
    const market = await world.openMarket('refused');
    const stake = await world.deposit(alice, market, parseEther('0.3'));
    await world.deposit(bob, market, parseEther('0.2'));
    const balance = await world.publicClient.getBalance({ address: address(alice) });
    await expectRevert(world.as(alice).write.refundStake([stake]), 'NotOperator');
    await expectRevert(
      world.as(OPERATOR).write.refundStake([{ ...stake, owner: address(carol) }]),
      'StakeMismatch',
    );
    await expectRevert(
      world.as(OPERATOR).write.refundStake([{ ...stake, amount: parseEther('0.4') }]),
      'StakeMismatch',
    );
    // Pause never blocks a refund.
    await world.mined(world.as(GUARDIAN).write.pause());
    const receipt = await world.mined(world.as(OPERATOR).write.refundStake([stake]));
    await world.mined(world.as(ADMIN).write.unpause());
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Refunded' });
    expect(event?.args).toEqual({ ...stake });
    expect(await world.publicClient.getBalance({ address: address(alice) })).toBe(
      balance + parseEther('0.3'),
    );
    expect((await world.read.markets([market.key]))[0]).toBe(parseEther('0.2'));
    expect(await world.read.stakes([stake.stakeId])).toBe(zeroHash);
    await expectRevert(world.as(OPERATOR).write.refundStake([stake]), 'StakeMismatch');
  });

  test('a settled market refunds nothing through refundStake (a refusal is then a payout in its list)', async () => {
    const { market, yes, no } = await closedMarket('refused-after-settle');
    await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }]);
    await expectRevert(world.as(OPERATOR).write.refundStake([no]), 'MarketNotOpen');
  });
});

describe('settlements', () => {
  test('a settlement commits the outcome, verdict, root, total and fee, and payouts open after the delay', async () => {
    const { market, yes } = await closedMarket('settle');
    const tree = buildPayoutTree([{ stakeId: yes.stakeId, amount: parseEther('1.9') }]);
    const receipt = await world.mined(
      world
        .as(OPERATOR)
        .write.settle([market.key, 1, verdict, tree.root, parseEther('1.9'), parseEther('0.1'), 900]),
    );
    const now = await world.now();
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Settled' });
    expect(event?.args).toEqual({
      market: market.key,
      outcome: 1,
      verdictHash: verdict,
      payoutRoot: tree.root,
      payoutTotal: parseEther('1.9'),
      fee: parseEther('0.1'),
      claimableAt: BigInt(now + 900),
    });
    const [pool, , claimableAt, state, outcome, payoutRoot, payoutTotal, paid, fee, verdictHash] =
      await world.read.markets([market.key]);
    expect({ pool, claimableAt, state, outcome, payoutRoot, payoutTotal, paid, fee, verdictHash }).toEqual({
      pool: parseEther('2'),
      claimableAt: now + 900,
      state: 2,
      outcome: 1,
      payoutRoot: tree.root,
      payoutTotal: parseEther('1.9'),
      paid: 0n,
      fee: parseEther('0.1'),
      verdictHash: verdict,
    });
  });

  test('a settlement is refused unless the operator posts it, the market has closed and the list is sound', async () => {
    const market = await world.openMarket('settle-refusals');
    const yes = await world.deposit(alice, market, parseEther('1'), 1);
    await world.deposit(bob, market, parseEther('1'), 2);
    const root = buildPayoutTree([{ stakeId: yes.stakeId, amount: parseEther('2') }]).root;
    const settle = (args: Partial<{ root: Hex; total: bigint; fee: bigint; delay: number }> = {}) =>
      world
        .as(OPERATOR)
        .write.settle([
          market.key,
          1,
          verdict,
          args.root ?? root,
          args.total ?? parseEther('2'),
          args.fee ?? 0n,
          args.delay ?? 600,
        ]);
    await expectRevert(
      world.as(alice).write.settle([market.key, 1, verdict, root, parseEther('2'), 0n, 600]),
      'NotOperator',
    );
    await expectRevert(settle(), 'MarketNotClosed');
    await world.travel(HOUR);
    await expectRevert(settle({ root: zeroHash }), 'InvalidRoot');
    await expectRevert(settle({ total: parseEther('1.5') }), 'PoolMismatch');
    await expectRevert(settle({ total: parseEther('2.5') }), 'PoolMismatch');
    await expectRevert(settle({ total: parseEther('1.7'), fee: parseEther('0.3') }), 'FeeTooHigh');
    // No winners is no sweep: the whole pool as a fee is far above the cap.
    await expectRevert(settle({ total: 0n, fee: parseEther('2') }), 'FeeTooHigh');
    await expectRevert(settle({ delay: 599 }), 'DelayOutOfBounds');
    await expectRevert(settle({ delay: 7 * DAY + 1 }), 'DelayOutOfBounds');
    await world.mined(world.as(GUARDIAN).write.pause());
    await expectRevert(settle(), 'EnforcedPause');
    await expectRevert(world.as(OPERATOR).write.settleAsRefund([market.key, 3, verdict]), 'EnforcedPause');
    await world.mined(world.as(ADMIN).write.unpause());
    await expectRevert(
      world.as(OPERATOR).write.settle([keccak256(toHex('nowhere')), 1, verdict, root, 1n, 0n, 600]),
      'NotSettleable',
    );
    // The most a settlement may keep is 10 %.
    await world.mined(settle({ total: parseEther('1.8'), fee: parseEther('0.2') }));
  });

  test('the operator may amend a settlement until its payouts open, never after', async () => {
    const { market, yes, no } = await closedMarket('amend');
    await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }], { outcome: 1 });
    // Overturned in review: NO wins instead.
    const { tree } = await world.settle(market.key, [{ stakeId: no.stakeId, amount: parseEther('2') }], {
      outcome: 2,
    });
    expect((await world.read.markets([market.key]))[5]).toBe(tree.root);
    await world.travel(600);
    await expectRevert(
      world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }]),
      'NotSettleable',
    );
    await expectRevert(world.as(OPERATOR).write.settleAsRefund([market.key, 3, verdict]), 'NotSettleable');
    await world.mined(
      world.as(carol).write.claim([{ stake: no, payout: parseEther('2'), proof: tree.proof(no.stakeId) }]),
    );
  });

  test('settlements draw on a bucket that refills hourly and refuses what is above its level', async () => {
    await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('3'), parseEther('1')]));
    const first = await closedMarket('bucket-1');
    const second = await closedMarket('bucket-2');
    await world.settle(first.market.key, [{ stakeId: first.yes.stakeId, amount: parseEther('2') }]);
    expect(await world.read.settlementAllowance()).toBeLessThan(parseEther('1.01'));
    await expectRevert(
      world.settle(second.market.key, [{ stakeId: second.yes.stakeId, amount: parseEther('2') }]),
      'SettlementRateLimited',
    );
    await world.travel(HOUR);
    expect(await world.read.settlementAllowance()).toBeGreaterThanOrEqual(parseEther('2'));
    await world.settle(second.market.key, [{ stakeId: second.yes.stakeId, amount: parseEther('2') }]);
    await world.travel(3 * HOUR);
    expect(await world.read.settlementAllowance()).toBe(parseEther('3'));
    await world.mined(world.as(ADMIN).write.setSettlementLimit([parseEther('100'), parseEther('100')]));
  });

  test('no settlement is taken once the escape hatch has opened', async () => {
    const { market, yes } = await closedMarket('too-late');
    await world.travel(ESCAPE_DELAY);
    await expectRevert(
      world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }]),
      'SettlementWindowOver',
    );
    await expectRevert(
      world.as(OPERATOR).write.settleAsRefund([market.key, 3, verdict]),
      'SettlementWindowOver',
    );
  });
});

describe('claims', () => {
  test('a winner is paid its listed amount by anyone calling, once, after the delay', async () => {
    const { market, yes, no } = await closedMarket('claim');
    const { tree } = await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }]);
    const claim = { stake: yes, payout: parseEther('2'), proof: tree.proof(yes.stakeId) };
    await expectRevert(world.as(carol).write.claim([claim]), 'NotClaimable');
    await world.travel(600);
    await expectRevert(
      world.as(carol).write.claim([{ ...claim, payout: parseEther('1.5') }]),
      'InvalidProof',
    );
    await expectRevert(world.as(carol).write.claim([{ ...claim, payout: 0n }]), 'ZeroAmount');
    await expectRevert(
      world.as(carol).write.claim([{ ...claim, stake: { ...claim.stake, owner: address(carol) } }]),
      'StakeMismatch',
    );
    await expectRevert(
      world.as(carol).write.claim([{ stake: no, payout: parseEther('2'), proof: tree.proof(yes.stakeId) }]),
      'InvalidProof',
    );
    const balance = await world.publicClient.getBalance({ address: address(alice) });
    const liabilities = await world.read.liabilities();
    const receipt = await world.mined(world.as(carol).write.claim([claim]));
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Claimed' });
    expect(event?.args).toEqual({
      stakeId: yes.stakeId,
      market: market.key,
      owner: address(alice),
      amount: parseEther('2'),
    });
    expect(await world.publicClient.getBalance({ address: address(alice) })).toBe(balance + parseEther('2'));
    expect(await world.read.liabilities()).toBe(liabilities - parseEther('2'));
    expect((await world.read.markets([market.key]))[7]).toBe(parseEther('2'));
    await expectRevert(world.as(carol).write.claim([claim]), 'StakeMismatch');
  });

  test('claimMany pays a batch, and the contract never pays a market more than its committed total', async () => {
    const market = await world.openMarket('claim-many');
    const stakes = [
      await world.deposit(alice, market, parseEther('1')),
      await world.deposit(bob, market, parseEther('1')),
      await world.deposit(carol, market, parseEther('1')),
    ];
    await world.travel(HOUR);
    // An operator's list whose leaves add up to more than the total it declares.
    const tree = buildPayoutTree(
      stakes.map((stake) => ({ stakeId: stake.stakeId, amount: parseEther('1.5') })),
    );
    await world.mined(
      world.as(OPERATOR).write.settle([market.key, 1, verdict, tree.root, parseEther('3'), 0n, 600]),
    );
    await world.travel(600);
    const claims = stakes.map((stake) => ({
      stake,
      payout: parseEther('1.5'),
      proof: tree.proof(stake.stakeId),
    }));
    await world.mined(world.as(dave).write.claimMany([claims.slice(0, 2)]));
    const [, , third] = claims;
    if (!third) throw new Error('three claims');
    await expectRevert(world.as(dave).write.claim([third]), 'PayoutExceedsTotal');
    expect((await world.read.markets([market.key]))[7]).toBe(parseEther('3'));
  });

  test('a claim sent with too little gas for the recipient to get the whole cap is refused, not turned into a credit', async () => {
    const { market, yes } = await closedMarket('starved');
    const { tree } = await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }]);
    await world.travel(600);
    const claim = { stake: yes, payout: parseEther('2'), proof: tree.proof(yes.stakeId) };
    await expectRevert(
      world.publicClient.simulateContract({
        address: world.address,
        abi: predictionEscrowAbi,
        functionName: 'claim',
        args: [claim],
        account: address(carol),
        gas: 70_000n,
      }),
      'InsufficientGas',
    );
    await world.mined(world.as(carol).write.claim([claim]));
  });
});

describe('refunds, vetoes and the escape hatch', () => {
  test("a voided market gives every stake back to its owner, on anyone's call", async () => {
    const { market, yes, no } = await closedMarket('void');
    const receipt = await world.mined(world.as(OPERATOR).write.settleAsRefund([market.key, 3, verdict]));
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Voided' });
    expect(event?.args).toEqual({ market: market.key, outcome: 3, verdictHash: verdict });
    const [aliceBefore = 0n, bobBefore = 0n] = await Promise.all(
      [alice, bob].map((i) => world.publicClient.getBalance({ address: address(i) })),
    );
    await world.mined(world.as(carol).write.refundMany([[yes, no]]));
    expect(await world.publicClient.getBalance({ address: address(alice) })).toBe(
      aliceBefore + parseEther('1'),
    );
    expect(await world.publicClient.getBalance({ address: address(bob) })).toBe(bobBefore + parseEther('1'));
    await expectRevert(world.as(carol).write.refund([yes]), 'StakeMismatch');
    expect((await world.read.markets([market.key]))[0]).toBe(0n);
  });

  test('a market may be voided before its close (taken down), and then refunds', async () => {
    const market = await world.openMarket('void-early');
    const stake = await world.deposit(alice, market, parseEther('0.2'));
    await world.mined(world.as(OPERATOR).write.settleAsRefund([market.key, 3, verdict]));
    await world.mined(world.as(alice).write.refund([stake]));
  });

  test('an open or settled market refunds nothing before the escape hatch opens', async () => {
    const { market, yes } = await closedMarket('no-refund');
    await expectRevert(world.as(alice).write.refund([yes]), 'NotRefundable');
    await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }]);
    await expectRevert(world.as(alice).write.refund([yes]), 'NotRefundable');
    await world.travel(ESCAPE_DELAY + DAY);
    await expectRevert(world.as(alice).write.refund([yes]), 'NotRefundable');
  });

  test('the guardian vetoes a settlement before its payouts open, and the market refunds in full', async () => {
    const { market, yes, no } = await closedMarket('veto');
    await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('1.9') }]);
    await expectRevert(world.as(OPERATOR).write.veto([market.key]), 'NotGuardian');
    const receipt = await world.mined(world.as(GUARDIAN).write.veto([market.key]));
    expect(
      parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Vetoed' }),
    ).toHaveLength(1);
    await expectRevert(world.as(GUARDIAN).write.veto([market.key]), 'NotVetoable');
    await world.mined(world.as(carol).write.refundMany([[yes, no]]));
    await expectRevert(world.as(OPERATOR).write.collectFee([market.key]), 'NoFee');
  });

  test('a final settlement and an unsettled market cannot be vetoed', async () => {
    const { market, yes } = await closedMarket('veto-late');
    await expectRevert(world.as(GUARDIAN).write.veto([market.key]), 'NotVetoable');
    await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }]);
    await world.travel(600);
    await expectRevert(world.as(GUARDIAN).write.veto([market.key]), 'NotVetoable');
  });
});

describe('treasury and reserves', () => {
  test("a final settlement's fee goes to the treasury, once, on anyone's call", async () => {
    const { market, yes } = await closedMarket('fee');
    await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('1.95') }]);
    await expectRevert(world.as(carol).write.collectFee([market.key]), 'NoFee');
    await world.travel(600);
    const balance = await world.publicClient.getBalance({ address: address(TREASURY) });
    const liabilities = await world.read.liabilities();
    const receipt = await world.mined(world.as(carol).write.collectFee([market.key]));
    const [event] = parseEventLogs({
      abi: predictionEscrowAbi,
      logs: receipt.logs,
      eventName: 'FeeCollected',
    });
    expect(event?.args).toEqual({ market: market.key, amount: parseEther('0.05') });
    expect(await world.publicClient.getBalance({ address: address(TREASURY) })).toBe(
      balance + parseEther('0.05'),
    );
    expect(await world.read.liabilities()).toBe(liabilities - parseEther('0.05'));
    await expectRevert(world.as(carol).write.collectFee([market.key]), 'NoFee');
  });

  test('there is no excess to sweep while the balance is what is owed, and nothing to withdraw without a credit', async () => {
    const balance = await world.publicClient.getBalance({ address: world.address });
    expect(balance).toBe(await world.read.liabilities());
    await expectRevert(world.as(carol).write.sweepExcess(), 'NoExcess');
    await expectRevert(world.as(carol).write.withdraw([address(carol)]), 'NothingToWithdraw');
  });
});

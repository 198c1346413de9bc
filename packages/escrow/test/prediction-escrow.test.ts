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
import { depositArgs } from '../src/deposit-terms.ts';
import { buildPayoutTree } from '../src/payout-tree.ts';
import { predictionEscrowAbi, predictionEscrowBytecode } from '../src/prediction-escrow.gen.ts';
import { devAccount } from './chain-clients.ts';
import {
  ADMIN,
  BETTORS,
  createEscrowWorld,
  DAY,
  DISPUTE_BOND_BPS,
  DISPUTE_BOND_MIN,
  ESCAPE_DELAY,
  type EscrowWorld,
  expectRevert,
  GUARDIAN,
  HOUR,
  OPERATOR,
  STATE,
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
  const args = (
    overrides: Partial<
      Record<'operator' | 'treasury' | 'capacity' | 'delay' | 'bondMin' | 'bondBps', unknown>
    > = {},
  ) => [
    address(ADMIN),
    overrides.operator ?? address(OPERATOR),
    address(GUARDIAN),
    overrides.treasury ?? address(TREASURY),
    overrides.capacity ?? parseEther('10'),
    parseEther('10'),
    overrides.delay ?? 600,
    overrides.bondMin ?? DISPUTE_BOND_MIN,
    overrides.bondBps ?? DISPUTE_BOND_BPS,
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
    expect(await world.read.disputeBondMin()).toBe(DISPUTE_BOND_MIN);
    expect(await world.read.disputeBondBps()).toBe(DISPUTE_BOND_BPS);
    expect(await world.read.MAX_DISPUTES()).toBe(3);
  });

  test('a deployment without a treasury, with the admin as operator, or with limits out of bounds is refused', async () => {
    await expectDeployRevert(args({ treasury: zeroAddress }), 'ZeroAddress');
    await expectDeployRevert(args({ operator: address(ADMIN) }), 'OperatorIsAdmin');
    await expectDeployRevert(args({ capacity: parseEther('20000') }), 'LimitOutOfBounds');
    await expectDeployRevert(args({ delay: 10 }), 'DelayOutOfBounds');
  });

  test('the dispute bond is fixed at deploy within its constant bounds: a floor of 0.001 to 10 BNB, at most 20 % of the pool', async () => {
    expect(await world.read.MIN_DISPUTE_BOND_MIN()).toBe(parseEther('0.001'));
    expect(await world.read.MAX_DISPUTE_BOND_MIN()).toBe(parseEther('10'));
    expect(await world.read.MAX_DISPUTE_BOND_BPS()).toBe(2000n);
    await expectDeployRevert(args({ bondMin: parseEther('0.001') - 1n }), 'DisputeBondOutOfBounds');
    await expectDeployRevert(args({ bondMin: parseEther('10') + 1n }), 'DisputeBondOutOfBounds');
    await expectDeployRevert(args({ bondMin: 0n }), 'DisputeBondOutOfBounds');
    await expectDeployRevert(args({ bondBps: 2001 }), 'DisputeBondOutOfBounds');
    // The bounds themselves deploy.
    for (const bounds of [
      { bondMin: parseEther('0.001'), bondBps: 0 },
      { bondMin: parseEther('10'), bondBps: 2000 },
    ]) {
      const data = encodeDeployData({
        abi: predictionEscrowAbi,
        bytecode: predictionEscrowBytecode,
        // biome-ignore lint/suspicious/noExplicitAny: the constructor's tuple type, built above
        args: args(bounds) as any,
      });
      await world.publicClient.call({ account: address(ADMIN), data });
    }
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
    const { pool, closesAt, state } = await world.market(market.key);
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
    expect((await world.market(market.key)).pool).toBe(parseEther('0.2'));
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
    expect(await world.market(market.key)).toEqual({
      pool: parseEther('2'),
      closesAt: market.closesAt,
      claimableAt: now + 900,
      state: 2,
      outcome: 1,
      disputes: 0,
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
    expect((await world.market(market.key)).payoutRoot).toBe(tree.root);
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
    expect((await world.market(market.key)).paid).toBe(parseEther('2'));
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
    expect((await world.market(market.key)).paid).toBe(parseEther('3'));
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
    expect((await world.market(market.key)).pool).toBe(0n);
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

describe('disputes (flag bonds)', () => {
  /** A flag's bond of `value` into `market`, as `bettor` (the transaction, unmined: for refusals). */
  const flag = (bettor: number, market: { id: Hex; closesAt: number }, value: bigint) =>
    world
      .as(bettor)
      .write.deposit(depositArgs({ kind: 'flag', market: market.id, closesAt: market.closesAt }), { value });

  /** A closed market (alice YES 1, bob NO 1) settled for YES (1.9, fee 0.1), its payouts `delay` away. */
  async function pendingMarket(name: string, delay = 600) {
    const { market, yes, no } = await closedMarket(name);
    const { tree } = await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('1.9') }], {
      delay,
    });
    return { market, yes, no, tree };
  }

  const balanceOf = (index: number) => world.publicClient.getBalance({ address: address(index) });

  test('a bond into a pending settlement disputes it: the market reopens past its close and the settlement is withdrawn', async () => {
    const { market, yes, tree } = await pendingMarket('dispute');
    const settled = await world.market(market.key);
    // 5 % of the 2 BNB pool, above the 0.01 BNB floor.
    expect(await world.read.disputeBond([market.key])).toBe(parseEther('0.1'));
    const liabilities = await world.read.liabilities();
    const stakeId = await world.read.nextStakeId();

    const { stake, disputes, receipt } = await world.dispute(carol, market, parseEther('0.1'));
    expect(disputes).toBe(1);
    expect(stake).toEqual({ stakeId, owner: address(carol), market: market.key, amount: parseEther('0.1') });
    const events = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs });
    expect(events.map((event) => event.eventName)).toEqual(['Deposited', 'Disputed']);
    expect(events[0]?.args).toMatchObject({ kind: 4, side: 0, terms: zeroHash });
    expect(events[1]?.args).toEqual({ market: market.key, stakeId, disputes: 1 });
    // The pending settlement's commitment is gone; its verdict stays on record until the next one.
    expect(await world.market(market.key)).toEqual({
      ...settled,
      pool: parseEther('2.1'),
      claimableAt: 0,
      state: STATE.Open,
      disputes: 1,
      payoutRoot: zeroHash,
      payoutTotal: 0n,
      fee: 0n,
    });
    expect(await world.read.liabilities()).toBe(liabilities + parseEther('0.1'));
    expect(await world.read.stakes([stakeId])).not.toBe(zeroHash);

    // A second flag in the same window finds the market reopened past its close: refused, nothing taken.
    await expectRevert(flag(dave, market, parseEther('1')), 'BettingClosed');
    // Nothing of the withdrawn settlement pays, even past its delay; no bet can join the market.
    await world.travel(600);
    await expectRevert(
      world.as(dave).write.claim([{ stake: yes, payout: parseEther('1.9'), proof: tree.proof(yes.stakeId) }]),
      'NotClaimable',
    );
    await expectRevert(world.as(dave).write.collectFee([market.key]), 'NoFee');
    await expectRevert(world.as(GUARDIAN).write.veto([market.key]), 'NotVetoable');
    await expectRevert(world.as(alice).write.refund([yes]), 'NotRefundable');
    await expectRevert(
      world
        .as(dave)
        .write.deposit([market.id, market.closesAt, 2, 1, zeroHash, zeroHash], { value: parseEther('1') }),
      'BettingClosed',
    );
  });

  test('the bond is the larger of the floor and the pool share, rounded down: one wei less is refused with both figures', async () => {
    // A pool of 2 BNB: 5 % is 0.1 BNB, above the floor.
    const share = await pendingMarket('bond-share');
    const bond = parseEther('0.1');
    expect(await world.read.disputeBond([share.market.key])).toBe(bond);
    await expectRevert(flag(carol, share.market, bond - 1n), 'BondTooLow', [bond - 1n, bond]);
    await world.dispute(carol, share.market, bond);
    // Earlier bonds are part of the pool: the next dispute asks 5 % of 2.1 BNB.
    expect(await world.read.disputeBond([share.market.key])).toBe(parseEther('0.105'));

    // A pool of 0.1 BNB: 5 % is 0.005 BNB, below the floor of 0.01.
    const small = await world.openMarket('bond-floor');
    const stake = await world.deposit(alice, small, parseEther('0.1'));
    await world.travel(HOUR);
    await world.settle(small.key, [{ stakeId: stake.stakeId, amount: parseEther('0.1') }]);
    expect(await world.read.disputeBond([small.key])).toBe(DISPUTE_BOND_MIN);
    await expectRevert(flag(carol, small, DISPUTE_BOND_MIN - 1n), 'BondTooLow', [
      DISPUTE_BOND_MIN - 1n,
      DISPUTE_BOND_MIN,
    ]);
    // Above the bond is a dispute too (whether the server takes it is the server's rule).
    await world.dispute(carol, small, DISPUTE_BOND_MIN + 1n);

    // Rounded down: 5 % of 2 BNB + 19 wei is still 0.1 BNB.
    const odd = await world.openMarket('bond-rounding');
    const oddStake = await world.deposit(alice, odd, parseEther('2') + 19n);
    await world.travel(HOUR);
    await world.settle(odd.key, [{ stakeId: oddStake.stakeId, amount: parseEther('2') + 19n }]);
    expect(await world.read.disputeBond([odd.key])).toBe(bond);
    await world.dispute(carol, odd, bond);
  });

  test("a deployment's floor and share decide the bond: the floor below it, the share above", async () => {
    const escrow = await world.deployEscrow({ disputeBondMin: parseEther('0.5'), disputeBondBps: 2000 });
    const read = world.escrowAt(escrow, ADMIN).read;
    const market = await world.openMarket('bond-deployment');
    await world.deposit(alice, market, parseEther('2'), 1, escrow);
    // 20 % of 2 BNB is 0.4: the floor, 0.5, wins.
    expect(await read.disputeBond([market.key])).toBe(parseEther('0.5'));
    await world.deposit(bob, market, parseEther('1'), 2, escrow);
    // 20 % of 3 BNB is 0.6.
    expect(await read.disputeBond([market.key])).toBe(parseEther('0.6'));
    // No share at all: the floor, whatever the pool.
    const flat = await world.deployEscrow({ disputeBondMin: parseEther('0.001'), disputeBondBps: 0 });
    await world.deposit(alice, market, parseEther('5'), 1, flat);
    expect(await world.escrowAt(flat, ADMIN).read.disputeBond([market.key])).toBe(parseEther('0.001'));
  });

  test('a market is disputed at most MAX_DISPUTES times; its last settlement then pays, bonds forfeited to the winner', async () => {
    const { market, yes } = await pendingMarket('exhausted');
    for (const count of [1, 2, 3]) {
      const bond = await world.read.disputeBond([market.key]);
      const { disputes } = await world.dispute(carol, market, bond);
      expect(disputes).toBe(count);
      // The verdict is confirmed each time: the forfeited bonds join the winner's share.
      const { pool } = await world.market(market.key);
      await world.settle(market.key, [{ stakeId: yes.stakeId, amount: pool }]);
    }
    const bond = await world.read.disputeBond([market.key]);
    await expectRevert(flag(dave, market, bond), 'DisputesExhausted', [market.key]);
    const { pool, disputes, state } = await world.market(market.key);
    expect({ disputes, state }).toEqual({ disputes: 3, state: STATE.Settled });
    await world.travel(600);
    const before = await balanceOf(alice);
    const tree = buildPayoutTree([{ stakeId: yes.stakeId, amount: pool }]);
    await world.mined(
      world.as(dave).write.claim([{ stake: yes, payout: pool, proof: tree.proof(yes.stakeId) }]),
    );
    expect(await balanceOf(alice)).toBe(before + pool);
  });

  test('a dispute is refused once payouts opened, into a voided or vetoed market, and while paused', async () => {
    // Until its payouts open, a settlement may be disputed; from then on, never.
    const late = await pendingMarket('dispute-late');
    await world.travel(590);
    await world.dispute(carol, late.market, parseEther('0.1'));
    await world.settle(late.market.key, [{ stakeId: late.yes.stakeId, amount: parseEther('2.1') }]);
    await world.travel(600);
    await expectRevert(flag(dave, late.market, parseEther('1')), 'MarketNotOpen', [
      late.market.key,
      STATE.Settled,
    ]);

    const voided = await closedMarket('dispute-voided');
    await world.mined(world.as(OPERATOR).write.settleAsRefund([voided.market.key, 3, verdict]));
    await expectRevert(flag(carol, voided.market, parseEther('1')), 'MarketNotOpen', [
      voided.market.key,
      STATE.Refunding,
    ]);

    const vetoed = await pendingMarket('dispute-vetoed');
    await world.mined(world.as(GUARDIAN).write.veto([vetoed.market.key]));
    await expectRevert(flag(carol, vetoed.market, parseEther('1')), 'MarketNotOpen', [
      vetoed.market.key,
      STATE.Refunding,
    ]);

    // Pause stops every deposit, disputes included; the guardian's veto is the remedy meanwhile.
    const paused = await pendingMarket('dispute-paused');
    await world.mined(world.as(GUARDIAN).write.pause());
    await expectRevert(flag(carol, paused.market, parseEther('0.1')), 'EnforcedPause');
    await world.mined(world.as(ADMIN).write.unpause());
    await world.dispute(carol, paused.market, parseEther('0.1'));
  });

  test('a settlement still pending when the settlement window closes can no longer be disputed', async () => {
    const { market, yes } = await closedMarket('dispute-window');
    await world.travel(ESCAPE_DELAY - HOUR);
    const { tree } = await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('2') }], {
      delay: DAY,
    });
    await world.travel(2 * HOUR);
    await expectRevert(flag(carol, market, parseEther('0.1')), 'SettlementWindowOver', [
      market.key,
      BigInt(market.closesAt + ESCAPE_DELAY),
    ]);
    // The settlement stands: it pays once its delay runs out.
    await world.travel(DAY);
    await world.mined(
      world.as(dave).write.claim([{ stake: yes, payout: parseEther('2'), proof: tree.proof(yes.stakeId) }]),
    );
  });

  test('after a dispute the operator settles again, the bond a leaf of the new list, and payouts open after the new delay', async () => {
    const { market, yes, no, tree: disputed } = await pendingMarket('resettle');
    const { stake: bond } = await world.dispute(carol, market, parseEther('0.1'));
    // Overturned in review: NO wins, and the bond comes back with the market's fee as its reward.
    const payouts = [
      { stakeId: no.stakeId, amount: parseEther('1.9') },
      { stakeId: bond.stakeId, amount: parseEther('0.2') },
    ];
    const { tree } = await world.settle(market.key, payouts, { outcome: 2, delay: 900 });
    const now = await world.now();
    expect(await world.market(market.key)).toMatchObject({
      pool: parseEther('2.1'),
      state: STATE.Settled,
      outcome: 2,
      disputes: 1,
      claimableAt: now + 900,
      payoutRoot: tree.root,
      payoutTotal: parseEther('2.1'),
      fee: 0n,
    });
    const claims = [
      { stake: no, payout: parseEther('1.9'), proof: tree.proof(no.stakeId) },
      { stake: bond, payout: parseEther('0.2'), proof: tree.proof(bond.stakeId) },
    ];
    await world.travel(600);
    await expectRevert(world.as(dave).write.claimMany([claims]), 'NotClaimable');
    await world.travel(300);
    const [bobBefore, carolBefore] = [await balanceOf(bob), await balanceOf(carol)];
    await world.mined(world.as(dave).write.claimMany([claims]));
    expect(await balanceOf(bob)).toBe(bobBefore + parseEther('1.9'));
    expect(await balanceOf(carol)).toBe(carolBefore + parseEther('0.2'));
    // The withdrawn list pays nothing.
    await expectRevert(
      world
        .as(dave)
        .write.claim([{ stake: yes, payout: parseEther('1.9'), proof: disputed.proof(yes.stakeId) }]),
      'InvalidProof',
    );
  });

  test('the operator refunds a bond it refuses, and settles the market as before', async () => {
    const { market, yes } = await pendingMarket('refused-bond');
    const { stake: bond } = await world.dispute(carol, market, parseEther('0.5'));
    const before = await balanceOf(carol);
    await world.mined(world.as(OPERATOR).write.refundStake([bond]));
    expect(await balanceOf(carol)).toBe(before + parseEther('0.5'));
    expect((await world.market(market.key)).pool).toBe(parseEther('2'));
    const { tree } = await world.settle(market.key, [{ stakeId: yes.stakeId, amount: parseEther('1.9') }]);
    await world.travel(600);
    await world.mined(
      world.as(dave).write.claim([{ stake: yes, payout: parseEther('1.9'), proof: tree.proof(yes.stakeId) }]),
    );
    const treasury = await balanceOf(TREASURY);
    await world.mined(world.as(dave).write.collectFee([market.key]));
    expect(await balanceOf(TREASURY)).toBe(treasury + parseEther('0.1'));
  });

  test('a disputed market may be voided: every stake, the bond included, goes back', async () => {
    const { market, yes, no } = await pendingMarket('dispute-void');
    const { stake: bond } = await world.dispute(carol, market, parseEther('0.1'));
    await world.mined(world.as(OPERATOR).write.settleAsRefund([market.key, 3, verdict]));
    const before = await balanceOf(carol);
    await world.mined(world.as(dave).write.refundMany([[yes, no, bond]]));
    expect(await balanceOf(carol)).toBe(before + parseEther('0.1'));
    expect((await world.market(market.key)).pool).toBe(0n);
  });

  test('the guardian vetoes a settlement posted after a dispute, and a dispute left unanswered ends in the escape hatch', async () => {
    const answered = await pendingMarket('dispute-then-veto');
    const { stake: first } = await world.dispute(carol, answered.market, parseEther('0.1'));
    await world.settle(answered.market.key, [{ stakeId: answered.yes.stakeId, amount: parseEther('2.1') }]);
    await world.mined(world.as(GUARDIAN).write.veto([answered.market.key]));
    await world.mined(world.as(dave).write.refundMany([[answered.yes, answered.no, first]]));

    const unanswered = await pendingMarket('dispute-then-escape');
    const { stake: bond } = await world.dispute(carol, unanswered.market, parseEther('0.1'));
    await world.travel(ESCAPE_DELAY - HOUR);
    await expectRevert(world.as(carol).write.refund([bond]), 'NotRefundable');
    await world.travel(HOUR);
    const before = await balanceOf(carol);
    const receipt = await world.mined(world.as(dave).write.refund([bond]));
    expect(
      parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Escaped' }),
    ).toHaveLength(1);
    expect(await balanceOf(carol)).toBe(before + parseEther('0.1'));
    await world.mined(world.as(dave).write.refundMany([[unanswered.yes, unanswered.no]]));
    expect((await world.market(unanswered.market.key)).pool).toBe(0n);
    await expectRevert(
      world.as(OPERATOR).write.settleAsRefund([unanswered.market.key, 3, verdict]),
      'NotSettleable',
    );
  });
});

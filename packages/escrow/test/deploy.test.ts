import { type Address, type Hex, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeRevert } from '../src/decode-revert.ts';
import {
  deployEscrow,
  ESCROW_CONSTANTS,
  type EscrowDeployment,
  EscrowNotFoundError,
  EscrowRevertError,
  expectedRuntimeCodeHash,
  readEscrowLevels,
  readEscrowStatus,
  runtimeCodeHash,
} from '../src/deploy.ts';
import { buildPayoutTree } from '../src/payout-tree.ts';
import { predictionEscrowAbi, predictionEscrowDeployedBytecode } from '../src/prediction-escrow.gen.ts';
import { forceFeederAbi, forceFeederBytecode } from './attackers.gen.ts';
import { devAccount } from './chain-clients.ts';
import {
  ADMIN,
  BETTORS,
  createEscrowWorld,
  type EscrowWorld,
  GUARDIAN,
  HOUR,
  OPERATOR,
  TREASURY,
} from './escrow-fixture.ts';

// src/deploy.ts on a Hardhat node (Prague): a deployment that checks what it made, the constructor's
// refusals before anything is sent, and a status read whole at one block.

let world: EscrowWorld;
beforeAll(async () => {
  world = await createEscrowWorld();
});
afterAll(() => world?.stop());

const address = (index: number) => devAccount(index).address;
const [alice, bob] = BETTORS;

const deployment = (overrides: Partial<EscrowDeployment> = {}): EscrowDeployment => ({
  admin: address(ADMIN),
  operator: address(OPERATOR),
  guardian: address(GUARDIAN),
  treasury: address(TREASURY),
  settlementCapacity: parseEther('50'),
  settlementRefillPerHour: parseEther('5'),
  minPayoutDelay: 300,
  disputeBondMin: parseEther('0.02'),
  disputeBondBps: 250,
  ...overrides,
});

const deploy = (overrides: Partial<EscrowDeployment> = {}, from = ADMIN) =>
  deployEscrow(world.walletOf(from), world.publicClient, deployment(overrides));

async function refusal(action: Promise<unknown>): Promise<EscrowRevertError> {
  const error = await action.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof EscrowRevertError)) throw new Error(`expected an EscrowRevertError, got ${error}`);
  return error;
}

describe('deployEscrow', () => {
  test('deploys, waits for the receipt and answers where; the contract is what was asked for', async () => {
    const deployed = await deploy();
    const receipt = await world.publicClient.getTransactionReceipt({ hash: deployed.transactionHash });
    expect(receipt).toMatchObject({ status: 'success', contractAddress: deployed.address.toLowerCase() });
    expect(deployed.blockNumber).toBe(receipt.blockNumber);

    const status = await readEscrowStatus(world.publicClient, deployed.address);
    expect(status).toMatchObject({
      address: deployed.address,
      chainId: 31337,
      owner: address(ADMIN),
      pendingOwner: null,
      operator: address(OPERATOR),
      guardian: address(GUARDIAN),
      treasury: address(TREASURY),
      paused: false,
      settlementCapacity: parseEther('50'),
      settlementRefillPerHour: parseEther('5'),
      settlementAllowance: parseEther('50'),
      minPayoutDelay: 300,
      disputeBondMin: parseEther('0.02'),
      disputeBondBps: 250,
      nextStakeId: 1n,
      balance: 0n,
      liabilities: 0n,
      excess: 0n,
      codeHash: expectedRuntimeCodeHash(),
    });
    expect(status.constants).toMatchObject({
      MAX_FEE_BPS: 1000n,
      ESCAPE_DELAY: 7n * 86_400n,
      MAX_BETTING_PERIOD: 2n * 86_400n,
      PAYOUT_GAS_CAP: 50_000n,
      MIN_PAYOUT_DELAY: 60n,
      MAX_PAYOUT_DELAY: 7n * 86_400n,
      MIN_SETTLEMENT_CAPACITY: parseEther('0.1'),
      MAX_SETTLEMENT_CAPACITY: parseEther('10000'),
      MAX_DISPUTES: 3n,
      MIN_DISPUTE_BOND_MIN: parseEther('0.001'),
      MAX_DISPUTE_BOND_MIN: parseEther('10'),
      MAX_DISPUTE_BOND_BPS: 2000n,
    });
    expect(Object.keys(status.constants).sort()).toEqual([...ESCROW_CONSTANTS].sort());
  });

  test('the deployer need not be the admin (a Safe as admin, deployed from a plain key)', async () => {
    const deployed = await deploy({ admin: address(bob) }, alice);
    expect((await readEscrowStatus(world.publicClient, deployed.address)).owner).toBe(address(bob));
  });

  test('a constructor that would revert is refused with its custom error, and nothing is sent', async () => {
    const nonce = await world.publicClient.getTransactionCount({ address: address(ADMIN) });
    const asAdmin = await refusal(deploy({ operator: address(ADMIN) }));
    expect(asAdmin.errorName).toBe('OperatorIsAdmin');
    expect(asAdmin.message).toBe('PredictionEscrow reverted: OperatorIsAdmin()');
    expect((await refusal(deploy({ settlementCapacity: parseEther('0.01') }))).errorName).toBe(
      'LimitOutOfBounds',
    );
    const delay = await refusal(deploy({ minPayoutDelay: 30 }));
    expect(delay.errorName).toBe('DelayOutOfBounds');
    expect(delay.args).toEqual([30n]);
    expect(
      (await refusal(deploy({ guardian: '0x0000000000000000000000000000000000000000' }))).errorName,
    ).toBe('ZeroAddress');
    expect(await world.publicClient.getTransactionCount({ address: address(ADMIN) })).toBe(nonce);
  });
});

describe('readEscrowStatus', () => {
  test('every figure at the block asked for: before a deposit, after it, after BNB forced in', async () => {
    const { address: escrow } = await deploy();
    const before = await world.publicClient.getBlockNumber({ cacheTime: 0 });
    const market = await world.openMarket('status at a block', HOUR);
    await world.deposit(alice, market, parseEther('2'), 1, escrow);
    const afterDeposit = await world.publicClient.getBlockNumber({ cacheTime: 0 });
    await world.mined(
      world.walletOf(bob).deployContract({
        abi: forceFeederAbi,
        bytecode: forceFeederBytecode,
        args: [escrow],
        value: parseEther('0.5'),
      }),
    );

    const then = await readEscrowStatus(world.publicClient, escrow, { blockNumber: before });
    expect(then).toMatchObject({
      blockNumber: before,
      balance: 0n,
      liabilities: 0n,
      excess: 0n,
      nextStakeId: 1n,
    });
    const deposited = await readEscrowStatus(world.publicClient, escrow, { blockNumber: afterDeposit });
    expect(deposited).toMatchObject({
      blockNumber: afterDeposit,
      balance: parseEther('2'),
      liabilities: parseEther('2'),
      excess: 0n,
      nextStakeId: 2n,
    });
    const now = await readEscrowStatus(world.publicClient, escrow);
    expect(now.blockNumber).toBe(await world.publicClient.getBlockNumber({ cacheTime: 0 }));
    expect(now).toMatchObject({
      balance: parseEther('2.5'),
      liabilities: parseEther('2'),
      excess: parseEther('0.5'),
    });
    expect(await readEscrowLevels(world.publicClient, escrow, { blockNumber: afterDeposit })).toEqual({
      address: escrow,
      blockNumber: afterDeposit,
      balance: parseEther('2'),
      liabilities: parseEther('2'),
      excess: 0n,
      settlementAllowance: parseEther('50'),
      paused: false,
    });
  });

  test('the bucket level and the pause as the contract has them', async () => {
    const { address: escrow } = await deploy();
    const market = await world.openMarket('bucket', HOUR);
    const stake = await world.deposit(alice, market, parseEther('3'), 1, escrow);
    await world.travel(HOUR);
    const guardian = world.escrowAt(escrow, GUARDIAN);
    await world.mined(guardian.write.pause());
    const paused = await readEscrowLevels(world.publicClient, escrow);
    expect(paused.paused).toBe(true);
    await world.mined(world.escrowAt(escrow, ADMIN).write.unpause());
    // A settlement drawing 3 BNB of payouts from the 50 BNB bucket.
    const operator = world.escrowAt(escrow, OPERATOR);
    const tree = buildPayoutTree([{ stakeId: stake.stakeId, amount: parseEther('3') }]);
    await world.mined(
      operator.write.settle([stake.market, 1, toHex(1, { size: 32 }), tree.root, tree.total, 0n, 300]),
    );
    const settled = await readEscrowLevels(world.publicClient, escrow);
    expect(settled.paused).toBe(false);
    expect(settled.settlementAllowance).toBe(parseEther('47'));
  });

  test('an address without code: EscrowNotFoundError naming it and the block', async () => {
    const block = await world.publicClient.getBlockNumber({ cacheTime: 0 });
    const nobody = address(bob);
    const error = await readEscrowStatus(world.publicClient, nobody, { blockNumber: block }).catch((e) => e);
    expect(error).toBeInstanceOf(EscrowNotFoundError);
    expect(error.message).toBe(`No contract at ${nobody} at block ${block}`);
  });
});

describe('the runtime code hash', () => {
  test('is the same whatever the immutables (treasury, dispute bond), and differs for other code', async () => {
    const one = await deploy({ treasury: address(TREASURY) });
    const other = await deploy({
      treasury: address(bob),
      disputeBondMin: parseEther('1'),
      disputeBondBps: 0,
    });
    const codeOf = async (at: Address) => (await world.publicClient.getCode({ address: at })) as Hex;
    const [oneCode, otherCode] = await Promise.all([codeOf(one.address), codeOf(other.address)]);
    expect(oneCode).not.toBe(otherCode);
    expect(runtimeCodeHash(oneCode)).toBe(expectedRuntimeCodeHash());
    expect(runtimeCodeHash(otherCode)).toBe(expectedRuntimeCodeHash());
    // The artifact's runtime code is the deployed one with zeros for the treasury.
    expect(runtimeCodeHash(predictionEscrowDeployedBytecode)).toBe(expectedRuntimeCodeHash());
    const flipped = `${oneCode.slice(0, -2)}${oneCode.endsWith('00') ? '01' : '00'}` as Hex;
    expect(runtimeCodeHash(flipped)).not.toBe(expectedRuntimeCodeHash());
  });
});

describe('decodeRevert', () => {
  test("a contract call's revert, by name and arguments; anything else is not one", async () => {
    const error = await world.publicClient
      .simulateContract({
        address: world.address,
        abi: predictionEscrowAbi,
        functionName: 'veto',
        args: [toHex(9, { size: 32 })],
        account: address(OPERATOR),
      })
      .catch((caught: unknown) => caught);
    expect(decodeRevert(error)).toEqual({ errorName: 'NotGuardian', args: [] });
    const unpause = await world.publicClient
      .simulateContract({
        address: world.address,
        abi: predictionEscrowAbi,
        functionName: 'unpause',
        account: address(GUARDIAN),
      })
      .catch((caught: unknown) => caught);
    expect(decodeRevert(unpause)).toEqual({
      errorName: 'OwnableUnauthorizedAccount',
      args: [address(GUARDIAN)],
    });
    expect(decodeRevert(new Error('socket hang up'))).toBeUndefined();
    expect(decodeRevert(undefined)).toBeUndefined();
  });
});

import { type Address, getContract, parseEther, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  deployMarketEscrow,
  MarketEscrowDeployError,
  type MarketEscrowSettings,
  marketEscrowCodeHash,
  marketEscrowRuntimeCodeHash,
} from '../src/deploy-market-escrow.ts';
import { marketEscrowAbi, marketEscrowDeployedBytecode } from '../src/market-escrow.gen.ts';
import { devAccount } from './chain-clients.ts';
import {
  ADMIN,
  BETTORS,
  createMarketEscrowWorld,
  GUARDIAN,
  type MarketEscrowWorld,
  OPERATOR,
  TREASURY,
} from './market-escrow-world.ts';

// src/deploy-market-escrow.ts on a Hardhat node: a deployment built from named settings that checks what
// it made and says its block, and the constructor's refusals decoded before anything is sent.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

const address = (index: number): Address => devAccount(index).address;
const [alice] = BETTORS;

const settings = (overrides: Partial<MarketEscrowSettings> = {}): MarketEscrowSettings => ({
  admin: address(ADMIN),
  operator: address(OPERATOR),
  guardian: address(GUARDIAN),
  treasury: address(TREASURY),
  settlementCapacity: parseEther('50'),
  settlementRefillPerHour: parseEther('5'),
  minPayoutDelay: 300,
  disputeBondMin: parseEther('0.02'),
  disputeBondBps: 250,
  roundFeeBps: 300,
  priceMarketFeeBps: 150,
  maxPriceAge: 90,
  feeds: world.feeds.map((feed) => feed.proxy),
  ...overrides,
});

const deploy = (overrides: Partial<MarketEscrowSettings> = {}, from = ADMIN) =>
  deployMarketEscrow(world.walletOf(from), world.publicClient, settings(overrides));

async function refusal(action: Promise<unknown>): Promise<MarketEscrowDeployError> {
  const error = await action.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof MarketEscrowDeployError))
    throw new Error(`expected a MarketEscrowDeployError, got ${error}`);
  return error;
}

describe('deployMarketEscrow', () => {
  test('deploys from named settings and answers where and in which block; the contract holds the settings', async () => {
    const deployed = await deploy({}, alice);
    const receipt = await world.publicClient.getTransactionReceipt({ hash: deployed.transactionHash });
    expect(receipt).toMatchObject({ status: 'success', contractAddress: deployed.address.toLowerCase() });
    expect(deployed.blockNumber).toBe(receipt.blockNumber);

    const { read } = getContract({
      address: deployed.address,
      abi: marketEscrowAbi,
      client: world.publicClient,
    });
    expect(await read.owner()).toBe(address(ADMIN));
    expect(await read.operator()).toBe(address(OPERATOR));
    expect(await read.guardian()).toBe(address(GUARDIAN));
    expect(await read.treasury()).toBe(address(TREASURY));
    expect(await read.settlementCapacity()).toBe(parseEther('50'));
    expect(await read.settlementRefillPerHour()).toBe(parseEther('5'));
    expect(await read.minPayoutDelay()).toBe(300);
    expect(await read.disputeBondMin()).toBe(parseEther('0.02'));
    expect(await read.disputeBondBps()).toBe(250);
    expect(await read.roundFeeBps()).toBe(300);
    expect(await read.priceMarketFeeBps()).toBe(150);
    expect(await read.maxPriceAge()).toBe(90);
    expect(await read.coinCount()).toBe(world.feeds.length);
    for (const [coin, feed] of world.feeds.entries()) expect(await read.feeds([coin])).toBe(feed.proxy);
  });

  test('the runtime code hash is the same for any settings, and is this build’s', async () => {
    const one = await deploy();
    const two = await deploy({
      treasury: address(alice),
      roundFeeBps: 0,
      maxPriceAge: 3600,
      feeds: [world.feeds[0]?.proxy ?? zeroAddress],
    });
    const codeOne = await world.publicClient.getCode({ address: one.address });
    const codeTwo = await world.publicClient.getCode({ address: two.address });
    if (!codeOne || !codeTwo) throw new Error('no code');
    expect(codeOne).not.toBe(codeTwo);
    expect(marketEscrowCodeHash(codeOne)).toBe(marketEscrowRuntimeCodeHash());
    expect(marketEscrowCodeHash(codeTwo)).toBe(marketEscrowRuntimeCodeHash());
    expect(marketEscrowRuntimeCodeHash()).toBe(marketEscrowCodeHash(marketEscrowDeployedBytecode));
  });

  test('a constructor that would revert is refused with its custom error, and nothing is sent', async () => {
    const nonce = await world.publicClient.getTransactionCount({ address: address(ADMIN) });
    const refusals: Array<[Partial<MarketEscrowSettings>, string]> = [
      [{ feeds: [] }, 'BadConfig'],
      [{ feeds: [address(alice)] }, 'BadConfig'],
      [{ roundFeeBps: 1001 }, 'BadConfig'],
      [{ priceMarketFeeBps: 1001 }, 'BadConfig'],
      [{ maxPriceAge: 9 }, 'BadConfig'],
      [{ disputeBondBps: 2001 }, 'BadConfig'],
      [{ disputeBondMin: parseEther('0.0009') }, 'BadConfig'],
      [{ treasury: zeroAddress }, 'ZeroAddress'],
      [{ operator: address(ADMIN) }, 'OperatorIsAdmin'],
      [{ settlementCapacity: parseEther('0.01') }, 'LimitOutOfBounds'],
      [{ minPayoutDelay: 59 }, 'DelayOutOfBounds'],
    ];
    for (const [overrides, errorName] of refusals) {
      const error = await refusal(deploy(overrides));
      expect(
        error.errorName,
        JSON.stringify(overrides, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
      ).toBe(errorName);
      expect(error.message).toContain(errorName);
    }
    expect(await world.publicClient.getTransactionCount({ address: address(ADMIN) })).toBe(nonce);
  });
});

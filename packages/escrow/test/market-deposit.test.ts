import { type Address, keccak256, type Log, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deployMarketEscrow } from '../src/deploy-market-escrow.ts';
import {
  decodeMarketDeposits,
  type MarketDepositEvent,
  matchesMarketDeposit,
} from '../src/market-deposits/decode-market-deposits.ts';
import {
  type MarketDeposit,
  marketDepositCall,
  marketDepositKey,
} from '../src/market-deposits/market-deposit.ts';
import {
  DEPOSIT_BET,
  DEPOSIT_CREATE,
  DEPOSIT_DISPUTE,
  DEPOSIT_ROUND,
} from '../src/market-escrow-constants.ts';
import { devAccount } from './chain-clients.ts';
import {
  ADMIN,
  BETTORS,
  BNB,
  BTC,
  createMarketEscrowWorld,
  GUARDIAN,
  HOUR,
  type MarketEscrowWorld,
  MINUTE,
  OPERATOR,
  refOf,
  TREASURY,
} from './market-escrow-world.ts';

// Each deposit kind as the web will send it: built by marketDepositCall, sent as a raw transaction,
// read back from its receipt by decodeMarketDeposits and recognised by matchesMarketDeposit, and by
// nothing else.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

const [alice, bob, carol] = BETTORS;
const address = (index: number): Address => devAccount(index).address;

/** Sends `deposit` from `bettor` as a raw transaction; answers its receipt's logs and decoded deposits. */
async function send(bettor: number, deposit: MarketDeposit, amount: bigint, escrow: Address = world.address) {
  const call = marketDepositCall(escrow, deposit, amount, refOf(bettor));
  const receipt = await world.mined(world.walletOf(bettor).sendTransaction(call));
  return { logs: receipt.logs, deposits: decodeMarketDeposits(world.address, receipt.logs) };
}

/** The one deposit of a receipt, with the key its deposit predicted and who sent it. */
function only(deposits: MarketDepositEvent[], deposit: MarketDeposit, bettor: number, amount: bigint) {
  expect(deposits).toHaveLength(1);
  const [event] = deposits;
  if (!event) throw new Error('no deposit');
  expect(event).toMatchObject({
    market: marketDepositKey(deposit, address(bettor)),
    owner: address(bettor),
    amount,
    ref: refOf(bettor),
  });
  return event;
}

/** It matches its own deposit and sender, and not once any field of either is changed. */
function expectMatchesOnly(
  event: MarketDepositEvent,
  deposit: MarketDeposit,
  bettor: number,
  otherDeposits: MarketDeposit[],
  otherEvents: MarketDepositEvent[] = [],
) {
  expect(matchesMarketDeposit(event, deposit, address(bettor))).toBe(true);
  expect(matchesMarketDeposit(event, deposit, address(carol)), 'another sender').toBe(false);
  for (const other of otherDeposits) {
    expect(matchesMarketDeposit(event, other, address(bettor)), JSON.stringify(other, bigints)).toBe(false);
  }
  const changedEvents: MarketDepositEvent[] = [
    { ...event, market: keccak256(toHex('another market')) },
    { ...event, owner: address(carol) },
    { ...event, kind: event.kind === DEPOSIT_CREATE ? DEPOSIT_BET : DEPOSIT_CREATE },
    { ...event, side: event.side === 1 ? 2 : 1 },
    ...otherEvents,
  ];
  for (const changed of changedEvents) {
    expect(matchesMarketDeposit(changed, deposit, address(bettor)), JSON.stringify(changed, bigints)).toBe(
      false,
    );
  }
}

const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

describe('each deposit kind lands and is read back as the deposit it was', () => {
  test('a round bet opens its round, under the key its terms make', async () => {
    const round = await world.nextRound(BNB);
    const deposit: MarketDeposit = { kind: 'round', ...round, side: 'UP' };
    const { deposits } = await send(alice, deposit, parseEther('0.01'));
    const event = only(deposits, deposit, alice, parseEther('0.01'));
    expect(event).toMatchObject({
      market: round.key,
      kind: DEPOSIT_ROUND,
      side: 1,
      creation: { kind: 'round', coin: BNB, lockAt: round.lockAt, closeAt: round.closeAt },
      dispute: null,
    });
    expectMatchesOnly(
      event,
      deposit,
      alice,
      [
        { ...deposit, side: 'DOWN' },
        { ...deposit, coin: BTC },
        { ...deposit, lockAt: round.lockAt + 1 },
        { ...deposit, closeAt: round.closeAt + 1 },
      ],
      [{ ...event, creation: { kind: 'round', coin: BTC, lockAt: round.lockAt, closeAt: round.closeAt } }],
    );

    // Later bets join the same pool without an opening; a `bet` into the round's key is a round bet.
    const again = await send(bob, { ...deposit, side: 'DOWN' }, parseEther('0.02'));
    expect(only(again.deposits, deposit, bob, parseEther('0.02'))).toMatchObject({
      kind: DEPOSIT_ROUND,
      side: 2,
      creation: null,
    });
    const byKey: MarketDeposit = { kind: 'bet', market: round.key, side: 'YES' };
    const viaBet = await send(carol, byKey, parseEther('0.01'));
    const betEvent = only(viaBet.deposits, byKey, carol, parseEther('0.01'));
    expect(betEvent).toMatchObject({ market: round.key, kind: DEPOSIT_ROUND, side: 1, creation: null });
    expect(matchesMarketDeposit(betEvent, byKey, address(carol))).toBe(true);
    expect(matchesMarketDeposit(betEvent, { kind: 'round', ...round, side: 'UP' }, address(carol))).toBe(
      true,
    );
  });

  test('a price market’s creation carries its terms, under its creator’s key', async () => {
    const deposit: MarketDeposit = {
      kind: 'createPriceMarket',
      id: keccak256(toHex('price market of the deposit test')),
      coin: BTC,
      target: 65_000_00000000n,
      above: true,
      closesAt: (await world.now()) + HOUR,
      side: 'YES',
    };
    const { deposits } = await send(alice, deposit, parseEther('0.005'));
    const event = only(deposits, deposit, alice, parseEther('0.005'));
    expect(event).toMatchObject({
      kind: DEPOSIT_CREATE,
      side: 1,
      creation: {
        kind: 'priceMarket',
        creator: address(alice),
        id: deposit.id,
        coin: BTC,
        target: deposit.target,
        above: true,
        closesAt: deposit.closesAt,
      },
    });
    expectMatchesOnly(
      event,
      deposit,
      alice,
      [
        { ...deposit, id: keccak256(toHex('another id')) },
        { ...deposit, coin: BNB },
        { ...deposit, target: deposit.target + 1n },
        { ...deposit, above: false },
        { ...deposit, closesAt: deposit.closesAt + 1 },
        { ...deposit, side: 'NO' },
      ],
      [{ ...event, creation: null }],
    );

    // A bet into it is a plain bet, naming the key.
    const bet: MarketDeposit = { kind: 'bet', market: event.market, side: 'NO' };
    const placed = await send(bob, bet, parseEther('0.005'));
    const betEvent = only(placed.deposits, bet, bob, parseEther('0.005'));
    expect(betEvent).toMatchObject({ kind: DEPOSIT_BET, side: 2, creation: null });
    expectMatchesOnly(betEvent, bet, bob, [
      { ...bet, side: 'YES' },
      { ...bet, market: keccak256(toHex('x')) },
    ]);
    expect(matchesMarketDeposit(betEvent, deposit, address(bob)), 'a bet is no creation').toBe(false);
  });

  test('a judged market’s creation carries its close and content hash', async () => {
    const deposit: MarketDeposit = {
      kind: 'createJudgedMarket',
      id: keccak256(toHex('judged market of the deposit test')),
      closesAt: (await world.now()) + HOUR,
      contentHash: keccak256(toHex('Will it rain?')),
      side: 'NO',
    };
    const { deposits } = await send(bob, deposit, parseEther('0.007'));
    const event = only(deposits, deposit, bob, parseEther('0.007'));
    expect(event).toMatchObject({
      kind: DEPOSIT_CREATE,
      side: 2,
      creation: {
        kind: 'judged',
        creator: address(bob),
        id: deposit.id,
        closesAt: deposit.closesAt,
        contentHash: deposit.contentHash,
      },
    });
    expectMatchesOnly(
      event,
      deposit,
      bob,
      [
        { ...deposit, id: keccak256(toHex('another id')) },
        { ...deposit, closesAt: deposit.closesAt + 1 },
        { ...deposit, contentHash: keccak256(toHex('Will it snow?')) },
        { ...deposit, side: 'YES' },
        {
          kind: 'createPriceMarket',
          id: deposit.id,
          coin: BNB,
          target: 1n,
          above: true,
          closesAt: 1,
          side: 'NO',
        },
      ],
      [{ ...event, creation: null }],
    );
  });

  test('a dispute’s bond names the disputed market and carries its dispute', async () => {
    const created = await world.createJudgedMarket(alice, { closesIn: 2 * MINUTE });
    const bobStake = await world.bet(bob, created.key, 2, parseEther('0.01'));
    await world.travel(3 * MINUTE);
    await world.settleJudged(created.key, [{ stakeId: created.stake.stakeId, amount: parseEther('0.019') }]);

    const deposit: MarketDeposit = { kind: 'dispute', stake: bobStake };
    const bond = await world.read.disputeBond([created.key]);
    const { deposits } = await send(bob, deposit, bond);
    const event = only(deposits, deposit, bob, bond);
    expect(event).toMatchObject({
      market: created.key,
      kind: DEPOSIT_DISPUTE,
      side: 0,
      creation: null,
      dispute: { disputes: 1 },
    });
    expect(event.dispute?.answerBy).toBeGreaterThan(BigInt(await world.now()));
    expectMatchesOnly(
      event,
      deposit,
      bob,
      [
        { kind: 'dispute', stake: { ...bobStake, market: keccak256(toHex('another market')) } },
        { kind: 'dispute', stake: { ...bobStake, owner: address(carol) } },
        { kind: 'bet', market: created.key, side: 'NO' },
      ],
      [{ ...event, dispute: null }],
    );
  });
});

describe('what is not the escrow’s own is ignored', () => {
  test('a log of another address with the same shape is ignored, and so is a removed one', async () => {
    const other = await deployMarketEscrow(world.walletOf(ADMIN), world.publicClient, {
      admin: address(ADMIN),
      operator: address(OPERATOR),
      guardian: address(GUARDIAN),
      treasury: address(TREASURY),
      settlementCapacity: parseEther('10'),
      settlementRefillPerHour: parseEther('1'),
      minPayoutDelay: 600,
      disputeBondMin: parseEther('0.01'),
      disputeBondBps: 500,
      roundFeeBps: 300,
      priceMarketFeeBps: 200,
      maxPriceAge: 120,
      feeds: world.feeds.map((feed) => feed.proxy),
    });
    const round = await world.nextRound(BNB);
    const deposit: MarketDeposit = { kind: 'round', ...round, side: 'UP' };
    const elsewhere = await send(alice, deposit, parseEther('0.01'), other.address);
    expect(elsewhere.logs.length).toBeGreaterThan(0);
    expect(elsewhere.deposits).toEqual([]);
    expect(decodeMarketDeposits(other.address, elsewhere.logs)).toHaveLength(1);

    const here = await send(alice, deposit, parseEther('0.01'));
    const mixed: Log[] = [...elsewhere.logs, ...here.logs];
    expect(decodeMarketDeposits(world.address, mixed)).toEqual(here.deposits);
    const removed = here.logs.map((log) => ({ ...log, removed: true }));
    expect(decodeMarketDeposits(world.address, removed)).toEqual([]);
  });
});

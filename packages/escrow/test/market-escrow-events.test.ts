import { type Address, getAddress, keccak256, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimManyCall, refundCall, refundManyCall } from '../src/market-claims/market-claim-calls.ts';
import {
  type MarketDeposit,
  marketDepositCall,
  type StakeRef,
} from '../src/market-deposits/market-deposit.ts';
import { byPosition, readMarketEscrowEvents } from '../src/market-escrow-events.ts';
import { roundKey } from '../src/market-escrow-keys.ts';
import { hostileAccountAbi, hostileAccountBytecode } from './attackers.gen.ts';
import {
  BETTORS,
  BNB,
  BTC,
  createMarketEscrowWorld,
  DAY,
  GUARDIAN,
  HOUR,
  type MarketEscrowWorld,
  MINUTE,
  NO,
  OPERATOR,
  STRANGER,
  stakeOf,
  YES,
} from './market-escrow-world.ts';

// readMarketEscrowEvents on a Hardhat node: two rounds played side by side, their claims in one batch,
// and each round's story read back whole, in chain order, with nothing of the other.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

const [alice, bob, carol, dave] = BETTORS;
const usd = (dollars: number) => BigInt(dollars) * 10n ** 8n;
/** HostileAccount's mode that refuses every payment, so its payouts become credits. */
const REVERT = 2;

/** A contract bettor that refuses payouts, driven by dave. */
async function deployRefuser() {
  const receipt = await world.mined(
    world.walletOf(dave).deployContract({
      abi: hostileAccountAbi,
      bytecode: hostileAccountBytecode,
      args: [world.address],
    }),
  );
  if (!receipt.contractAddress) throw new Error('no hostile account');
  const hostile: Address = getAddress(receipt.contractAddress);
  await world.mined(
    world.walletOf(dave).writeContract({
      address: hostile,
      abi: hostileAccountAbi,
      functionName: 'setMode',
      args: [REVERT, '0x'],
    }),
  );
  return {
    address: hostile,
    async deposit(deposit: MarketDeposit, amount: bigint): Promise<StakeRef> {
      const call = marketDepositCall(world.address, deposit, amount);
      return stakeOf(
        await world.mined(
          world.walletOf(dave).writeContract({
            address: hostile,
            abi: hostileAccountAbi,
            functionName: 'forward',
            args: [call.data],
            value: call.value,
          }),
        ),
      );
    },
  };
}

test('a settled round’s story comes back whole and in chain order, with nothing of another market', async () => {
  const refuser = await deployRefuser();
  const first = await world.nextRound(BNB);
  const second = { ...first, coin: BTC, key: roundKey(BTC, first.lockAt, first.closeAt) };
  await world.publish(BNB, usd(600));
  await world.publish(BTC, usd(60_000));

  const aliceWin = await world.betRound(alice, first, YES, parseEther('0.02'));
  await world.betRound(bob, first, NO, parseEther('0.01'));
  const refuserWin = await refuser.deposit(
    { kind: 'bet', market: first.key, side: 'YES' },
    parseEther('0.01'),
  );
  const carolWin = await world.betRound(carol, second, YES, parseEther('0.01'));
  const refuserOther = await refuser.deposit({ kind: 'round', ...second, side: 'UP' }, parseEther('0.01'));
  await world.betRound(bob, second, NO, parseEther('0.01'));

  await world.publish(BNB, usd(600), first.lockAt - 4);
  await world.publish(BTC, usd(60_000), first.lockAt - 3);
  await world.publish(BNB, usd(601), first.closeAt - 4);
  await world.publish(BTC, usd(60_100), first.closeAt - 3);
  await world.travelTo(first.closeAt + 1);
  await world.settleRound(first);
  await world.settleRound(second);
  // Both rounds' winners in one relayed batch: the refuser's payouts become credits.
  const batch = claimManyCall(
    world.address,
    [aliceWin, refuserWin, carolWin, refuserOther].map((stake) => ({ kind: 'price', stake })),
  );
  await world.mined(world.walletOf(STRANGER).sendTransaction(batch));
  await world.mined(world.as(STRANGER).write.collectFee([first.key]));

  const toBlock = await world.publicClient.getBlockNumber();
  const query = { escrow: world.address, marketKey: first.key, fromBlock: 0n, toBlock };
  const events = await readMarketEscrowEvents(world.publicClient, query);
  expect(events.map((event) => event.eventName)).toEqual([
    'RoundOpened',
    'Deposited',
    'Deposited',
    'Deposited',
    'PriceSettled',
    'Claimed',
    'Claimed',
    'Credited',
    'FeeCollected',
  ]);
  expect([...events].sort(byPosition)).toEqual(events);
  for (const event of events) {
    if (event.eventName === 'Credited') {
      expect(event.args).toMatchObject({ owner: refuser.address, stakeId: refuserWin.stakeId });
    } else {
      expect(event.args.market).toBe(first.key);
    }
  }
  const settled = events.find((event) => event.eventName === 'PriceSettled');
  expect(settled?.eventName === 'PriceSettled' && settled.args.outcome).toBe(YES);
  const claimed = events.flatMap((event) => (event.eventName === 'Claimed' ? [event.args.stakeId] : []));
  expect(claimed).toEqual([aliceWin.stakeId, refuserWin.stakeId]);

  // Read in ranges of a few blocks, the same story.
  expect(await readMarketEscrowEvents(world.publicClient, { ...query, maxBlockRange: 3n })).toEqual(events);

  // The other round has its own, its credit the refuser's other stake.
  const other = await readMarketEscrowEvents(world.publicClient, { ...query, marketKey: second.key });
  expect(other.map((event) => event.eventName)).toEqual([
    'RoundOpened',
    'Deposited',
    'Deposited',
    'Deposited',
    'PriceSettled',
    'Claimed',
    'Claimed',
    'Credited',
  ]);
  const credit = other.find((event) => event.eventName === 'Credited');
  expect(credit?.eventName === 'Credited' && credit.args.stakeId).toBe(refuserOther.stakeId);

  await expect(
    readMarketEscrowEvents(world.publicClient, { ...query, fromBlock: toBlock + 1n }),
  ).rejects.toThrow(RangeError);
});

test('a judged market’s settlements, dispute, withdrawal, veto and refunds, a void and a price market’s escape each come back in order', async () => {
  const names = async (marketKey: `0x${string}`) =>
    (
      await readMarketEscrowEvents(world.publicClient, {
        escrow: world.address,
        marketKey,
        fromBlock: 0n,
        toBlock: await world.publicClient.getBlockNumber(),
      })
    ).map((event) => event.eventName);

  const judged = await world.createJudgedMarket(alice, { closesIn: 2 * MINUTE });
  const bobStake = await world.bet(bob, judged.key, NO, parseEther('0.01'));
  await world.travel(3 * MINUTE);
  await world.settleJudged(judged.key, [{ stakeId: judged.stake.stakeId, amount: parseEther('0.019') }]);
  const { bond } = await world.dispute(bobStake);
  const answer = [
    { stakeId: judged.stake.stakeId, amount: parseEther('0.019') },
    { stakeId: bond.stakeId, amount: bond.amount },
  ];
  await world.settleJudged(judged.key, answer);
  await world.mined(world.as(OPERATOR).write.withdrawSettlement([judged.key]));
  await world.settleJudged(judged.key, answer);
  await world.mined(world.as(GUARDIAN).write.veto([judged.key]));
  const refunds = refundManyCall(world.address, [judged.stake, bobStake, bond]);
  await world.mined(world.walletOf(STRANGER).sendTransaction(refunds));
  expect(await names(judged.key)).toEqual([
    'JudgedMarketCreated',
    'Deposited',
    'Deposited',
    'Settled',
    'Deposited',
    'Disputed',
    'Settled',
    'SettlementWithdrawn',
    'Settled',
    'Vetoed',
    'Refunded',
    'Refunded',
    'Refunded',
  ]);

  const voided = await world.createJudgedMarket(carol);
  await world.mined(
    world.as(OPERATOR).write.settleAsRefund([voided.key, 0, keccak256(toHex('cannot be decided'))]),
  );
  expect(await names(voided.key)).toEqual(['JudgedMarketCreated', 'Deposited', 'Voided']);

  const priceMarket = await world.createPriceMarket(carol, { target: usd(70_000), closesIn: HOUR });
  await world.travel(7 * DAY + HOUR + 1);
  await world.mined(world.walletOf(STRANGER).sendTransaction(refundCall(world.address, priceMarket.stake)));
  expect(await names(priceMarket.key)).toEqual(['PriceMarketCreated', 'Deposited', 'Escaped', 'Refunded']);
});

import { BaseError, type Hex, keccak256, parseEther, toHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { createdMarketKey, roundKey } from '../market-escrow-keys.ts';
import { type MarketDeposit, marketDepositCall, marketDepositKey } from './market-deposit.ts';
import { marketDepositAbi } from './market-deposit-abi.gen.ts';

// The deposit encoder without a chain: its web ABI holds only the payable functions, its keys are the contract's
// (test/market-deposit.test.ts sends each kind), and a deposit the contract can never take throws
// RangeError before viem encodes anything.

const escrow = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const sender = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const id = keccak256(toHex('an id'));
const contentHash = keccak256(toHex('a question'));
const key = keccak256(toHex('a market'));
const now = 1_800_000_000;

const round: MarketDeposit = { kind: 'round', coin: 0, lockAt: now, closeAt: now + 300, side: 'UP' };
const priceMarket: MarketDeposit = {
  kind: 'createPriceMarket',
  id,
  coin: 1,
  target: 60_000_00000000n,
  above: true,
  closesAt: now,
  side: 'YES',
};
const judged: MarketDeposit = { kind: 'createJudgedMarket', id, closesAt: now, contentHash, side: 'NO' };
const bet: MarketDeposit = { kind: 'bet', market: key, side: 'YES' };
const stake = { stakeId: 7n, owner: sender, market: key, amount: parseEther('0.01'), side: 1 } as const;
const dispute: MarketDeposit = { kind: 'dispute', stake };

test('the web ABI holds the five payable functions and nothing else', () => {
  expect(marketDepositAbi.map((item) => item.name)).toEqual([
    'betRound',
    'createPriceMarket',
    'createJudgedMarket',
    'bet',
    'dispute',
  ]);
});

test('a deposit’s key is its round’s terms, its creator’s id, or the market it names', () => {
  expect(marketDepositKey(round, sender)).toBe(roundKey(0, now, now + 300));
  expect(marketDepositKey(priceMarket, sender)).toBe(createdMarketKey('priceMarket', sender, id));
  expect(marketDepositKey(judged, sender)).toBe(createdMarketKey('judged', sender, id));
  expect(marketDepositKey(bet, sender)).toBe(key);
  expect(marketDepositKey(dispute, sender)).toBe(key);
  const upperCase: Hex = `0x${key.slice(2).toUpperCase()}`;
  expect(marketDepositKey({ kind: 'bet', market: upperCase, side: 'NO' }, sender)).toBe(key);
});

test('a call goes to the escrow with the stake as its value', () => {
  const call = marketDepositCall(escrow, round, parseEther('0.01'));
  expect(call.to).toBe(escrow);
  expect(call.value).toBe(parseEther('0.01'));
  expect(call.data.slice(0, 10)).toBe(
    marketDepositCall(escrow, { ...round, side: 'DOWN' }, parseEther('0.02')).data.slice(0, 10),
  );
});

describe('a deposit the contract can never take throws RangeError before anything is encoded', () => {
  const refusals: Array<[string, MarketDeposit, bigint, Hex?]> = [
    ['a round bet below 0.01 BNB', round, parseEther('0.01') - 1n],
    ['a creation below 0.005 BNB', priceMarket, parseEther('0.005') - 1n],
    ['a judged creation below 0.005 BNB', judged, parseEther('0.005') - 1n],
    ['a bet below 0.005 BNB', bet, parseEther('0.005') - 1n],
    ['a dispute of 0', dispute, 0n],
    ['a lock that is not an integer', { ...round, lockAt: now + 0.5 }, parseEther('0.01')],
    ['a lock beyond uint40', { ...round, lockAt: 2 ** 40, closeAt: 2 ** 40 + 300 }, parseEther('0.01')],
    ['a lock beyond the safe integers', { ...round, lockAt: 2 ** 53 }, parseEther('0.01')],
    ['a lock of 0', { ...round, lockAt: 0, closeAt: 300 }, parseEther('0.01')],
    ['a round shorter than a minute', { ...round, closeAt: now + 59 }, parseEther('0.01')],
    ['a round longer than a day', { ...round, closeAt: now + 86_401 }, parseEther('0.01')],
    ['a coin beyond MAX_COINS', { ...round, coin: 16 }, parseEther('0.01')],
    ['a negative coin', { ...priceMarket, coin: -1 }, parseEther('0.01')],
    ['a target of 0', { ...priceMarket, target: 0n }, parseEther('0.01')],
    ['a negative target', { ...priceMarket, target: -1n }, parseEther('0.01')],
    ['a target beyond int192', { ...priceMarket, target: 2n ** 191n }, parseEther('0.01')],
    ['a close beyond uint40', { ...priceMarket, closesAt: 2 ** 40 }, parseEther('0.01')],
    ['an id of 31 bytes', { ...judged, id: `0x${'ab'.repeat(31)}` }, parseEther('0.01')],
    [
      'a content hash that is not hex',
      { ...judged, contentHash: `0x${'zz'.repeat(32)}` },
      parseEther('0.01'),
    ],
    ['a bet into a key of 33 bytes', { ...bet, market: `0x${'ab'.repeat(33)}` }, parseEther('0.01')],
    ['a side a round does not have', { ...round, side: 'YES' as 'UP' }, parseEther('0.01')],
    ['a side a market does not have', { ...bet, side: 'UP' as 'YES' }, parseEther('0.01')],
    ['a dispute naming stake 0', { kind: 'dispute', stake: { ...stake, stakeId: 0n } }, 1n],
    ['a dispute naming a bond', { kind: 'dispute', stake: { ...stake, side: 0 } }, 1n],
    ['a dispute naming no owner', { kind: 'dispute', stake: { ...stake, owner: '0x1234' } }, 1n],
    ['a ref of 20 bytes', bet, parseEther('0.01'), sender],
  ];
  test.each(refusals)('%s', (_name, deposit, amount, ref) => {
    let thrown: unknown;
    try {
      marketDepositCall(escrow, deposit, amount, ref);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RangeError);
    // viem's own encoding errors are BaseErrors: this refusal came before it ran.
    expect(thrown).not.toBeInstanceOf(BaseError);
  });
});

import { BaseError, type Hash, type Hex, parseEther, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { decodeRevert } from '../src/decode-revert.ts';
import {
  BATCH_CALL_GAS,
  batchGas,
  claimCall,
  claimManyCall,
  type MarketClaim,
  refundCall,
  refundManyCall,
} from '../src/market-claims/market-claim-calls.ts';
import type { StakeRef } from '../src/market-deposits/market-deposit.ts';
import { marketEscrowAbi } from '../src/market-escrow.gen.ts';
import { BATCH_ITEM_GAS } from '../src/market-escrow-constants.ts';
import { devAccount } from './chain-clients.ts';
import {
  BETTORS,
  BNB,
  createMarketEscrowWorld,
  type MarketEscrowWorld,
  NO,
  PAYOUT_DELAY,
  REFUND,
  STATE,
  STRANGER,
  YES,
} from './market-escrow-world.ts';

// The claim and refund calls on a Hardhat node: a price kind's claim names no payout, a judged one its
// listed payout and proof, and a relayer's batch signed at exactly batchGas(n) pays every item, while one
// signed below n × BATCH_ITEM_GAS fails before any payout.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

const relayer = STRANGER;
const relayerAddress = devAccount(relayer).address;
const bettor = (i: number) => BETTORS[i % BETTORS.length] ?? BETTORS[0];
const usd = (dollars: number) => BigInt(dollars) * 10n ** 8n;

/** A settled round with `winners` UP bets of 0.01 BNB and one DOWN bet; answers the winning stakes. */
async function settledRound(winners: number, closePrice = usd(601)) {
  const round = await world.nextRound(BNB);
  await world.publish(BNB, usd(600));
  const stakes: StakeRef[] = [];
  for (let i = 0; i < winners; i++)
    stakes.push(await world.betRound(bettor(i), round, YES, parseEther('0.01')));
  await world.betRound(bettor(winners), round, NO, parseEther('0.01'));
  await world.publish(BNB, usd(600), round.lockAt - 2);
  await world.publish(BNB, closePrice, round.closeAt - 2);
  await world.travelTo(round.closeAt + 1);
  await world.settleRound(round);
  return { round, stakes };
}

/** A judged market with `winners` YES stakes of 0.01 BNB sharing 95 % of its pool, and one NO; payouts open. */
async function settledJudged(winners: number) {
  const created = await world.createJudgedMarket(bettor(0), { amount: parseEther('0.01') });
  const stakes: StakeRef[] = [created.stake];
  for (let i = 1; i < winners; i++)
    stakes.push(await world.bet(bettor(i), created.key, YES, parseEther('0.01')));
  await world.bet(bettor(winners), created.key, NO, parseEther('0.01'));
  await world.travelTo(created.closesAt + 1);
  const pool = BigInt(winners + 1) * parseEther('0.01');
  const payout = (pool * 95n) / 100n / BigInt(winners);
  const { tree } = await world.settleJudged(
    created.key,
    stakes.map((stake) => ({ stakeId: stake.stakeId, amount: payout })),
  );
  await world.travel(PAYOUT_DELAY);
  const claims: MarketClaim[] = stakes.map((stake) => ({
    kind: 'judged',
    stake,
    payout,
    proof: tree.proof(stake.stakeId),
  }));
  return { key: created.key, stakes, claims, payout };
}

const TxHashSchema = z.object({ data: z.object({ txHash: z.string().regex(/^0x[0-9a-f]{64}$/) }) });

/**
 * Sends `call` as the relayer with exactly `gas`, no estimate, and answers its receipt and, when it
 * reverted, the send's error (Hardhat mines a reverting transaction but answers with an error naming it).
 */
async function sendAt(call: { to: Hex; data: Hex }, gas: bigint) {
  let failure: unknown;
  const hash = await world
    .walletOf(relayer)
    .sendTransaction({ to: call.to, data: call.data, gas })
    .catch((error: unknown) => {
      failure = error;
      const mined =
        error instanceof BaseError ? error.walk((cause) => TxHashSchema.safeParse(cause).success) : null;
      const parsed = TxHashSchema.safeParse(mined);
      if (!parsed.success) throw error;
      const txHash: Hash = `0x${parsed.data.data.txHash.slice(2)}`;
      return txHash;
    });
  return { receipt: await world.publicClient.waitForTransactionReceipt({ hash }), failure };
}

const isOpen = async (stake: StakeRef) =>
  (await world.read.stakes([stake.stakeId])) !== `0x${'0'.repeat(64)}`;

describe('one claim or refund', () => {
  test('a price kind’s claim names payout 0 and no proof, and pays the contract’s share', async () => {
    const { stakes } = await settledRound(1);
    const [stake] = stakes;
    if (!stake) throw new Error('a stake');
    const before = await world.balance(bettor(0));
    await world.mined(
      world.walletOf(relayer).sendTransaction(claimCall(world.address, { kind: 'price', stake })),
    );
    // 0.02 in the pool, 3 % fee: the only winner takes the rest.
    expect((await world.balance(bettor(0))) - before).toBe(parseEther('0.0194'));
  });

  test('a judged stake’s claim names its listed payout and proof', async () => {
    const { claims, payout } = await settledJudged(2);
    const [first] = claims;
    if (!first) throw new Error('a claim');
    const before = await world.balance(bettor(0));
    await world.mined(world.walletOf(relayer).sendTransaction(claimCall(world.address, first)));
    expect((await world.balance(bettor(0))) - before).toBe(payout);
  });

  test('a refunding round gives each stake back, one by one or in a batch at batchGas', async () => {
    // Every bet on UP, the price goes down: nobody won, every stake is refunded.
    const round = await world.nextRound(BNB);
    await world.publish(BNB, usd(600));
    const stakes: StakeRef[] = [];
    for (let i = 0; i < 6; i++) stakes.push(await world.betRound(bettor(i), round, YES, parseEther('0.01')));
    await world.publish(BNB, usd(600), round.lockAt - 2);
    await world.publish(BNB, usd(599), round.closeAt - 2);
    await world.travelTo(round.closeAt + 1);
    await world.settleRound(round);
    expect(await world.market(round.key)).toMatchObject({ state: STATE.Refunding, outcome: REFUND.noWinner });

    const [single, ...rest] = stakes;
    if (!single) throw new Error('a stake');
    await world.mined(world.walletOf(relayer).sendTransaction(refundCall(world.address, single)));
    const call = refundManyCall(world.address, rest);
    const { receipt } = await sendAt(call, call.gas);
    expect(receipt.status).toBe('success');
    expect(parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Refunded' })).toHaveLength(
      5,
    );
    for (const stake of stakes) expect(await isOpen(stake)).toBe(false);
  });

  test('an empty batch, a judged claim without a payout and stake 0 are refused before encoding', () => {
    const stake: StakeRef = {
      stakeId: 1n,
      owner: relayerAddress,
      market: `0x${'11'.repeat(32)}`,
      amount: 1n,
      side: 1,
    };
    expect(() => claimManyCall(world.address, [])).toThrow(RangeError);
    expect(() => refundManyCall(world.address, [])).toThrow(RangeError);
    expect(() => claimCall(world.address, { kind: 'judged', stake, payout: 0n, proof: [] })).toThrow(
      RangeError,
    );
    expect(() => claimCall(world.address, { kind: 'price', stake: { ...stake, stakeId: 0n } })).toThrow(
      RangeError,
    );
    expect(() => batchGas(0, '0x')).toThrow(RangeError);
  });
});

describe('a batch signed at batchGas(n)', () => {
  test.each([1, 5, 20])(
    'a batch of %i price-kind claims sent at exactly batchGas(n) pays every one',
    async (n) => {
      const { stakes } = await settledRound(n);
      const call = claimManyCall(
        world.address,
        stakes.map((stake) => ({ kind: 'price', stake })),
      );
      expect(call.gas).toBe(batchGas(n, call.data));
      const { receipt } = await sendAt(call, call.gas);
      expect(receipt.status).toBe('success');
      expect(parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Claimed' })).toHaveLength(
        n,
      );
      expect(
        parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Credited' }),
      ).toHaveLength(0);
      for (const stake of stakes) expect(await isOpen(stake)).toBe(false);
    },
  );

  test.each([1, 5, 20])(
    'a batch of %i judged claims with their proofs sent at exactly batchGas(n) pays every one',
    async (n) => {
      const { claims, stakes } = await settledJudged(n);
      const call = claimManyCall(world.address, claims);
      const { receipt } = await sendAt(call, call.gas);
      expect(receipt.status).toBe('success');
      expect(parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Claimed' })).toHaveLength(
        n,
      );
      for (const stake of stakes) expect(await isOpen(stake)).toBe(false);
    },
  );

  test('a batch signed below n × BATCH_ITEM_GAS reverts InsufficientGas before any payout; at batchGas(n) it then pays', async () => {
    const { claims, stakes } = await settledJudged(5);
    const call = claimManyCall(world.address, claims);
    const balances = await Promise.all(
      stakes.map((stake) => world.publicClient.getBalance({ address: stake.owner })),
    );

    const { receipt, failure } = await sendAt(call, 5n * BATCH_ITEM_GAS - 1n);
    expect(receipt.status).toBe('reverted');
    expect(receipt.logs).toEqual([]);
    expect(decodeRevert(failure, marketEscrowAbi)?.errorName).toBe('InsufficientGas');
    // It stopped at the check: it was charged less than one item's share.
    expect(receipt.gasUsed).toBeLessThan(BATCH_ITEM_GAS);
    for (const [i, stake] of stakes.entries()) {
      expect(await isOpen(stake)).toBe(true);
      expect(await world.publicClient.getBalance({ address: stake.owner })).toBe(balances[i]);
    }

    const paid = await sendAt(call, call.gas);
    expect(paid.receipt.status).toBe('success');
    expect(
      parseEventLogs({ abi: marketEscrowAbi, logs: paid.receipt.logs, eventName: 'Claimed' }),
    ).toHaveLength(5);
  });

  test('the call’s base to its check, measured as the least gas that passes it, is within BATCH_CALL_GAS', async () => {
    const { claims } = await settledJudged(3);
    const call = claimManyCall(world.address, claims);
    const passes = async (gas: bigint) => {
      try {
        await world.publicClient.call({ account: relayerAddress, to: call.to, data: call.data, gas });
        return true;
      } catch (error) {
        if (decodeRevert(error, marketEscrowAbi)?.errorName === 'InsufficientGas') return false;
        throw error;
      }
    };
    // The least limit that passes the check, between n × BATCH_ITEM_GAS and batchGas(n).
    let low = 3n * BATCH_ITEM_GAS;
    let high = call.gas;
    expect(await passes(low)).toBe(false);
    expect(await passes(high)).toBe(true);
    while (high - low > 1n) {
      const middle = (low + high) / 2n;
      if (await passes(middle)) high = middle;
      else low = middle;
    }
    const withoutBase = batchGas(3, call.data) - BATCH_CALL_GAS;
    const base = high - withoutBase;
    console.log(`claimMany's base to its check: ${base} gas (BATCH_CALL_GAS ${BATCH_CALL_GAS})`);
    expect(base).toBeGreaterThan(0n);
    expect(base * 2n).toBeLessThanOrEqual(BATCH_CALL_GAS);
  });
});

import type { PriceSymbol } from '@pm/core/constants';
import { decidePriceOutcome, PRICE_OUTCOME } from '@pm/core/price-outcome';
import { priceStakeReturnWei } from '@pm/core/price-payouts';
import { devFeedAggregatorAbi, devFeedAggregatorBytecode, devFeedProxyAbi } from '@pm/escrow/dev-feeds.gen';
import { claimCall } from '@pm/escrow/market-claims/market-claim-calls';
import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import { priceSettlementCall } from '@pm/escrow/price-settlement-call';
import { eq, sql } from 'drizzle-orm';
import { type Hex, keccak256, parseEther, parseEventLogs, parseGwei, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { loadConfig } from '../src/config/config.ts';
import { DEV_FEED_WRITER, DEV_OPERATOR } from '../src/config/dev-accounts.ts';
import { operatorTransactions } from '../src/db/schema.ts';
import {
  keepPriceSettlements,
  PRICE_SETTLEMENT_GAS_CAP,
  type PriceKeeperDeps,
  priceSettlementActionKey,
} from '../src/escrow/price-keeper/price-keeper-job.ts';
import { readPriceSettlement } from '../src/escrow/price-keeper/price-settlement-reading.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { processOperatorTransactions } from '../src/operator-sender/operator-sender.ts';
import type { OperatorSenderDeps } from '../src/operator-sender/operator-sender-deps.ts';
import { findOperatorTxByKey } from '../src/operator-sender/operator-transactions-repository.ts';
import { classifyEscrowActionRevert } from '../src/operator-sender/revert-reason.ts';
import { createFaultyChainClient } from './support/faulty-chain.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';
import { openTestDatabase, type TestDatabase } from './support/test-database.ts';
import {
  deployTestMarketEscrow,
  type PlacedStake,
  type PublishedPrice,
  type TestMarketEscrow,
} from './support/test-market-escrow.ts';

// docs/decisions/034 "Settlement: price kinds from the chain's own event": the price keeper settles
// MarketEscrow's rounds and price markets past their instant through the operator key's real sender,
// on a real Hardhat node and a real database; the contract decides, and what it recorded is what
// core's rules give, to the wei of each claim.

const config = loadConfig({ ORACLE_FEE_BPS: '300', MARKET_FEE_BPS: '250' });
const usd = (dollars: number) => BigInt(dollars) * 10n ** 8n;

let chain: TestChain;
let database: TestDatabase;
let escrow: TestMarketEscrow;
let sender: OperatorSenderDeps;

beforeAll(async () => {
  chain = await startTestChain();
  database = await openTestDatabase();
  escrow = await deployTestMarketEscrow(chain, config);
  sender = {
    db: database.db,
    chain: chain.publicClient,
    chainId: config.chain.id,
    account: privateKeyToAccount(DEV_OPERATOR.privateKey),
    confirmations: 1,
    maxFeePerGas: parseGwei('10'),
    resendAfterMs: 15_000,
    replaceAfterMs: 60_000,
    classifyRevert: classifyEscrowActionRevert,
    errorAbi: marketEscrowAbi,
  };
}, 120_000);
afterAll(async () => {
  await database?.close();
  await chain?.stop();
});

/** A price kind this file settled, for the claims at its end. */
type Settled = { key: Hex; stakes: PlacedStake[] };
const settled: Settled[] = [];

const player = (index: number) => {
  const wallet = chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};

async function chainNow(): Promise<number> {
  return Number((await chain.publicClient.getBlock()).timestamp);
}

/** Mines a block at `timestamp`, moving the chain's clock there. */
async function travelTo(timestamp: number) {
  await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(timestamp) });
  await chain.testClient.mine({ blocks: 1 });
}

type Bet = { player: number; side: 'UP' | 'DOWN'; bnb: string };

/** A round of `symbol` locking `lockIn` seconds from now for a minute, with these bets. */
async function openRound(symbol: PriceSymbol, bets: Bet[], lockIn = 40) {
  const lockAt = (await chainNow()) + lockIn;
  const closeAt = lockAt + 60;
  const stakes: PlacedStake[] = [];
  for (const bet of bets) {
    stakes.push(
      await escrow.betRound(
        player(bet.player),
        { symbol, lockAt, closeAt, side: bet.side },
        parseEther(bet.bnb),
      ),
    );
  }
  const key = stakes[0]?.market;
  if (!key) throw new Error('a round opens with a bet');
  return { symbol, lockAt, closeAt, key, stakes };
}

/** A keeper instance over the test's escrow, its own metrics and log lines; `due` is what it is told is due. */
function keeper(due: () => readonly Hex[], overrides: Partial<PriceKeeperDeps> = {}) {
  const metrics = createMetrics();
  const lines: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
  const line = (level: string) => (fields: unknown, message?: string) => {
    lines.push({ level, message: message ?? '', fields: fields as Record<string, unknown> });
  };
  const deps: PriceKeeperDeps = {
    chain: chain.publicClient,
    chainId: config.chain.id,
    escrow: escrow.address,
    sender,
    listDue: async () => due(),
    now: () => new Date(),
    log: { info: line('info'), warn: line('warn'), error: line('error') },
    metrics,
    ...overrides,
  };
  const failures = async () =>
    (
      await metrics.registry.getSingleMetric('bnbpredict_escrow_settlement_failures_total')?.get()
    )?.values.find((each) => each.labels.reason === 'step_failed')?.value ?? 0;
  return { deps, lines, failures, tick: () => keepPriceSettlements(deps) };
}

/** Steps the operator sender until `market`'s settlement is final (or `steps` run out); answers its row. */
async function sendSettlement(market: Hex, steps = 6) {
  const key = priceSettlementActionKey(config.chain.id, escrow.address, market);
  for (let step = 0; step < steps; step++) {
    const row = await findOperatorTxByKey(database.db, key);
    if (!row) throw new Error(`no action ${key}`);
    if (['confirmed', 'skipped', 'failed'].includes(row.status)) return row;
    await processOperatorTransactions(sender);
  }
  return findOperatorTxByKey(database.db, key);
}

async function actionCount(): Promise<number> {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(operatorTransactions);
  return Number(row?.n);
}

async function actionsOf(market: Hex) {
  return database.db
    .select()
    .from(operatorTransactions)
    .where(eq(operatorTransactions.key, priceSettlementActionKey(config.chain.id, escrow.address, market)));
}

async function marketOnChain(key: Hex) {
  const [pool, , , kind, state, outcome] = await chain.publicClient.readContract({
    address: escrow.address,
    abi: marketEscrowAbi,
    functionName: 'markets',
    args: [key],
  });
  const [yes, no] = await chain.publicClient.readContract({
    address: escrow.address,
    abi: marketEscrowAbi,
    functionName: 'sides',
    args: [key],
  });
  return { pool, kind, state, outcome, sides: { yes, no } };
}

const SETTLED = 2;
const OPEN = 1;

async function settlementOf(key: Hex) {
  const found = await readPriceSettlement(chain.publicClient, {
    escrow: escrow.address,
    marketKey: key,
    fromBlock: escrow.deployBlock,
    toBlock: await chain.publicClient.getBlockNumber(),
  });
  if (!found) throw new Error(`market ${key} has no PriceSettled`);
  return found;
}

const atInstant = (price: PublishedPrice, instant: number) => ({
  instant,
  round: { roundId: price.roundId, answer: price.answer, updatedAtMs: price.updatedAt * 1000 },
});

describe('the price keeper', () => {
  test('a round past its close is settled by one action the sender sends, with the feed readings and the outcome core gives; a second tick and a second keeper queue nothing new', async () => {
    const round = await openRound('BNB', [
      { player: 0, side: 'UP', bnb: '1' },
      { player: 1, side: 'DOWN', bnb: '0.5' },
      { player: 2, side: 'UP', bnb: '0.25' },
    ]);
    const lock = await escrow.publishPrice('BNB', usd(600), round.lockAt - 5);
    const close = await escrow.publishPrice('BNB', usd(612), round.closeAt - 5);
    await travelTo(round.closeAt + 2);

    const first = keeper(() => [round.key]);
    const before = await actionCount();
    expect(await first.tick()).toMatchObject({ queued: 1, failed: 0 });
    expect(await actionCount()).toBe(before + 1);
    // Queued, not yet sent: a second tick and a second instance find it in the outbox.
    expect(await first.tick()).toMatchObject({ queued: 0, inOutbox: 1 });
    const second = keeper(() => [round.key]);
    expect(await second.tick()).toMatchObject({ queued: 0, inOutbox: 1 });
    expect(await actionCount()).toBe(before + 1);

    const row = await sendSettlement(round.key);
    expect(row?.status).toBe('confirmed');
    const onChain = await marketOnChain(round.key);
    expect(onChain.state).toBe(SETTLED);
    const settlement = await settlementOf(round.key);
    expect(settlement.lock).toEqual({ roundId: lock.roundId, price: usd(600) });
    expect(settlement.close).toEqual({ roundId: close.roundId, price: usd(612) });
    const outcome = decidePriceOutcome({
      kind: 'round',
      maxAgeMs: config.prices.maxAgeS * 1000,
      sides: onChain.sides,
      lock: atInstant(lock, round.lockAt),
      close: atInstant(close, round.closeAt),
    });
    expect(outcome).toBe(PRICE_OUTCOME.yes);
    expect(settlement.outcome).toBe(outcome);
    // The round's fee (ORACLE_FEE_BPS) on the whole pool.
    expect(settlement.fee).toBe((onChain.pool * 300n) / 10_000n);
    expect(settlement.payoutTotal).toBe(onChain.pool - settlement.fee);

    // Settled: both instances leave it alone, and the outbox holds its one action.
    expect(await first.tick()).toMatchObject({ settled: 1, queued: 0 });
    expect(await second.tick()).toMatchObject({ settled: 1, queued: 0 });
    expect(await actionsOf(round.key)).toHaveLength(1);
    expect(await actionCount()).toBe(before + 1);
    settled.push({ key: round.key, stakes: round.stakes });
  });

  test('a round a stranger settled first is left alone', async () => {
    const round = await openRound('ETH', [
      { player: 0, side: 'DOWN', bnb: '0.1' },
      { player: 1, side: 'UP', bnb: '0.2' },
    ]);
    await escrow.publishPrice('ETH', usd(3000), round.lockAt - 5);
    await escrow.publishPrice('ETH', usd(2990), round.closeAt - 5);
    await travelTo(round.closeAt + 2);
    const call = await priceSettlementCall(chain.publicClient, escrow.address, round.key);
    if (!('functionName' in call) || call.functionName !== 'settleRound') throw new Error('no call');
    const stranger = player(2);
    await chain.publicClient.waitForTransactionReceipt({
      hash: await stranger.writeContract({
        address: escrow.address,
        abi: marketEscrowAbi,
        functionName: 'settleRound',
        args: call.args,
      }),
    });

    const before = await actionCount();
    expect(await keeper(() => [round.key]).tick()).toMatchObject({ settled: 1, queued: 0, failed: 0 });
    expect(await actionsOf(round.key)).toEqual([]);
    expect(await actionCount()).toBe(before);
    expect((await marketOnChain(round.key)).outcome).toBe(PRICE_OUTCOME.no);
    settled.push({ key: round.key, stakes: round.stakes });
  });

  test("an action the sender failed is followed by the market's next attempt, not a stuck market", async () => {
    const round = await openRound('XRP', [
      { player: 0, side: 'UP', bnb: '0.1' },
      { player: 1, side: 'DOWN', bnb: '0.1' },
    ]);
    await escrow.publishPrice('XRP', usd(2), round.lockAt - 5);
    await escrow.publishPrice('XRP', usd(3), round.closeAt - 5);
    await travelTo(round.closeAt + 2);

    const one = keeper(() => [round.key]);
    expect(await one.tick()).toMatchObject({ queued: 1, failed: 0 });
    // The sender gives the first attempt up (a broadcast refused for good, say) before it is mined.
    await database.db
      .update(operatorTransactions)
      .set({ status: 'failed', lastError: 'refused by the test' })
      .where(
        eq(operatorTransactions.key, priceSettlementActionKey(config.chain.id, escrow.address, round.key)),
      );
    expect(await one.tick()).toMatchObject({ queued: 1, inOutbox: 0, failed: 0 });
    const retry = priceSettlementActionKey(config.chain.id, escrow.address, round.key, 1);
    expect((await findOperatorTxByKey(database.db, retry))?.status).toBe('queued');
    expect(await one.tick()).toMatchObject({ queued: 0, inOutbox: 1 });

    for (let step = 0; step < 6; step++) {
      const row = await findOperatorTxByKey(database.db, retry);
      if (row?.status === 'confirmed') break;
      await processOperatorTransactions(sender);
    }
    expect((await findOperatorTxByKey(database.db, retry))?.status).toBe('confirmed');
    expect((await marketOnChain(round.key)).state).toBe(SETTLED);
    expect(await one.tick()).toMatchObject({ settled: 1, queued: 0 });
    settled.push({ key: round.key, stakes: round.stakes });
  });

  test('a round whose close the chain has not passed, and one whose RPC read fails, do not stop a third from being settled in the same tick; the failed one is settled next tick', async () => {
    const failing = await openRound('BTC', [
      { player: 0, side: 'UP', bnb: '0.1' },
      { player: 1, side: 'DOWN', bnb: '0.1' },
    ]);
    const third = await openRound('SOL', [
      { player: 1, side: 'UP', bnb: '0.3' },
      { player: 2, side: 'DOWN', bnb: '0.2' },
    ]);
    // Its close two minutes after the others': told due by a server clock ahead of the chain's.
    const early = await openRound('XRP', [{ player: 0, side: 'UP', bnb: '0.1' }], 160);
    await escrow.publishPrice('BTC', usd(100_000), failing.lockAt - 8);
    await escrow.publishPrice('SOL', usd(150), third.lockAt - 3);
    await escrow.publishPrice('BTC', usd(100_100), failing.closeAt - 8);
    await escrow.publishPrice('SOL', usd(149), third.closeAt - 3);
    await travelTo(Math.max(failing.closeAt, third.closeAt) + 2);

    const faulty = createFaultyChainClient(chain.rpcUrl);
    const one = keeper(() => [failing.key, early.key, third.key], { chain: faulty.client });
    // The first read of the tick (the failing round's market) is refused as a rate-limited RPC refuses.
    faulty.fail('eth_call', 1);
    expect(await one.tick()).toEqual({ queued: 1, inOutbox: 0, settled: 0, waiting: 1, failed: 1 });
    expect(await one.failures()).toBe(1);
    expect(one.lines.filter((line) => line.level !== 'info')).toMatchObject([
      {
        level: 'warn',
        message: expect.stringMatching(/\(a passing fault\); retried next tick/),
        fields: { marketKey: failing.key },
      },
    ]);
    expect(await actionsOf(failing.key)).toEqual([]);
    expect(await actionsOf(early.key)).toEqual([]);

    expect((await sendSettlement(third.key))?.status).toBe('confirmed');
    expect((await marketOnChain(third.key)).state).toBe(SETTLED);
    expect((await marketOnChain(failing.key)).state).toBe(OPEN);

    // Next tick, the RPC answering again: the failed read is retried, not taken as a refusal.
    expect(await one.tick()).toMatchObject({ queued: 1, settled: 1, waiting: 1, failed: 0 });
    expect((await sendSettlement(failing.key))?.status).toBe('confirmed');
    expect((await marketOnChain(failing.key)).outcome).toBe(PRICE_OUTCOME.yes);
    expect((await marketOnChain(early.key)).state).toBe(OPEN);
    settled.push({ key: third.key, stakes: third.stakes }, { key: failing.key, stakes: failing.stakes });
  });

  test('a price market past its deadline settles from the feed round in force then', async () => {
    const closesAt = (await chainNow()) + 60;
    const target = usd(100_000);
    const creation = await escrow.createPriceMarket(
      player(0),
      {
        id: keccak256(toHex('price keeper market')),
        symbol: 'ADA',
        target,
        above: true,
        closesAt,
        side: 'YES',
      },
      parseEther('0.2'),
    );
    const key = creation.market;
    const stakes = [
      creation,
      await escrow.bet(player(1), key, 'NO', parseEther('0.3')),
      await escrow.bet(player(2), key, 'YES', parseEther('0.05')),
    ];
    const reading = await escrow.publishPrice('ADA', usd(100_001), closesAt - 10);
    await escrow.publishPrice('ADA', usd(99_000), closesAt + 1);
    await travelTo(closesAt + 3);

    expect(await keeper(() => [key]).tick()).toMatchObject({ queued: 1, failed: 0 });
    expect((await sendSettlement(key))?.status).toBe('confirmed');
    const onChain = await marketOnChain(key);
    const settlement = await settlementOf(key);
    expect(settlement.lock).toBeNull();
    expect(settlement.close).toEqual({ roundId: reading.roundId, price: usd(100_001) });
    const outcome = decidePriceOutcome({
      kind: 'priceMarket',
      maxAgeMs: config.prices.maxAgeS * 1000,
      sides: onChain.sides,
      target,
      above: true,
      close: atInstant(reading, closesAt),
    });
    expect(outcome).toBe(PRICE_OUTCOME.yes);
    expect(settlement.outcome).toBe(outcome);
    // The price market's fee (MARKET_FEE_BPS) on the whole pool, the contract's rule (decision 034).
    expect(settlement.fee).toBe((onChain.pool * 250n) / 10_000n);
    settled.push({ key, stakes });
  });

  // Last but one in this file: it moves DOGE's feed to a second phase.
  test('the costliest round settlement (its lock the last round of the phase before, its close the latest of the new one) stays a fifth under the gas cap', async () => {
    const round = await openRound('DOGE', [
      { player: 0, side: 'UP', bnb: '0.1' },
      { player: 1, side: 'DOWN', bnb: '0.1' },
    ]);
    const lock = await escrow.publishPrice('DOGE', usd(1), round.lockAt - 5);
    // The feed's owner (the writer deployed it) moves the proxy to a new aggregator after the lock.
    const writer = createChainWallet(
      { id: config.chain.id, rpcUrl: chain.rpcUrl },
      DEV_FEED_WRITER.privateKey,
    );
    const deployed = await chain.publicClient.waitForTransactionReceipt({
      hash: await writer.deployContract({
        abi: devFeedAggregatorAbi,
        bytecode: devFeedAggregatorBytecode,
        args: [writer.account.address, 8, 'DOGE / USD'],
      }),
    });
    if (!deployed.contractAddress) throw new Error('no aggregator');
    await chain.publicClient.waitForTransactionReceipt({
      hash: await writer.writeContract({
        address: escrow.feedOf('DOGE').proxy,
        abi: devFeedProxyAbi,
        functionName: 'setAggregator',
        args: [deployed.contractAddress],
      }),
    });
    await escrow.publishPrice('DOGE', usd(2), round.lockAt + 10);
    const close = await escrow.publishPrice('DOGE', usd(2), round.closeAt - 5);
    expect(lock.roundId >> 64n).toBe(1n);
    expect(close.roundId).toBe((2n << 64n) | 2n);
    await travelTo(round.closeAt + 2);

    expect(await keeper(() => [round.key]).tick()).toMatchObject({ queued: 1, failed: 0 });
    const row = await sendSettlement(round.key);
    expect(row?.status).toBe('confirmed');
    const gasUsed = row?.gasUsed ?? 0n;
    console.log(`costliest round settlement: ${gasUsed} gas (cap ${PRICE_SETTLEMENT_GAS_CAP})`);
    // The sender signs at the estimate plus 20 %, capped: the cap must hold that margin.
    expect((gasUsed * 120n) / 100n).toBeLessThanOrEqual(PRICE_SETTLEMENT_GAS_CAP);
    expect(await settlementOf(round.key)).toMatchObject({
      outcome: PRICE_OUTCOME.yes,
      lock: { roundId: lock.roundId, price: usd(1) },
      close: { roundId: close.roundId, price: usd(2) },
    });
    settled.push({ key: round.key, stakes: round.stakes });
  });

  test("every stake's priceStakeReturnWei is the contract's pricePayout, and each winner's claim pays exactly it", async () => {
    expect(settled.length).toBe(7);
    for (const market of settled) {
      const settlement = await settlementOf(market.key);
      const { sides } = await marketOnChain(market.key);
      const winningSideTotal = settlement.outcome === PRICE_OUTCOME.yes ? sides.yes : sides.no;
      for (const stake of market.stakes) {
        if (stake.side !== PRICE_OUTCOME.yes && stake.side !== PRICE_OUTCOME.no) throw new Error('a bond');
        const expected = priceStakeReturnWei({
          amount: stake.amount,
          side: stake.side,
          outcome: settlement.outcome,
          payoutTotal: settlement.payoutTotal,
          winningSideTotal,
        });
        const viewed = await chain.publicClient.readContract({
          address: escrow.address,
          abi: marketEscrowAbi,
          functionName: 'pricePayout',
          args: [market.key, stake.side, stake.amount],
        });
        expect(viewed).toBe(expected);
        if (expected === 0n) continue;
        const wallet = chain.players.find(
          (each) => each.account.address.toLowerCase() === stake.owner.toLowerCase(),
        );
        if (!wallet) throw new Error(`no wallet for ${stake.owner}`);
        const call = claimCall(escrow.address, { kind: 'price', stake });
        const receipt = await chain.publicClient.waitForTransactionReceipt({
          hash: await wallet.sendTransaction({ account: wallet.account, to: call.to, data: call.data }),
        });
        const [claimed] = parseEventLogs({ abi: marketEscrowAbi, logs: receipt.logs, eventName: 'Claimed' });
        expect(claimed?.args).toMatchObject({ stakeId: stake.stakeId, amount: expected });
      }
    }
  });
});

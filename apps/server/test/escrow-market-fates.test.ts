import { CHAIN_ID } from '@pm/core/constants';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { asc, eq, like, sql } from 'drizzle-orm';
import { type Address, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { DEV_ESCROW_ROLES } from '../src/config/dev-accounts.ts';
import {
  bets,
  chainCursors,
  escrowMarketFates,
  marketFlags,
  markets,
  operatorTransactions,
  oracleBets,
  oracleRounds,
  payments,
  payoutListLeaves,
  payoutLists,
  userStats,
} from '../src/db/schema.ts';
import type { EscrowTarget } from '../src/escrow/escrow-target.ts';
import {
  createMarketFatesJob,
  MARKET_FATES_CURSOR,
  type MarketFatesDeps,
} from '../src/escrow/market-fates/market-fates-job.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { refundRoundOnEscrowFate } from '../src/oracle/refund-on-escrow-fate.ts';
import { createRoundEngine, type RoundEngine } from '../src/oracle/round-engine.ts';
import { refundMarketOnEscrowFate } from '../src/settlement/refund-on-escrow-fate.ts';
import { proposeVerdict } from '../src/settlement/review-window.ts';
import { settleMarket } from '../src/settlement/settle-market.ts';
import { deposit } from './support/escrow-contracts.ts';
import {
  claimableOf,
  escrowMarket,
  escrowOf,
  postClaim,
  postEscrowSettlement,
  readMarketOnChain,
} from './support/escrow-market-helpers.ts';
import { stakeOf } from './support/escrow-stakes.ts';
import { createFaultyChainClient } from './support/faulty-chain.ts';
import { liveRound } from './support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// docs/architecture.md "Following the chain", market fates: the escrow turns a market to refunds on
// its own (the guardian's veto of a pending settlement, or the escape hatch once it is unsettled
// ESCAPE_DELAY after its close) and the app follows, on a real Hardhat node and a real database:
// the market or round shows refunded, every stake is offered as a refund (and relayed, each exactly
// once), winners and forfeits are undone, history and the leaderboard say so, and the settlement
// job never posts the superseded list again.

const FEE_BPS = 250;
const WINDOW_S = 3600;

let t: TestApp;
let escrow: Address;
let target: EscrowTarget;
let engine: RoundEngine;

beforeAll(async () => {
  t = await startTestApp({ MARKET_FEE_BPS: String(FEE_BPS) });
  escrow = escrowOf(t);
  target = { chainId: t.config.chain.id, address: escrow };
  engine = createRoundEngine({
    db: t.db,
    clock: t.clock,
    timings: t.config.rounds,
    feeBps: t.config.fees.oracleBps,
    maxAgeS: t.config.prices.maxAgeS,
    priceSource: 'simulated',
    autoGenesis: false,
    escrow: target,
  });
  await engine.genesis();
});
afterAll(() => t?.close());

const player = (index: number) => {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};
const addressOf = (index: number) => player(index).account.address;
const balanceOf = (address: Address) => t.chain.publicClient.getBalance({ address });
const followFates = () => t.job('escrow-market-fates').run();

async function guardianVetoes(key: Hex) {
  const guardian = createChainWallet(
    { id: CHAIN_ID.local, rpcUrl: t.chain.rpcUrl },
    DEV_ESCROW_ROLES.guardian.privateKey,
  );
  const hash = await guardian.writeContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'veto',
    args: [key],
    chain: null,
  });
  const receipt = await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe('success');
}

async function statsOf(address: Address) {
  const [row] = await t.db.select().from(userStats).where(eq(userStats.address, address.toLowerCase()));
  return {
    totalWinnings: row?.totalWinnings ?? 0n,
    wonBets: row?.wonBets ?? 0,
    settledBets: row?.settledBets ?? 0,
  };
}

async function historyOf(address: Address, game: 'markets' | 'oracle') {
  const response = await t.app.inject({ method: 'GET', url: `/api/users/${address}/history?game=${game}` });
  expect(response.statusCode).toBe(200);
  return response.json().entries as Array<{
    kind: string;
    betId: number;
    marketId: number | null;
    epoch: number | null;
    result: string;
    payoutWei: string | null;
    profitWei: string | null;
    claimState: string;
  }>;
}

async function summaryOf(address: Address, game: 'markets' | 'oracle') {
  const response = await t.app.inject({ method: 'GET', url: `/api/users/${address}/summary?game=${game}` });
  expect(response.statusCode).toBe(200);
  return response.json() as { counts: { won: number; lost: number; refunded: number } };
}

/** Operator actions that post a settlement (`settle` / `settleAsRefund`), of any market. */
async function countSettleActions(): Promise<number> {
  const [row] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(operatorTransactions)
    .where(like(operatorTransactions.key, 'escrow-settle:%'));
  return Number(row?.n);
}

/** POST /api/claims pays `owner` exactly `total` once; a second claim pays nothing. */
async function expectRefundedOnce(owner: Address, total: bigint) {
  const before = await balanceOf(owner);
  const answer = await postClaim(t, owner);
  expect(answer.body).toMatchObject({ success: true, totalWei: total.toString(), payoutStatus: 'confirmed' });
  expect(await balanceOf(owner)).toBe(before + total);
  expect((await postClaim(t, owner)).body).toMatchObject({ success: false, betsCount: 0 });
  expect(await balanceOf(owner)).toBe(before + total);
}

describe("the guardian's veto of a settled market", () => {
  test('the market shows refunded, every stake and the bond are offered and relayed as refunds, winners and the leaderboard undone', async () => {
    const m = await escrowMarket(t, {
      closeInS: 300,
      bettors: [
        { wallet: player(0), prediction: 'YES', amountWei: parseEther('1') },
        { wallet: player(1), prediction: 'NO', amountWei: parseEther('0.6') },
        { wallet: player(2), prediction: 'YES', amountWei: parseEther('0.25') },
      ],
    });
    await m.passClose();
    // The judge proposes YES; its settlement is posted with the review window as its delay.
    await t.db.transaction((tx) =>
      proposeVerdict(tx, {
        marketId: m.marketId,
        verdict: {
          result: 'YES',
          model: 'test-model',
          promptVersion: 'market-resolver-v2',
          confidence: 90,
          analysis: 'It happened.',
          sources: [],
        },
        windowS: WINDOW_S,
        now: t.clock.now(),
        settleOnEscrow: target,
      }),
    );
    await postEscrowSettlement(t, { marketId: m.marketId });

    // Player 1 flags it with a bond, a dispute deposit: the pending settlement goes back.
    const bond = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'disputeBond',
      args: [m.key],
    });
    const bondHash = await deposit(
      player(1),
      escrow,
      { kind: 'flag', market: m.escrowId, closesAt: m.closesAt },
      bond,
    );
    const bondStake = await stakeOf(t.chain, bondHash);
    const [bondPayment] = await t.db
      .insert(payments)
      .values({
        chainId: t.config.chain.id,
        txHash: bondHash.toLowerCase(),
        logIndex: bondStake.logIndex,
        stakeId: bondStake.stakeId,
        fromAddress: bondStake.owner.toLowerCase(),
        amount: bond,
        intent: 'escrow:flag',
        blockNumber: bondStake.blockNumber,
        blockTime: bondStake.blockTime,
        purpose: 'market_flag',
        status: 'recorded',
      })
      .returning({ id: payments.id });
    const [flag] = await t.db
      .insert(marketFlags)
      .values({
        marketId: m.marketId,
        address: bondStake.owner.toLowerCase(),
        reason: 'the verdict is wrong',
        expiry: m.closesAt + WINDOW_S,
        signature: `0x${'11'.repeat(65)}`,
        bondPaymentId: bondPayment?.id,
        bondAmount: bond,
        bondStatus: 'held',
        stakeId: bondStake.stakeId,
      })
      .returning();
    if (!flag) throw new Error('no flag');
    await t.db.update(markets).set({ flagCount: 1 }).where(eq(markets.id, m.marketId));

    // An operator confirms YES: the bond is forfeited to the winners, settled on chain (minimum delay).
    const before = await Promise.all([0, 1, 2].map((index) => statsOf(addressOf(index))));
    await t.db.transaction((tx) =>
      settleMarket(tx, {
        marketId: m.marketId,
        outcome: 'YES',
        verdict: { analysis: 'Confirmed.', confidence: null, sources: [] },
        feeBps: FEE_BPS,
        now: t.clock.now(),
        from: ['settling'],
        actor: 'ops CLI',
        escrow: target,
      }),
    );
    const settled = await postEscrowSettlement(t, { marketId: m.marketId });
    expect(settled.refund).toBe(false);
    expect((await statsOf(addressOf(0))).wonBets).toBe((before[0]?.wonBets ?? 0) + 1);
    expect((await statsOf(addressOf(1))).settledBets).toBe((before[1]?.settledBets ?? 0) + 1);
    const [forfeited] = await t.db.select().from(marketFlags).where(eq(marketFlags.id, flag.id));
    expect(forfeited?.bondStatus).toBe('forfeited');
    // Winners are offered their payout until the veto (not yet claimable: the delay runs).
    const winnerView = await claimableOf(t, addressOf(0));
    expect(winnerView.markets.bets.find((bet) => bet.marketId === m.marketId)?.escrowClaim).toMatchObject({
      refund: false,
    });

    // The guardian vetoes before payouts open: the contract refunds every stake.
    await guardianVetoes(m.key);
    expect((await readMarketOnChain(t, m.key)).state).toBe(3);
    const actions = await countSettleActions();
    await followFates();

    const [market] = await t.db.select().from(markets).where(eq(markets.id, m.marketId));
    expect(market).toMatchObject({ status: 'settled', result: 'VOID' });
    const [row] = await t.db.select().from(payoutLists).where(eq(payoutLists.predictionMarketId, m.marketId));
    expect(row).toMatchObject({ status: 'settled', refund: true, fate: 'vetoed' });
    expect(await t.db.select().from(payoutListLeaves).where(eq(payoutListLeaves.marketKey, m.key))).toEqual(
      [],
    );
    const rows = await t.db.select().from(bets).where(eq(bets.marketId, m.marketId)).orderBy(asc(bets.id));
    expect(rows.map((bet) => [bet.status, bet.payoutAmount])).toEqual(
      m.stakes.map((stake) => ['refunded', stake.amount]),
    );
    const [returned] = await t.db.select().from(marketFlags).where(eq(marketFlags.id, flag.id));
    expect(returned).toMatchObject({
      bondStatus: 'returned_void',
      bondReturnAmount: bond,
      bondRewardAmount: 0n,
    });
    // The leaderboard takes back what the settlement added.
    for (const index of [0, 1, 2]) expect(await statsOf(addressOf(index))).toEqual(before[index]);
    const board = await t.app.inject({ method: 'GET', url: '/api/leaderboard' });
    expect(JSON.stringify(board.json())).not.toContain(addressOf(0).toLowerCase());

    // Every stake, the bond too, is offered as a refund of its amount: nothing as a win.
    for (const stake of m.stakes) {
      const view = await claimableOf(t, stake.owner);
      const offered = view.markets.bets.find((bet) => bet.id === stake.betId);
      expect(offered?.escrowClaim).toMatchObject({
        refund: true,
        proof: [],
        payoutWei: stake.amount.toString(),
        stakeId: stake.stakeId.toString(),
      });
    }
    const bondView = await claimableOf(t, addressOf(1));
    expect(bondView.bonds.bonds).toMatchObject([
      { flagId: flag.id, fate: 'returned_void', returnWei: bond.toString(), escrowClaim: { refund: true } },
    ]);
    // History and P&L: refunds, not wins.
    const history = await historyOf(addressOf(0), 'markets');
    expect(history.find((entry) => entry.kind === 'bet' && entry.marketId === m.marketId)).toMatchObject({
      result: 'refunded',
      profitWei: '0',
      claimState: 'claimable',
    });
    expect((await summaryOf(addressOf(2), 'markets')).counts.won).toBe(0);

    // The relay refunds each stake exactly its amount, once.
    await expectRefundedOnce(addressOf(0), parseEther('1'));
    await expectRefundedOnce(addressOf(1), parseEther('0.6') + bond);
    await expectRefundedOnce(addressOf(2), parseEther('0.25'));
    expect((await readMarketOnChain(t, m.key)).pool).toBe(0n);

    // The superseded list is never posted again, and the event is applied once.
    await t.job('escrow-settlements').run();
    await t.job('operator-transactions').run();
    expect(await countSettleActions()).toBe(actions);
    await t.db.execute(sql`update chain_cursors set block_number = 0 where name = ${MARKET_FATES_CURSOR}`);
    await followFates();
    for (const index of [0, 1, 2]) expect(await statsOf(addressOf(index))).toEqual(before[index]);
    const fates = await t.db.select().from(escrowMarketFates).where(eq(escrowMarketFates.marketKey, m.key));
    expect(fates).toMatchObject([{ fate: 'vetoed', status: 'applied' }]);
  });
});

describe('the escape hatch of a round whose settlement never came', () => {
  test('anyone refunds a stake after ESCAPE_DELAY: the round shows refunded, the rest is offered and relayed, the leaderboard undone', async () => {
    const round = await liveRound(t, { tick: () => engine.tick() });
    const winner = await round.stake(player(0), 'bull', parseEther('0.4'));
    const other = await round.stake(player(1), 'bull', parseEther('0.2'));
    const loser = await round.stake(player(2), 'bear', parseEther('0.3'));
    const before = await Promise.all([0, 1, 2].map((index) => statsOf(addressOf(index))));
    const ended = await round.end({ lock: '600', close: '601.5' });
    expect(ended.result).toBe('bull');
    expect((await statsOf(addressOf(0))).wonBets).toBe((before[0]?.wonBets ?? 0) + 1);
    // Its settlement is due but never posted (the settlement job does not run here).
    const [due] = await t.db.select().from(payoutLists).where(eq(payoutLists.epoch, round.epoch));
    expect(due?.status).toBe('due');

    const escapeDelay = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'ESCAPE_DELAY',
    });
    await t.advanceTime(Number(escapeDelay) + 1);
    // Player 2 refunds its own stake: the round's market turns to refunds (Escaped).
    const hash = await player(2).writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'refund',
      args: [{ stakeId: loser.stakeId, owner: loser.owner, market: round.market.key, amount: loser.amount }],
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await followFates();
    await t.job('escrow-stake-payouts').run();

    const [ended_] = await t.db.select().from(oracleRounds).where(eq(oracleRounds.epoch, round.epoch));
    expect(ended_).toMatchObject({ status: 'ended', result: 'cancelled', cancelReason: 'escaped' });
    const [row] = await t.db.select().from(payoutLists).where(eq(payoutLists.epoch, round.epoch));
    expect(row).toMatchObject({ status: 'settled', refund: true, fate: 'escaped' });
    const rows = await t.db
      .select()
      .from(oracleBets)
      .where(eq(oracleBets.epoch, round.epoch))
      .orderBy(asc(oracleBets.id));
    expect(rows.map((bet) => [bet.payoutAmount, bet.claimed])).toEqual([
      [winner.amount, false],
      [other.amount, false],
      [loser.amount, true],
    ]);
    for (const [index, stats] of before.entries()) expect(await statsOf(addressOf(index))).toEqual(stats);
    const history = await historyOf(addressOf(0), 'oracle');
    expect(history.find((entry) => entry.epoch === round.epoch)).toMatchObject({
      result: 'refunded',
      profitWei: '0',
      claimState: 'claimable',
    });
    const offered = (await claimableOf(t, addressOf(0))).oracle.bets.find((bet) => bet.epoch === round.epoch);
    expect(offered?.escrowClaim).toMatchObject({ refund: true, payoutWei: winner.amount.toString() });
    // The escaped stake was paid by the escape itself: not offered again.
    expect((await claimableOf(t, addressOf(2))).oracle.bets.some((bet) => bet.epoch === round.epoch)).toBe(
      false,
    );

    const actions = await countSettleActions();
    await expectRefundedOnce(addressOf(0), winner.amount);
    await expectRefundedOnce(addressOf(1), other.amount);
    expect((await readMarketOnChain(t, round.market.key)).pool).toBe(0n);
    await t.job('escrow-settlements').run();
    expect(await countSettleActions()).toBe(actions);
  });
});

describe('the market-fates job', () => {
  test('never halts on one bad fate, leaves an unknown market alone, and retries a transient RPC fault', async () => {
    const faulty = createFaultyChainClient(t.chain.rpcUrl);
    const metrics = createMetrics();
    const failing = new Set<number>();
    const deps: MarketFatesDeps = {
      db: t.db,
      chain: faulty.client,
      chainId: t.config.chain.id,
      escrow,
      confirmations: t.config.chain.confirmations,
      now: () => t.clock.now(),
      handlers: {
        async refundMarket(tx, input) {
          if (failing.has(input.marketId)) throw new Error('a bad row');
          return refundMarketOnEscrowFate(tx, input);
        },
        refundRound: refundRoundOnEscrowFate,
      },
      startFrom: t.config.escrow.deployBlock,
      metrics,
    };
    const job = createMarketFatesJob(deps);
    const cursorOf = async () =>
      (await t.db.select().from(chainCursors).where(eq(chainCursors.name, MARKET_FATES_CURSOR)))[0]
        ?.blockNumber;

    // Two markets vetoed; the first one's handler fails. Both close, settle and are vetoed together,
    // within their payout delay.
    const vetoed = [];
    for (const index of [1, 2]) {
      vetoed.push(
        await escrowMarket(t, {
          closeInS: 300,
          bettors: [
            { wallet: player(index), prediction: 'YES', amountWei: parseEther('0.1') },
            { wallet: player(index - 1), prediction: 'NO', amountWei: parseEther('0.05') },
          ],
        }),
      );
    }
    for (const m of vetoed) await m.passClose();
    for (const m of vetoed) {
      await t.db.transaction((tx) =>
        settleMarket(tx, {
          marketId: m.marketId,
          outcome: 'YES',
          verdict: { analysis: 'Yes.', confidence: null, sources: [] },
          feeBps: FEE_BPS,
          now: t.clock.now(),
          from: ['settling'],
          actor: 'ops CLI',
          escrow: target,
        }),
      );
    }
    for (const m of vetoed) await postEscrowSettlement(t, { marketId: m.marketId });
    const [bad, good] = vetoed;
    if (!bad || !good) throw new Error('no markets');
    failing.add(bad.marketId);
    for (const m of vetoed) await guardianVetoes(m.key);

    // The node fails the logs read: the run fails, the cursor holds, nothing is lost.
    const cursorBefore = await cursorOf();
    faulty.fail('eth_getLogs', 1);
    await expect(job.run()).rejects.toThrow();
    const cursorAfter = await cursorOf();
    expect(cursorAfter).toBe(cursorBefore);

    // Retried: both fates queued; the bad one keeps its error, the good one is applied.
    await job.run();
    const fateOf = async (key: Hex) =>
      (await t.db.select().from(escrowMarketFates).where(eq(escrowMarketFates.marketKey, key)))[0];
    expect(await fateOf(bad.key)).toMatchObject({
      status: 'pending',
      lastError: expect.stringMatching(/a bad row/),
    });
    expect(await fateOf(good.key)).toMatchObject({ status: 'applied' });
    const [goodMarket] = await t.db.select().from(markets).where(eq(markets.id, good.marketId));
    expect(goodMarket?.result).toBe('VOID');
    const [badMarket] = await t.db.select().from(markets).where(eq(markets.id, bad.marketId));
    expect(badMarket?.result).toBe('YES');

    // A fate of a key no market of ours has is ended as unknown, not retried.
    await t.db.insert(escrowMarketFates).values({
      chainId: t.config.chain.id,
      marketKey: `0x${'ab'.repeat(32)}`,
      fate: 'escaped',
      txHash: `0x${'cd'.repeat(32)}`,
      logIndex: 0,
      blockNumber: 1n,
      blockTime: t.clock.now(),
    });
    await job.run();
    expect(await fateOf(`0x${'ab'.repeat(32)}`)).toMatchObject({ status: 'unknown' });

    // Healed, the bad one is applied at its next attempt.
    failing.clear();
    await t.db
      .update(escrowMarketFates)
      .set({ nextAttemptAt: t.clock.now() })
      .where(eq(escrowMarketFates.marketKey, bad.key));
    await job.run();
    expect(await fateOf(bad.key)).toMatchObject({ status: 'applied' });
    const [healed] = await t.db.select().from(markets).where(eq(markets.id, bad.marketId));
    expect(healed?.result).toBe('VOID');
    const counted = (await metrics.registry.getSingleMetric('bnbpredict_escrow_market_fates_total')?.get())
      ?.values;
    expect(
      counted?.find((each) => each.labels.fate === 'vetoed' && each.labels.outcome === 'applied')?.value,
    ).toBe(2);
    expect(
      counted?.find((each) => each.labels.fate === 'escaped' && each.labels.outcome === 'unknown')?.value,
    ).toBe(1);
  });
});

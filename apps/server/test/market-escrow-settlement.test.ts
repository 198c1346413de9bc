import { newMarketId } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import { MARKET_OUTCOME, marketVerdictHash } from '@pm/escrow/market-settlement';
import { parsePayoutList } from '@pm/escrow/payout-list';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { verifySettlement } from '@pm/escrow/verify-settlement';
import { asc, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { type Address, type Hex, parseEther, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bets, marketFlags, markets, operatorTransactions, payoutLists } from '../src/db/schema.ts';
import { createEscrowModule } from '../src/escrow/escrow-module.ts';
import type { EscrowTarget } from '../src/escrow/escrow-target.ts';
import { findPayoutListByMarket } from '../src/escrow/settlements/payout-lists-repository.ts';
import {
  advanceEscrowSettlements,
  type EscrowSettlementDeps,
} from '../src/escrow/settlements/post-settlements-job.ts';
import { planSettlement } from '../src/escrow/settlements/settlement-plans.ts';
import { createPriceSettlementJob } from '../src/price-markets/price-settlement-job.ts';
import { voidMarketByOperator } from '../src/settlement/operator-actions.ts';
import { proposeVerdict, settleReviewedMarkets } from '../src/settlement/review-window.ts';
import { settleMarket } from '../src/settlement/settle-market.ts';
import { deposit } from './support/escrow-contracts.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { insertSample } from './support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Issue 29, decision 026 (docs/architecture.md "Markets on the escrow"): Predictions markets settle on
// the escrow contract as oracle rounds do, on a real Hardhat node and a real database. Bets arrive as
// real deposits; the intake is another branch's, so the rows are written with their stake ids.

const FEE_BPS = 250;
const WINDOW_S = 3600;
const MIN_PAYOUT_DELAY = 60;

let t: TestApp;
let escrow: Address;
let target: EscrowTarget;
let escrowModule: ReturnType<typeof createEscrowModule>;

beforeAll(async () => {
  t = await startTestApp({ MARKET_FEE_BPS: String(FEE_BPS), RESOLUTION_REVIEW_WINDOW_S: String(WINDOW_S) });
  const address = t.config.escrow.address;
  if (!address) throw new Error('no escrow');
  escrow = address;
  target = { chainId: t.config.chain.id, address };
  escrowModule = createEscrowModule(t.deps, pino({ level: 'silent' }));
});
afterAll(() => t?.close());

const player = (index: number) => {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};

async function chainNowS(): Promise<number> {
  return Number((await t.chain.publicClient.getBlock({ blockTag: 'latest' })).timestamp);
}

type StakedBet = { player: number; side: 'YES' | 'NO'; wei: bigint };

/**
 * A market on the escrow: each bet deposited on chain (kind bet), then the market and its bets written
 * as the intake would (escrow id and key, each bet's stake id), closing `closeInS` from now.
 */
async function marketOnEscrow(staked: StakedBet[], options: { closeInS?: number; price?: boolean } = {}) {
  const escrowId = newMarketId();
  const closesAt = (await chainNowS()) + (options.closeInS ?? 300);
  const stakeIds: bigint[] = [];
  for (const each of staked) {
    const hash = await deposit(
      player(each.player),
      escrow,
      { kind: 'bet', market: escrowId, closesAt, prediction: each.side },
      each.wei,
    );
    const receipt = await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
    if (!event) throw new Error('no deposit');
    stakeIds.push(event.args.stakeId);
  }
  const { marketId, betIds } = await insertMarketWithBets(t.db, {
    bets: staked.map((each) => ({
      prediction: each.side,
      amountWei: each.wei,
      user: player(each.player).account.address.toLowerCase(),
    })),
    status: 'settling',
    now: new Date(closesAt * 1000),
  });
  const key = marketKey(escrowId, closesAt);
  await t.db
    .update(markets)
    .set({
      escrowId,
      escrowKey: key,
      ...(options.price
        ? {
            betType: 'price_prediction',
            targetSymbol: 'BNB',
            comparisonType: 'above',
            targetPrice: 60_000_000_000n,
          }
        : {}),
    })
    .where(eq(markets.id, marketId));
  for (const [index, betId] of betIds.entries()) {
    await t.db
      .update(bets)
      .set({ stakeId: stakeIds[index] ?? null })
      .where(eq(bets.id, betId));
  }
  return { marketId, key, escrowId, closesAt, stakeIds };
}

/** Moves the chain (and the server's clock) past `closesAt`. */
async function pastClose(closesAt: number) {
  const now = await chainNowS();
  if (now <= closesAt) await t.advanceTime(closesAt - now + 1);
}

async function runEscrowJobs() {
  for (const job of escrowModule.jobs) await job.run();
}

async function listRow(marketId: number) {
  const row = await findPayoutListByMarket(t.db, marketId);
  if (!row) throw new Error(`market ${marketId} has no payout list`);
  return row;
}

/** Runs the escrow's jobs until the market's settlement is final on chain. */
async function settleOnChain(marketId: number) {
  for (let step = 0; step < 6; step++) {
    await runEscrowJobs();
    const row = await listRow(marketId);
    if (row.status === 'settled') return row;
  }
  throw new Error(`market ${marketId} not settled: ${JSON.stringify(await listRow(marketId))}`);
}

async function escrowMarket(key: Hex) {
  const [pool, , claimableAt, state, , , payoutRoot, payoutTotal, paid, fee] =
    await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'markets',
      args: [key],
    });
  return { pool, claimableAt, state, payoutRoot, payoutTotal, paid, fee };
}

async function betsOf(marketId: number) {
  return t.db.select().from(bets).where(eq(bets.marketId, marketId)).orderBy(asc(bets.id));
}

async function countActions(): Promise<number> {
  const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(operatorTransactions);
  return Number(row?.n);
}

/** The list served for `key`, parsed. */
async function servedList(key: Hex) {
  const served = await t.app.inject({ method: 'GET', url: `/api/payout-lists/${key}` });
  expect(served.statusCode).toBe(200);
  return parsePayoutList(served.json());
}

const proposal = (result: 'YES' | 'NO', analysis = 'Both sources say so.') => ({
  result,
  model: 'test-model',
  promptVersion: 'market-resolver-v2',
  confidence: 90,
  analysis,
  sources: ['https://example.com/a'],
});

/** The list's leaves equal, to the wei, the returns the database holds by stake id (every paid one). */
function expectListEqualsBets(
  list: Awaited<ReturnType<typeof servedList>>,
  rows: Awaited<ReturnType<typeof betsOf>>,
) {
  const paid = rows
    .filter((bet) => (bet.payoutAmount ?? 0n) > 0n)
    .map((bet) => [bet.stakeId, bet.payoutAmount] as const)
    .sort((a, b) => ((a[0] ?? 0n) < (b[0] ?? 0n) ? -1 : 1));
  expect(
    list.leaves
      .filter((leaf) => leaf.payout > 0n)
      .map((leaf) => [leaf.stakeId, leaf.payout] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  ).toEqual(paid);
}

describe('a judged market on the escrow', () => {
  test('proposed: settle is posted with the review window as its delay and the proposal list, which the DB settlement pays to the wei', async () => {
    const m = await marketOnEscrow([
      { player: 0, side: 'YES', wei: parseEther('1') },
      { player: 1, side: 'YES', wei: parseEther('0.333333333333333337') },
      { player: 2, side: 'NO', wei: parseEther('0.7') },
      { player: 0, side: 'NO', wei: parseEther('0.123456789012345678') },
      { player: 1, side: 'YES', wei: parseEther('0.05') },
    ]);
    await pastClose(m.closesAt);
    const proposedAt = t.clock.now();
    await t.db.transaction((tx) =>
      proposeVerdict(tx, {
        marketId: m.marketId,
        verdict: proposal('YES'),
        windowS: WINDOW_S,
        now: proposedAt,
        settleOnEscrow: target,
      }),
    );
    const due = await listRow(m.marketId);
    expect(due).toMatchObject({
      status: 'due',
      marketKey: m.key,
      epoch: null,
      refund: false,
      outcome: MARKET_OUTCOME.YES,
      payoutDelayS: WINDOW_S,
    });
    expect(due.verdictHash).toBe(
      marketVerdictHash({
        marketKey: m.key,
        result: 'YES',
        evidenceSha256: [],
        analysis: 'Both sources say so.',
      }),
    );

    const settled = await settleOnChain(m.marketId);
    const list = await servedList(m.key);
    const onChain = await escrowMarket(m.key);
    expect(onChain).toMatchObject({
      state: 2,
      payoutRoot: list.root,
      payoutTotal: list.payoutTotal,
      fee: list.fee,
    });
    expect(list.payoutTotal + list.fee).toBe(onChain.pool);
    // Payouts open when the window ends, not a minimum delay after the DB settles.
    const delay = (settled.claimableAt?.getTime() ?? 0) - (settled.settledAt?.getTime() ?? 0);
    expect(delay).toBe((settled.payoutDelayS ?? 0) * 1000);
    expect(settled.payoutDelayS).toBeGreaterThan(WINDOW_S - 30);
    expect(settled.payoutDelayS).toBeLessThanOrEqual(WINDOW_S);
    expect((settled.claimableAt?.getTime() ?? 0) >= proposedAt.getTime() + (WINDOW_S - 30) * 1000).toBe(true);
    expect((await verifySettlement(t.chain.publicClient, escrow, list)).discrepancies).toEqual([]);

    // The window ends unflagged: the DB settles on the proposal; nothing new is posted.
    const actions = await countActions();
    await t.advanceTime(WINDOW_S + 1);
    const reviewed = await settleReviewedMarkets(t.db, {
      now: t.clock.now(),
      feeBps: FEE_BPS,
      escrow: target,
    });
    expect(reviewed.map((summary) => summary.marketId)).toContain(m.marketId);
    await runEscrowJobs();
    expect(await countActions()).toBe(actions);
    expect(await listRow(m.marketId)).toMatchObject({ status: 'settled', root: list.root });
    // Every leaf is what settleMarket wrote into bets.payout_amount, to the wei.
    const rows = await betsOf(m.marketId);
    expect(rows.every((bet) => bet.status === 'won' || bet.status === 'lost')).toBe(true);
    expectListEqualsBets(list, rows);
  });

  test('operator void of a proposed market: the pending settlement is amended to a refund (Voided)', async () => {
    const m = await marketOnEscrow([
      { player: 0, side: 'YES', wei: parseEther('0.2') },
      { player: 2, side: 'NO', wei: parseEther('0.3') },
    ]);
    await pastClose(m.closesAt);
    await t.db.transaction((tx) =>
      proposeVerdict(tx, {
        marketId: m.marketId,
        verdict: proposal('NO'),
        windowS: WINDOW_S,
        now: t.clock.now(),
        settleOnEscrow: target,
      }),
    );
    await settleOnChain(m.marketId);
    expect((await escrowMarket(m.key)).state).toBe(2);

    await voidMarketByOperator(t.db, {
      marketId: m.marketId,
      reason: 'The question was ambiguous.',
      feeBps: FEE_BPS,
      now: t.clock.now(),
      actor: 'ops CLI',
      escrow: target,
    });
    const requeued = await listRow(m.marketId);
    expect(requeued).toMatchObject({
      status: 'due',
      refund: true,
      outcome: MARKET_OUTCOME.VOID,
      attempts: 1,
    });
    expect(requeued.payoutDelayS).toBeNull();
    const settled = await settleOnChain(m.marketId);
    expect(settled.refund).toBe(true);
    expect((await escrowMarket(m.key)).state).toBe(3);
    const response = await t.app.inject({ method: 'GET', url: `/api/payout-lists/${m.key}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toMatch(/refunded in full/);
  });

  test('an operator verdict with no winner settles as a refund with its result code', async () => {
    const m = await marketOnEscrow([
      { player: 0, side: 'NO', wei: parseEther('0.2') },
      { player: 1, side: 'NO', wei: parseEther('0.1') },
    ]);
    await pastClose(m.closesAt);
    await t.db.transaction((tx) =>
      settleMarket(tx, {
        marketId: m.marketId,
        outcome: 'YES',
        verdict: { analysis: 'It happened.', confidence: null, sources: [] },
        feeBps: FEE_BPS,
        now: t.clock.now(),
        from: ['settling'],
        actor: 'ops CLI',
        escrow: target,
      }),
    );
    expect(await listRow(m.marketId)).toMatchObject({
      refund: true,
      outcome: MARKET_OUTCOME.YES,
      payoutDelayS: null,
    });
    await settleOnChain(m.marketId);
    expect((await escrowMarket(m.key)).state).toBe(3);
  });
});

describe('a price market on the escrow', () => {
  test('settles from its reading with the minimum delay and a list equal to the DB payouts', async () => {
    const m = await marketOnEscrow(
      [
        { player: 0, side: 'YES', wei: parseEther('0.4') },
        { player: 1, side: 'NO', wei: parseEther('0.9') },
        { player: 2, side: 'YES', wei: parseEther('0.111111111111111111') },
      ],
      { price: true },
    );
    await pastClose(m.closesAt);
    await insertSample(t.db, { usd: '700', at: new Date(m.closesAt * 1000 + 1000), roundId: '5' });
    const job = createPriceSettlementJob({
      db: t.db,
      clock: t.clock,
      logger: pino({ level: 'silent' }),
      source: 'simulated',
      maxAgeS: t.config.prices.maxAgeS,
      resolutionTimeoutS: t.config.ai.resolutionTimeoutS,
      feeBps: FEE_BPS,
      feedWaitS: t.config.prices.feedWaitS,
      escrow: target,
    });
    await job.run();
    const [market] = await t.db.select().from(markets).where(eq(markets.id, m.marketId));
    expect(market).toMatchObject({ status: 'settled', result: 'YES' });
    const due = await listRow(m.marketId);
    expect(due).toMatchObject({ refund: false, outcome: MARKET_OUTCOME.YES, payoutDelayS: null });
    expect(due.verdictHash).toBe(
      marketVerdictHash({
        marketKey: m.key,
        result: 'YES',
        evidenceSha256: [],
        analysis: market?.aiVerdict ?? '',
      }),
    );
    const settled = await settleOnChain(m.marketId);
    expect((settled.claimableAt?.getTime() ?? 0) - (settled.settledAt?.getTime() ?? 0)).toBe(
      MIN_PAYOUT_DELAY * 1000,
    );
    const list = await servedList(m.key);
    expectListEqualsBets(list, await betsOf(m.marketId));
    expect(list.fee).toBeGreaterThanOrEqual((parseEther('0.9') * BigInt(FEE_BPS)) / 10_000n);
    expect((await verifySettlement(t.chain.publicClient, escrow, list)).discrepancies).toEqual([]);
  });
});

describe('the escrow settlement job', () => {
  test('never halts on one bad row, and a second instance does not post twice', async () => {
    // A bad row: a market on the escrow whose bet names no stake.
    const bad = await marketOnEscrow([{ player: 0, side: 'YES', wei: parseEther('0.05') }]);
    await t.db.update(bets).set({ stakeId: null }).where(eq(bets.marketId, bad.marketId));
    const good = await marketOnEscrow([
      { player: 1, side: 'YES', wei: parseEther('0.05') },
      { player: 2, side: 'NO', wei: parseEther('0.07') },
    ]);
    await pastClose(Math.max(bad.closesAt, good.closesAt));
    for (const each of [bad, good]) {
      await t.db.transaction((tx) =>
        settleMarket(tx, {
          marketId: each.marketId,
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
    // Two instances step at once: one publishes, the other finds it moved; one action in all.
    const deps = (): EscrowSettlementDeps => ({
      db: t.db,
      chain: t.chain.publicClient,
      chainId: t.config.chain.id,
      escrow,
      sender: escrowModule.sender as NonNullable<typeof escrowModule.sender>,
      fees: { oracleBps: 0, marketBps: FEE_BPS },
      now: () => t.clock.now(),
    });
    const actions = await countActions();
    const [first, second] = await Promise.all([
      advanceEscrowSettlements(deps()),
      advanceEscrowSettlements(deps()),
    ]);
    expect((first?.published ?? 0) + (second?.published ?? 0)).toBe(1);
    expect(await countActions()).toBe(actions + 1);
    const badRow = await listRow(bad.marketId);
    expect(badRow).toMatchObject({ status: 'due' });
    expect(badRow.lastError).toMatch(/names no stake/);
    expect(await listRow(good.marketId)).toMatchObject({ status: 'published' });
    await settleOnChain(good.marketId);
    expect((await escrowMarket(good.key)).state).toBe(2);
  });

  test('a market made before the escrow (no key) queues nothing', async () => {
    const { marketId } = await insertMarketWithBets(t.db, {
      bets: [{ prediction: 'YES', amountWei: parseEther('0.01') }],
      status: 'settling',
    });
    await t.db.transaction((tx) =>
      settleMarket(tx, {
        marketId,
        outcome: 'YES',
        verdict: { analysis: 'Yes.', confidence: null, sources: [] },
        feeBps: FEE_BPS,
        now: t.clock.now(),
        from: ['settling'],
        escrow: target,
      }),
    );
    expect(await findPayoutListByMarket(t.db, marketId)).toBeUndefined();
  });
});

describe('the proposal list and the DB settlement', () => {
  test('agree to the wei for every bet, on many odd stakes, either side', async () => {
    // Deterministic odd stakes (no chain needed: the plan is what the job would post).
    let seed = 7n;
    const next = () => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return seed;
    };
    for (const result of ['YES', 'NO'] as const) {
      const fixture = Array.from({ length: 60 }, (_, index) => ({
        prediction: (next() % 3n === 0n ? 'NO' : 'YES') as 'YES' | 'NO',
        amountWei: 5_000_000_000_000_000n + (next() % 10n ** 18n),
        user: player(index % 3).account.address.toLowerCase(),
      }));
      const { marketId, betIds } = await insertMarketWithBets(t.db, { bets: fixture, status: 'settling' });
      const escrowId = newMarketId();
      const [market] = await t.db.select().from(markets).where(eq(markets.id, marketId));
      const closesAt = Math.floor((market?.deadline.getTime() ?? 0) / 1000);
      await t.db
        .update(markets)
        .set({ escrowId, escrowKey: marketKey(escrowId, closesAt), deadline: new Date(closesAt * 1000) })
        .where(eq(markets.id, marketId));
      for (const [index, betId] of betIds.entries()) {
        await t.db
          .update(bets)
          .set({ stakeId: 10n ** 12n + BigInt(marketId) * 1000n + BigInt(index) })
          .where(eq(bets.id, betId));
      }
      await t.db.transaction((tx) =>
        proposeVerdict(tx, {
          marketId,
          verdict: proposal(result),
          windowS: WINDOW_S,
          now: t.clock.now(),
          settleOnEscrow: target,
        }),
      );
      const row = await listRow(marketId);
      const plan = await planSettlement(t.db, row, { oracleBps: 0, marketBps: FEE_BPS }, t.clock.now());
      expect(plan.delayS).toBe(WINDOW_S);
      await t.db.transaction((tx) =>
        settleMarket(tx, {
          marketId,
          outcome: result,
          verdict: { analysis: 'Both sources say so.', confidence: 90, sources: [] },
          feeBps: FEE_BPS,
          now: t.clock.now(),
          from: ['settling'],
          escrow: target,
          escrowCause: 'reviewed',
        }),
      );
      const byStake = new Map((await betsOf(marketId)).map((bet) => [bet.stakeId, bet.payoutAmount]));
      expect(plan.stakes).toHaveLength(fixture.length);
      for (const stake of plan.stakes) expect(stake.payout).toBe(byStake.get(stake.stakeId));
      // And the settled bets plan the same list, with the same fee.
      const settled = await planSettlement(
        t.db,
        await listRow(marketId),
        { oracleBps: 0, marketBps: FEE_BPS },
        t.clock.now(),
      );
      expect(settled.stakes).toEqual(plan.stakes);
      expect(settled.ruleFee).toBe(plan.ruleFee);
      expect(settled.delayS).toBeNull();
      // The window's end kept the proposal's row (not built yet here: due at once, minimum delay).
      const kept = await listRow(marketId);
      expect(kept).toMatchObject({ status: 'due', attempts: 0, payoutDelayS: null });
      // Clean up: this market has no deposits on chain, so its row must not reach the job.
      await t.db.delete(payoutLists).where(eq(payoutLists.id, kept.id));
    }
  });
});

describe("a flag's bond on the escrow", () => {
  test('is a leaf of the settled list: an overturned verdict returns it with its reward, out of the fee', async () => {
    const fixture = [
      {
        prediction: 'YES' as const,
        amountWei: parseEther('1'),
        user: player(0).account.address.toLowerCase(),
      },
      {
        prediction: 'NO' as const,
        amountWei: parseEther('0.6'),
        user: player(1).account.address.toLowerCase(),
      },
    ];
    const { marketId, betIds } = await insertMarketWithBets(t.db, { bets: fixture, status: 'settling' });
    const escrowId = newMarketId();
    const [market] = await t.db.select().from(markets).where(eq(markets.id, marketId));
    const closesAt = Math.floor((market?.deadline.getTime() ?? 0) / 1000);
    await t.db
      .update(markets)
      .set({ escrowId, escrowKey: marketKey(escrowId, closesAt), deadline: new Date(closesAt * 1000) })
      .where(eq(markets.id, marketId));
    for (const [index, betId] of betIds.entries()) {
      await t.db
        .update(bets)
        .set({ stakeId: 2n * 10n ** 12n + BigInt(index) })
        .where(eq(bets.id, betId));
    }
    await t.db.transaction((tx) =>
      proposeVerdict(tx, {
        marketId,
        verdict: proposal('YES'),
        windowS: WINDOW_S,
        now: t.clock.now(),
        settleOnEscrow: target,
      }),
    );
    const bond = parseEther('0.02');
    const bondStake = 2n * 10n ** 12n + 99n;
    await t.db.insert(marketFlags).values({
      marketId,
      address: player(1).account.address.toLowerCase(),
      reason: 'The sources say NO.',
      expiry: closesAt + 7200,
      signature: '0x',
      bondAmount: bond,
      bondStatus: 'held',
      stakeId: bondStake,
    });
    await t.db.update(markets).set({ flagCount: 1 }).where(eq(markets.id, marketId));
    // Flagged: the proposal's list waits for an operator.
    const proposed = await listRow(marketId);
    await expect(
      planSettlement(t.db, proposed, { oracleBps: 0, marketBps: FEE_BPS }, t.clock.now()),
    ).rejects.toThrow(/flagged/);
    // The operator overturns it: NO wins, the bond comes back with a reward out of the fee.
    await t.db.transaction((tx) =>
      settleMarket(tx, {
        marketId,
        outcome: 'NO',
        verdict: { analysis: 'Overturned.', confidence: null, sources: [] },
        feeBps: FEE_BPS,
        now: t.clock.now(),
        from: ['settling'],
        actor: 'ops CLI',
        escrow: target,
      }),
    );
    const row = await listRow(marketId);
    expect(row).toMatchObject({
      status: 'due',
      refund: false,
      outcome: MARKET_OUTCOME.NO,
      payoutDelayS: null,
    });
    const plan = await planSettlement(t.db, row, { oracleBps: 0, marketBps: FEE_BPS }, t.clock.now());
    const [flag] = await t.db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId));
    const fee = (parseEther('1') * BigInt(FEE_BPS)) / 10_000n;
    expect(flag).toMatchObject({ bondStatus: 'returned', bondRewardAmount: fee < bond ? fee : bond });
    expect(plan.stakes.find((stake) => stake.stakeId === bondStake)).toEqual({
      stakeId: bondStake,
      owner: player(1).account.address.toLowerCase(),
      amount: bond,
      payout: flag?.bondReturnAmount,
    });
    expect(plan.ruleFee).toBe(fee - (flag?.bondRewardAmount ?? 0n));
    const paid = plan.stakes.reduce((sum, stake) => sum + stake.payout, 0n);
    const pool = parseEther('1.6') + bond;
    expect(paid + plan.ruleFee <= pool).toBe(true);
    expect(pool - paid - plan.ruleFee).toBeLessThan(2n);
    await t.db.delete(payoutLists).where(eq(payoutLists.id, row.id));
  });
});

describe('refusals', () => {
  /** A market on the escrow written to the database alone (no deposits: nothing reaches the chain). */
  async function dbMarket(sides: ('YES' | 'NO')[]) {
    const { marketId, betIds } = await insertMarketWithBets(t.db, {
      bets: sides.map((prediction) => ({ prediction, amountWei: parseEther('0.01') })),
      status: 'settling',
    });
    const escrowId = newMarketId();
    const [market] = await t.db.select().from(markets).where(eq(markets.id, marketId));
    const closesAt = Math.floor((market?.deadline.getTime() ?? 0) / 1000);
    await t.db
      .update(markets)
      .set({ escrowId, escrowKey: marketKey(escrowId, closesAt), deadline: new Date(closesAt * 1000) })
      .where(eq(markets.id, marketId));
    for (const [index, betId] of betIds.entries()) {
      await t.db
        .update(bets)
        .set({ stakeId: 3n * 10n ** 12n + BigInt(marketId) * 100n + BigInt(index) })
        .where(eq(bets.id, betId));
    }
    return marketId;
  }

  test('a proposal that refunds every stake posts nothing: it is posted when the market settles', async () => {
    const marketId = await dbMarket(['NO', 'NO']);
    await t.db.transaction((tx) =>
      proposeVerdict(tx, {
        marketId,
        verdict: proposal('YES'),
        windowS: WINDOW_S,
        now: t.clock.now(),
        settleOnEscrow: target,
      }),
    );
    expect(await findPayoutListByMarket(t.db, marketId)).toBeUndefined();
  });

  test('a market on the escrow does not settle on a server with no escrow: nothing is half-done', async () => {
    const marketId = await dbMarket(['YES', 'NO']);
    await expect(
      t.db.transaction((tx) =>
        settleMarket(tx, {
          marketId,
          outcome: 'YES',
          verdict: { analysis: 'Yes.', confidence: null, sources: [] },
          feeBps: FEE_BPS,
          now: t.clock.now(),
          from: ['settling'],
          escrow: null,
        }),
      ),
    ).rejects.toThrow(/no ESCROW_ADDRESS/);
    const [market] = await t.db.select().from(markets).where(eq(markets.id, marketId));
    expect(market?.status).toBe('settling');
    expect((await betsOf(marketId)).every((bet) => bet.status === 'pending')).toBe(true);
  });
});

import { CHAIN_ID } from '@pm/core/constants';
import { newMarketId } from '@pm/escrow/deposit-terms';
import { MARKET_OUTCOME, marketVerdictHash } from '@pm/escrow/market-settlement';
import { parsePayoutList } from '@pm/escrow/payout-list';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { verifySettlement } from '@pm/escrow/verify-settlement';
import { asc, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { type Address, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainWallet } from '../src/chain/chain-client.ts';
import { DEV_ESCROW_ROLES } from '../src/config/dev-accounts.ts';
import { bets, marketFlags, markets, operatorTransactions, payoutLists } from '../src/db/schema.ts';
import { createEscrowModule } from '../src/escrow/escrow-module.ts';
import type { EscrowTarget } from '../src/escrow/escrow-target.ts';
import { findPayoutListByMarket } from '../src/escrow/settlements/payout-lists-repository.ts';
import {
  advanceEscrowSettlements,
  type EscrowSettlementDeps,
  SETTLEMENT_EXPECTED_S,
} from '../src/escrow/settlements/post-settlements-job.ts';
import { planSettlement } from '../src/escrow/settlements/settlement-plans.ts';
import { createMetrics, type Metrics } from '../src/metrics/metrics.ts';
import { createPriceSettlementJob } from '../src/price-markets/price-settlement-job.ts';
import { voidMarketByOperator } from '../src/settlement/operator-actions.ts';
import { proposeVerdict, settleReviewedMarkets } from '../src/settlement/review-window.ts';
import { settleMarket } from '../src/settlement/settle-market.ts';
import {
  type EscrowBettor,
  escrowMarket,
  escrowOf,
  postEscrowSettlement,
  readMarketOnChain,
} from './support/escrow-market-helpers.ts';
import { type FixtureBet, insertMarketWithBets } from './support/market-fixtures.ts';
import { insertSample } from './support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 026 (docs/architecture.md "Markets on the escrow"): Predictions markets settle on the
// escrow contract as oracle rounds do, on a real Hardhat node and a real database. Bets arrive as real
// deposits, recorded as the intake records them (markets-escrow-intake.test.ts walks the intake).

const FEE_BPS = 250;
const WINDOW_S = 3600;
const MIN_PAYOUT_DELAY = 60;

let t: TestApp;
let escrow: Address;
let target: EscrowTarget;
let escrowModule: ReturnType<typeof createEscrowModule>;

beforeAll(async () => {
  t = await startTestApp({ MARKET_FEE_BPS: String(FEE_BPS), RESOLUTION_REVIEW_WINDOW_S: String(WINDOW_S) });
  escrow = escrowOf(t);
  target = { chainId: t.config.chain.id, address: escrow };
  escrowModule = createEscrowModule(t.deps, pino({ level: 'silent' }));
});
afterAll(() => t?.close());

const player = (index: number) => {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};

const bettor = (index: number, prediction: 'YES' | 'NO', bnb: string): EscrowBettor => ({
  wallet: player(index),
  prediction,
  amountWei: parseEther(bnb),
});

/** A market on the escrow whose bets are deposits, closing five minutes on (a price market if told). */
const marketOnEscrow = (bettors: EscrowBettor[], options: { price?: boolean } = {}) =>
  escrowMarket(t, {
    bettors,
    closeInS: 300,
    ...(options.price
      ? {
          row: {
            betType: 'price_prediction',
            targetSymbol: 'BNB',
            comparisonType: 'above',
            targetPrice: 60_000_000_000n,
          },
        }
      : {}),
  });

let unchainedStake = 10n ** 12n;
/** A stake id no chain holds: for plans of markets written to the database alone. */
const unchainedStakeId = () => unchainedStake++;

/**
 * A market on the escrow written to the database alone (its bets name stakes no chain holds, so
 * nothing of it may reach the chain): for the settlement plans, which the job would post.
 */
async function dbMarket(bets: FixtureBet[]) {
  const escrowId = newMarketId();
  const closesAt = Math.floor(Date.now() / 1000);
  const stakeIds = bets.map(() => unchainedStakeId());
  const { marketId } = await insertMarketWithBets(t.db, {
    bets: bets.map((bet, index) => ({ ...bet, stakeId: stakeIds[index] })),
    escrow: { escrowId, closesAt },
  });
  return { marketId, closesAt };
}

async function listRow(marketId: number) {
  const row = await findPayoutListByMarket(t.db, marketId);
  if (!row) throw new Error(`market ${marketId} has no payout list`);
  return row;
}

async function runEscrowJobs() {
  for (const job of escrowModule.jobs) await job.run();
}

const settleOnChain = (marketId: number) => postEscrowSettlement(t, { marketId });

const escrowMarketOf = (key: Hex) => readMarketOnChain(t, key);

/** The judge's verdict proposed (at `now`, default the clock's), its settlement due on the test's escrow. */
const proposeNow = (marketId: number, result: 'YES' | 'NO', now = t.clock.now()) =>
  t.db.transaction((tx) =>
    proposeVerdict(tx, {
      marketId,
      verdict: proposal(result),
      windowS: WINDOW_S,
      now,
      settleOnEscrow: target,
    }),
  );

/**
 * settleMarket in a transaction of its own, now, on the test's escrow: the job's settlement unless an
 * `actor` says whose verdict it is (analysis "Yes." and no confidence unless told).
 */
function settleNow(
  marketId: number,
  outcome: 'YES' | 'NO',
  more: {
    analysis?: string;
    confidence?: number;
    actor?: string;
    escrow?: null;
    escrowCause?: 'reviewed';
  } = {},
) {
  const { analysis = 'Yes.', confidence = null, ...rest } = more;
  return t.db.transaction((tx) =>
    settleMarket(tx, {
      marketId,
      outcome,
      verdict: { analysis, confidence, sources: [] },
      feeBps: FEE_BPS,
      now: t.clock.now(),
      from: ['settling'],
      escrow: target,
      ...rest,
    }),
  );
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

/** A counter's value for these labels, 0 when it has none. */
async function counter(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const values = (await metrics.registry.getSingleMetric(name)?.get())?.values ?? [];
  const found = values.find((each) =>
    Object.entries(labels).every(([key, value]) => each.labels[key] === value),
  );
  return found?.value ?? 0;
}

/** The settlement job's deps as another instance has them: its own metrics, its error lines kept. */
function instance() {
  const metrics = createMetrics();
  const errors: string[] = [];
  const log = {
    info: () => {},
    warn: () => {},
    error: (_fields: unknown, message?: string) => {
      errors.push(message ?? '');
    },
  };
  const deps: EscrowSettlementDeps = {
    db: t.db,
    chain: t.chain.publicClient,
    chainId: t.config.chain.id,
    escrow,
    sender: escrowModule.sender as NonNullable<typeof escrowModule.sender>,
    fees: { oracleBps: 0, marketBps: FEE_BPS },
    now: () => t.clock.now(),
    log: log as unknown as NonNullable<EscrowSettlementDeps['log']>,
    metrics,
  };
  return { deps, metrics, errors };
}

describe('a judged market on the escrow', () => {
  test('proposed: settle is posted with the review window as its delay and the proposal list, which the DB settlement pays to the wei', async () => {
    const m = await marketOnEscrow([
      bettor(0, 'YES', '1'),
      bettor(1, 'YES', '0.333333333333333337'),
      bettor(2, 'NO', '0.7'),
      bettor(0, 'NO', '0.123456789012345678'),
      bettor(1, 'YES', '0.05'),
    ]);
    await m.passClose();
    const proposedAt = t.clock.now();
    await proposeNow(m.marketId, 'YES', proposedAt);
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
    const onChain = await escrowMarketOf(m.key);
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
    const block = await t.chain.publicClient.getBlock({ blockTag: 'latest' });
    const reviewed = await settleReviewedMarkets(t.db, {
      now: t.clock.now(),
      chainNow: new Date(Number(block.timestamp) * 1000),
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
    const m = await marketOnEscrow([bettor(0, 'YES', '0.2'), bettor(2, 'NO', '0.3')]);
    await m.passClose();
    await proposeNow(m.marketId, 'NO');
    await settleOnChain(m.marketId);
    expect((await escrowMarketOf(m.key)).state).toBe(2);

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
    expect((await escrowMarketOf(m.key)).state).toBe(3);
    const response = await t.app.inject({ method: 'GET', url: `/api/payout-lists/${m.key}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toMatch(/refunded in full/);
  });

  test('an operator verdict with no winner settles as a refund with its result code', async () => {
    const m = await marketOnEscrow([bettor(0, 'NO', '0.2'), bettor(1, 'NO', '0.1')]);
    await m.passClose();
    await settleNow(m.marketId, 'YES', { analysis: 'It happened.', actor: 'ops CLI' });
    expect(await listRow(m.marketId)).toMatchObject({
      refund: true,
      outcome: MARKET_OUTCOME.YES,
      payoutDelayS: null,
    });
    await settleOnChain(m.marketId);
    expect((await escrowMarketOf(m.key)).state).toBe(3);
  });
});

describe('a price market on the escrow', () => {
  test('settles from its reading with the minimum delay and a list equal to the DB payouts', async () => {
    const m = await marketOnEscrow(
      [bettor(0, 'YES', '0.4'), bettor(1, 'NO', '0.9'), bettor(2, 'YES', '0.111111111111111111')],
      { price: true },
    );
    await m.passClose();
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
    const bad = await marketOnEscrow([bettor(0, 'YES', '0.05')]);
    await t.db.update(bets).set({ stakeId: null }).where(eq(bets.marketId, bad.marketId));
    const good = await marketOnEscrow([bettor(1, 'YES', '0.05'), bettor(2, 'NO', '0.07')]);
    await bad.passClose();
    await good.passClose();
    for (const each of [bad, good]) {
      await settleNow(each.marketId, 'YES', { actor: 'ops CLI' });
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
    expect((await escrowMarketOf(good.key)).state).toBe(2);
  });

  // docs/operations.md "Metrics": bnbpredict_escrow_settlement_failures_total and
  // bnbpredict_escrow_settlements_overdue_total, alerts EscrowSettlementFailing and EscrowSettlementOverdue.
  test('a settlement that cannot be sent is counted; past its expected time it is logged as an error and counted once, whichever instance sees it', async () => {
    const market = await marketOnEscrow([bettor(1, 'YES', '0.02'), bettor(2, 'NO', '0.03')]);
    await market.passClose();
    await settleNow(market.marketId, 'YES', { actor: 'ops CLI' });
    const local = { id: CHAIN_ID.local, rpcUrl: t.chain.rpcUrl };
    const pause = (role: 'guardian' | 'admin', functionName: 'pause' | 'unpause') =>
      createChainWallet(local, DEV_ESCROW_ROLES[role].privateKey).writeContract({
        address: escrow,
        abi: predictionEscrowAbi,
        functionName,
        chain: null,
      });
    const failedBefore = await counter(t.metrics, 'bnbpredict_escrow_settlement_failures_total', {
      reason: 'action_failed',
    });
    // A paused escrow refuses settle: the action fails in its simulation (EnforcedPause).
    await pause('guardian', 'pause');
    try {
      await runEscrowJobs();
      await runEscrowJobs();
      const failed = await listRow(market.marketId);
      expect(failed.status).toBe('due');
      expect(failed.lastError).toMatch(/its settle failed: .*EnforcedPause/);
      expect(
        await counter(t.metrics, 'bnbpredict_escrow_settlement_failures_total', { reason: 'action_failed' }),
      ).toBe(failedBefore + 1);
      expect(failed.overdueAt).toBeNull();

      // Past its expected time, two instances step at once: one of them logs and counts it.
      await t.db
        .update(payoutLists)
        .set({ createdAt: new Date(Date.now() - (SETTLEMENT_EXPECTED_S + 5) * 1000) })
        .where(eq(payoutLists.id, failed.id));
      const instances = [instance(), instance()];
      await Promise.all(instances.map((each) => advanceEscrowSettlements(each.deps)));
      let overdue = 0;
      for (const each of instances) {
        overdue += await counter(each.metrics, 'bnbpredict_escrow_settlements_overdue_total', {
          stage: 'unsent',
        });
        expect(
          await counter(each.metrics, 'bnbpredict_escrow_settlements_overdue_total', {
            stage: 'unconfirmed',
          }),
        ).toBe(0);
      }
      expect(overdue).toBe(1);
      const errors = instances.flatMap((each) => each.errors).filter((line) => line.includes('overdue'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^escrow settlement overdue: not sent \d+ s after it was due \(its settle failed: /,
      );
      expect((await listRow(market.marketId)).overdueAt).not.toBeNull();
      // Later steps count it no more.
      const again = instance();
      await advanceEscrowSettlements(again.deps);
      expect(
        await counter(again.metrics, 'bnbpredict_escrow_settlements_overdue_total', { stage: 'unsent' }),
      ).toBe(0);
    } finally {
      await pause('admin', 'unpause');
    }
    // Unpaused, it is built again and settles.
    for (let step = 0; step < 4 && (await listRow(market.marketId)).status !== 'settled'; step++) {
      await t.advanceTime(120);
      await runEscrowJobs();
    }
    expect((await listRow(market.marketId)).status).toBe('settled');
    expect((await escrowMarketOf(market.key)).state).toBe(2);
  });

  test('a market made before the escrow (no key) queues nothing', async () => {
    const { marketId } = await insertMarketWithBets(t.db, {
      bets: [{ prediction: 'YES', amountWei: parseEther('0.01') }],
      status: 'settling',
    });
    await settleNow(marketId, 'YES');
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
      const { marketId } = await dbMarket(fixture);
      await proposeNow(marketId, result);
      const row = await listRow(marketId);
      const plan = await planSettlement(t.db, row, { oracleBps: 0, marketBps: FEE_BPS }, t.clock.now());
      expect(plan.delayS).toBe(WINDOW_S);
      await settleNow(marketId, result, {
        analysis: 'Both sources say so.',
        confidence: 90,
        escrowCause: 'reviewed',
      });
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
    const { marketId, closesAt } = await dbMarket(fixture);
    await proposeNow(marketId, 'YES');
    const bond = parseEther('0.02');
    const bondStake = unchainedStakeId();
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
    await settleNow(marketId, 'NO', { analysis: 'Overturned.', actor: 'ops CLI' });
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
  const sided = (sides: ('YES' | 'NO')[]) =>
    sides.map((prediction) => ({ prediction, amountWei: parseEther('0.01') }));

  test('a proposal that refunds every stake posts nothing: it is posted when the market settles', async () => {
    const { marketId } = await dbMarket(sided(['NO', 'NO']));
    await proposeNow(marketId, 'YES');
    expect(await findPayoutListByMarket(t.db, marketId)).toBeUndefined();
  });

  test('a market on the escrow does not settle on a server with no escrow: nothing is half-done', async () => {
    const { marketId } = await dbMarket(sided(['YES', 'NO']));
    await expect(settleNow(marketId, 'YES', { escrow: null })).rejects.toThrow(/no ESCROW_ADDRESS/);
    const [market] = await t.db.select().from(markets).where(eq(markets.id, marketId));
    expect(market?.status).toBe('settling');
    expect((await betsOf(marketId)).every((bet) => bet.status === 'pending')).toBe(true);
  });
});

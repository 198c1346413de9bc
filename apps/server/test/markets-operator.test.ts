import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { eq } from 'drizzle-orm';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bets, markets, payments } from '../src/db/schema.ts';
import { marketsCommands } from '../src/ops/markets-commands.ts';
import { voidAfterTimeoutText } from '../src/settlement/settlement-job.ts';
import { marketHelpers, settleMarkets } from './support/market-helpers.ts';
import { runOps } from './support/ops-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// No AI configured here (AI_BASE_URL unset): markets wait for an operator, who uses the ops CLI.

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
beforeAll(async () => {
  t = await startTestApp();
  m = marketHelpers(t);
});
afterAll(() => t?.close());

const settle = () => settleMarkets(t);

const ops = (...argv: string[]) => runOps(t, marketsCommands, ...argv);

const detail = async (id: number) =>
  MarketDetailResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/markets/${id}` })).json());

describe('demo data', () => {
  test('an empty database gets demo markets made with real payments, once', async () => {
    await t.features.seedDemoData?.();
    const seeded = await t.db.select().from(markets);
    expect(seeded.length).toBeGreaterThanOrEqual(4);
    expect(new Set(seeded.map((market) => market.category)).size).toBeGreaterThanOrEqual(4);
    const seededBets = await t.db.select().from(bets);
    expect(seededBets.length).toBeGreaterThan(seeded.length);
    const paid = await t.db.select().from(payments);
    expect(paid.every((payment) => payment.status === 'recorded')).toBe(true);
    const receipt = await t.chain.publicClient.getTransactionReceipt({
      hash: `0x${seededBets[0]?.txHash.slice(2) ?? ''}`,
    });
    expect(receipt.status).toBe('success');

    await t.features.seedDemoData?.();
    expect(await t.db.select().from(markets)).toHaveLength(seeded.length);
  });
});

describe('without an AI', () => {
  test('a market past its deadline waits in settling without burning attempts', async () => {
    const { market } = await m.createMarket({ title: 'awaiting-operator' });
    expect(market.resolver.model).toBe('operator');
    await t.advanceTime(3601);
    await settle();
    await t.advanceTime(3600);
    await settle();
    const [row] = await t.db.select().from(markets).where(eq(markets.id, market.id));
    expect(row).toMatchObject({
      status: 'settling',
      resolutionAttempts: 0,
      resolutionError: null,
      result: null,
    });
  });
});

describe('the ops CLI', () => {
  test('markets:pending lists the markets waiting for a verdict', async () => {
    const { code, output } = await ops('markets:pending');
    expect(code).toBe(0);
    expect(output).toMatch(/#\d+ {2}awaiting-operator/);
    expect(output).toContain('judge operator');
    expect(output).toMatch(/\d+ market\(s\) waiting for resolution\./);
  });

  test('markets:resolve settles a closed market with the operator analysis', async () => {
    const { market } = await m.createMarket({ title: 'operator-yes' }, { amountWei: parseEther('0.01') });
    await m.joinMarket(market.id, { player: 1, prediction: 'NO', amountWei: parseEther('0.01') });
    await t.advanceTime(3601);
    const { code, output } = await ops(
      'markets:resolve',
      String(market.id),
      'yes',
      '--analysis',
      'Reported by Reuters.',
    );
    expect(code).toBe(0);
    expect(output).toContain(`Market #${market.id} settled YES: 1 winning and 1 losing bet(s)`);
    const after = await detail(market.id);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'YES',
      aiVerdict: 'Reported by Reuters.',
      aiConfidence: null,
    });
    expect(after.bets.find((bet) => bet.isCreator)).toMatchObject({
      status: 'won',
      returnWei: parseEther('0.02').toString(),
      profitWei: parseEther('0.01').toString(),
    });
    expect(after.bets.find((bet) => !bet.isCreator)).toMatchObject({
      status: 'lost',
      returnWei: '0',
      profitWei: (-parseEther('0.01')).toString(),
    });

    const again = await ops('markets:resolve', String(market.id), 'NO', '--analysis', 'Changed my mind.');
    expect(again.code).toBe(1);
    expect(again.output).toContain('already settled');
  });

  test('markets:resolve refuses a market still taking bets, and bad arguments are usage errors', async () => {
    const { market } = await m.createMarket({ title: 'still-open' });
    const open = await ops('markets:resolve', String(market.id), 'YES', '--analysis', 'Too early.');
    expect(open.code).toBe(1);
    expect(open.output).toContain('takes bets until');
    expect((await ops('markets:resolve', 'abc', 'YES', '--analysis', 'x')).code).toBe(64);
    expect((await ops('markets:resolve', String(market.id), 'MAYBE', '--analysis', 'x')).code).toBe(64);
    expect((await ops('markets:resolve', String(market.id), 'YES')).output).toContain('--analysis');
    expect((await ops('markets:resolve', String(market.id), 'YES', '--bogus', 'x')).code).toBe(64);
    expect((await ops('markets:resolve', '999999', 'YES', '--analysis', 'x')).output).toContain(
      'Market not found',
    );
  });

  test('markets:void refunds every stake of an open market, and later payments become refunds', async () => {
    const { market } = await m.createMarket({ title: 'to-void' });
    await m.joinMarket(market.id, { player: 2, prediction: 'NO' });
    const { code, output } = await ops(
      'markets:void',
      String(market.id),
      '--reason',
      'Duplicate of another market',
    );
    expect(code).toBe(0);
    expect(output).toContain('settled VOID: 2 bet(s) refunded');
    const after = await detail(market.id);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'VOID',
      aiVerdict: 'Duplicate of another market',
    });
    expect(after.bets.every((bet) => bet.status === 'refunded')).toBe(true);

    const late = await m.postJoin(market.id, { player: 1 });
    expect(late.response.statusCode).toBe(409);
    expect((await m.paymentRow(late.txHash))?.status).toBe('escrow_refund');
    expect((await ops('markets:void', String(market.id), '--reason', 'again')).code).toBe(1);
    expect((await ops('markets:void', String(market.id))).code).toBe(64);
  });

  test('help lists every command; an unknown command is a usage error', async () => {
    const help = await ops('help');
    expect(help.code).toBe(0);
    for (const name of ['markets:pending', 'markets:resolve', 'markets:void'])
      expect(help.output).toContain(name);
    expect((await ops('markets:frobnicate')).code).toBe(64);
  });
});

// No market waits forever for an operator (docs/decisions/009). Last in this file: it moves the clock
// days ahead.
describe('a market no operator resolves', () => {
  test('is voided and every stake refunded MARKET_RESOLUTION_TIMEOUT_S after its deadline', async () => {
    const { market } = await m.createMarket({ title: 'forgotten' });
    await m.joinMarket(market.id, { player: 2, prediction: 'NO' });
    const timeoutS = t.config.ai.resolutionTimeoutS;
    await t.advanceTime(3601);
    await settle();
    expect((await detail(market.id)).market.status).toBe('settling');
    await t.advanceTime(timeoutS - 3601 - 60);
    await settle();
    expect((await detail(market.id)).market.status).toBe('settling');

    await t.advanceTime(3601 + 120);
    await settle();
    const after = await detail(market.id);
    expect(after.market).toMatchObject({
      status: 'settled',
      result: 'VOID',
      aiVerdict: voidAfterTimeoutText(timeoutS),
    });
    expect(after.bets).toHaveLength(2);
    expect(after.bets.every((bet) => bet.status === 'refunded')).toBe(true);
    expect((await ops('markets:pending')).output).not.toContain('forgotten');
  });
});

import { ListMarketsResponseSchema, MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { RoundsResponseSchema } from '@pm/core/contract/oracle';
import { flagTypedData } from '@pm/core/contract/review';
import { SolvencyResponseSchema } from '@pm/core/contract/solvency';
import {
  flagBondOwes,
  LIABILITY_PARTS,
  marketBetOwes,
  paymentOwes,
  payoutOwes,
  roundBetOwes,
  sumLiabilities,
  vaultTransferOwes,
} from '@pm/core/liabilities';
import { payAndPostFlag } from '@pm/pay-and-post/pay-and-post-flag';
import { walletPayer } from '@pm/pay-and-post/payer';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import pino from 'pino';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../src/db/query-rows.ts';
import {
  bets,
  marketFlags,
  markets,
  oracleBets,
  oracleRounds,
  payments,
  payouts,
  vaultTransfers,
} from '../src/db/schema.ts';
import { marketsCommands } from '../src/ops/markets-commands.ts';
import { owedBackWei } from '../src/payments/payments-repository.ts';
import { listClaimable } from '../src/payouts/claimable-repository.ts';
import { readLiabilities } from '../src/solvency/liabilities-repository.ts';
import type { ReservesReading } from '../src/solvency/reserves-job.ts';
import { type AiStub, startAiStub, verdict } from './support/ai-stub.ts';
import { escrowMarketWithBets, escrowOf, postMarketSettlement } from './support/escrow-market-helpers.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { runOps } from './support/ops-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Issue 20, docs/architecture.md "Proof of reserves": after bets, claims, refunds, a void, an oracle
// round and a held flag bond, what GET /api/solvency says the vault owes equals what every bettor
// could claim or be refunded (the claimable endpoint and the refund rows), plus the stakes still
// open, the bonds held and the payouts queued; its balance is the chain's at its block. Then the
// vault is drained: the ratio falls under 1 and every check logs an error with the figures.

let stub: AiStub;
let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
const logLines: string[] = [];
const readings: ReservesReading[] = [];

beforeAll(async () => {
  stub = await startAiStub();
  stub.reply(() => verdict({ verdict: 'YES', confidence: 91 }));
  t = await startTestApp(
    {
      AI_BASE_URL: stub.url,
      AI_API_KEY: 'sk-test',
      AI_MODEL: 'stub-judge',
      AI_TIMEOUT_MS: '1000',
      MARKET_FEE_BPS: '200',
      ORACLE_FEE_BPS: '300',
      RESOLUTION_REVIEW_WINDOW_S: '600',
      ROUND_INTERVAL_S: '120',
      BETTING_WINDOW_S: '60',
      PAYMENT_WAIT_MS: '1500',
      // Refunds under 0.002 BNB are held for an operator: one refund here stays owed.
      REFUND_MIN_WEI: parseEther('0.002').toString(),
    },
    {
      logger: pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) }),
      onReserves: (reading) => void readings.push(reading),
    },
  );
  m = marketHelpers(t);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

function job(name: string) {
  const found = t.features.jobs.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`the server runs no ${name} job`);
  return found;
}

async function getJson(url: string) {
  const response = await t.app.inject({ method: 'GET', url });
  if (response.statusCode !== 200)
    throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** What the endpoint serves after a reserves check: it serves the job's last reading (S1). */
const solvency = async () => {
  await job('reserves-check').run();
  return SolvencyResponseSchema.parse(await getJson('/api/solvency'));
};

const vault = () => t.config.vault.address;

/** What the vault owes, added up from the product's own reads, as a bettor or an auditor would. */
async function owedByTheReads() {
  const [betters, roundBetters, payers] = await Promise.all([
    t.db.selectDistinct({ address: bets.userAddress }).from(bets),
    t.db.selectDistinct({ address: oracleBets.userAddress }).from(oracleBets),
    t.db.selectDistinct({ address: payments.fromAddress }).from(payments),
  ]);
  const addresses = new Set([...betters, ...roundBetters, ...payers].map((row) => row.address));
  let claimableWei = 0n;
  for (const address of addresses) {
    // What a vault claim would pay each address: market and round bets staked on the escrow (decision
    // 026) are the contract's to pay, so the vault's claim path leaves them out.
    const claimable = await listClaimable(t.db, address, { games: 'markets' });
    claimableWei += claimable.markets.reduce((sum, { bet }) => sum + (bet.payoutAmount ?? 0n), 0n);
  }
  const refundRows = await t.db
    .select()
    .from(payments)
    .where(and(inArray(payments.status, ['refund_due', 'refund_held']), isNull(payments.refundPayoutId)));
  const refundsWei = refundRows.reduce((sum, row) => sum + owedBackWei(row), 0n);

  const open = ListMarketsResponseSchema.parse(await getJson('/api/markets?status=open&limit=200'));
  expect(open.nextCursor).toBeNull();
  // An open market's stakes on the escrow (its bets with a stake id) are the contract's, not the vault's.
  const openIds = open.markets.map((market) => market.id);
  const openVaultBets = await t.db
    .select({ amount: bets.amount })
    .from(bets)
    .where(and(inArray(bets.marketId, openIds.length ? openIds : [-1]), isNull(bets.stakeId)));
  const openMarketsWei = openVaultBets.reduce((sum, bet) => sum + bet.amount, 0n);
  const rounds = RoundsResponseSchema.parse(await getJson('/api/oracle/rounds'));
  const openRoundsWei = [rounds.current, rounds.next]
    .filter((round) => round !== null && round.status !== 'ended')
    .reduce((sum, round) => sum + BigInt(round?.totalUpWei ?? 0) + BigInt(round?.totalDownWei ?? 0), 0n);

  const [held] = await queryRows(
    t.db,
    sql`select coalesce(sum(bond_amount), 0)::text as wei from market_flags where bond_status = 'held' and stake_id is null`,
    z.object({ wei: z.coerce.bigint() }),
  );
  const [queued] = await queryRows(
    t.db,
    sql`select coalesce(sum(amount), 0)::text as wei from payouts where status in ('created', 'signed', 'broadcast')`,
    z.object({ wei: z.coerce.bigint() }),
  );
  const heldWei = held?.wei ?? 0n;
  const queuedWei = queued?.wei ?? 0n;
  return {
    claimableWei,
    refundsWei,
    openMarketsWei,
    openRoundsWei,
    heldWei,
    queuedWei,
    // openRoundsWei is the escrow's (every round bet here has a stake id), not in the vault's total.
    totalWei: claimableWei + refundsWei + openMarketsWei + heldWei + queuedWei,
  };
}

/** The same figure from every row of the ledger through core's row rules, to check the SQL. */
async function owedByTheRowRules() {
  const marketBets = await t.db
    .select({ bet: bets, marketStatus: markets.status })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId));
  const roundBets = await t.db
    .select({ bet: oracleBets, roundStatus: oracleRounds.status })
    .from(oracleBets)
    .innerJoin(oracleRounds, eq(oracleRounds.epoch, oracleBets.epoch));
  const MarketStatus = z.enum(['active', 'settling', 'settled']);
  const BetStatus = z.enum(['pending', 'won', 'lost', 'claimed', 'refunded']);
  const RoundStatus = z.enum(['upcoming', 'live', 'locked', 'ended']);
  const PaymentStatus = z.enum(['recorded', 'refund_due', 'refund_held', 'refunded', 'escrow_refund']);
  const BondStatus = z.enum(['held', 'returned', 'forfeited', 'returned_void']).nullable();
  const PayoutStatus = z.enum(['created', 'signed', 'broadcast', 'confirmed', 'failed']);
  const recorded = new Set(
    (await t.db.select({ txHash: payments.txHash }).from(payments)).map((row) => row.txHash),
  );
  return sumLiabilities([
    ...marketBets.map(({ bet, marketStatus }) =>
      marketBetOwes({
        marketStatus: MarketStatus.parse(marketStatus),
        status: BetStatus.parse(bet.status),
        amountWei: bet.amount,
        payoutAmountWei: bet.payoutAmount,
        inPayout: bet.payoutId !== null,
        onEscrow: bet.stakeId !== null,
      }),
    ),
    ...roundBets.map(({ bet, roundStatus }) =>
      roundBetOwes({
        roundStatus: RoundStatus.parse(roundStatus),
        amountWei: bet.amount,
        payoutAmountWei: bet.payoutAmount,
        claimed: bet.claimed,
        inPayout: bet.payoutId !== null,
        onEscrow: bet.stakeId !== null,
      }),
    ),
    ...(await t.db.select().from(payments)).map((payment) =>
      paymentOwes({
        status: PaymentStatus.parse(payment.status),
        amountWei: payment.amount,
        refundAmountWei: payment.refundAmount,
        inPayout: payment.refundPayoutId !== null,
      }),
    ),
    ...(await t.db.select().from(marketFlags)).map((flag) =>
      flagBondOwes({
        bondStatus: BondStatus.parse(flag.bondStatus),
        bondAmountWei: flag.bondAmount,
        onEscrow: flag.stakeId !== null,
      }),
    ),
    ...(await t.db.select().from(payouts)).map((payout) =>
      payoutOwes({ status: PayoutStatus.parse(payout.status), amountWei: payout.amount }),
    ),
    ...(await t.db.select().from(vaultTransfers)).map((transfer) =>
      vaultTransferOwes({
        resolved: transfer.resolvedAt !== null,
        recorded: recorded.has(transfer.txHash),
        amountWei: transfer.amount,
      }),
    ),
  ]);
}

/** Moves the chain (and the server clock) to just after the next round boundary. */
async function toNextRoundStart() {
  const nowS = t.clock.now().getTime() / 1000;
  await t.advanceTime(Math.ceil(nowS / 120) * 120 - Math.floor(nowS) + 1);
}

async function placeRoundBet(wallet: ReturnType<typeof m.extraWallet>, epoch: number, amountWei: bigint) {
  const { response } = await m.postOracleBet(epoch, { wallet, position: 'bull', amountWei });
  expect(response.statusCode).toBe(201);
}

describe('GET /api/solvency', () => {
  test('what the vault owes is what every bettor can claim or be refunded, plus open stakes, held bonds and queued payouts', async () => {
    const alice = m.player(0);
    const dave = m.extraWallet(4);

    // Three markets with real deposits into the escrow (decision 026): A stays open (daily), B is
    // resolved YES, C is voided. None of it is the vault's debt.
    const a = await m.createMarket({ description: 'Solvency A', duration: 'daily' }, { player: 0 });
    await m.joinMarket(a.market.id, { player: 1, prediction: 'NO', amountWei: parseEther('0.03') });
    const b = await m.createMarket(
      { description: 'Solvency B' },
      { player: 0, amountWei: parseEther('0.04') },
    );
    await m.joinMarket(b.market.id, { player: 1, prediction: 'NO', amountWei: parseEther('0.02') });
    await m.joinMarket(b.market.id, { player: 2, prediction: 'YES', amountWei: parseEther('0.01') });
    const c = await m.createMarket({ description: 'Solvency C', prediction: 'NO' }, { player: 2 });
    await m.joinMarket(c.market.id, { wallet: dave, prediction: 'YES', amountWei: parseEther('0.03') });
    // Two refused deposits, given back by the escrow (never the vault).
    const small = await m.postJoin(a.market.id, { wallet: dave, amountWei: parseEther('0.001') });
    expect(small.response.json().error.code).toBe('AMOUNT_TOO_LOW');
    const refused = await m.postJoin(b.market.id, { player: 2, amountWei: parseEther('0.004') });
    expect(refused.response.json().error.code).toBe('AMOUNT_TOO_LOW');

    await t.advanceTime(3601);
    expect(
      (
        await runOps(
          t,
          marketsCommands,
          'markets:resolve',
          String(b.market.id),
          'YES',
          '--analysis',
          'It did.',
        )
      ).code,
    ).toBe(0);
    expect(
      (await runOps(t, marketsCommands, 'markets:void', String(c.market.id), '--reason', 'Unclear.')).code,
    ).toBe(0);

    // D: a verdict in review, flagged with a bond: a dispute deposit into the escrow (decision 026),
    // which holds it: none of the vault's debt. Its bets are deposits too, written as fixtures with
    // their stake ids (judging a v3 market needs evidence; review-window.test.ts covers that), and its
    // verdict's settlement is posted on chain by the test's stand-in of the settlement job.
    const flagger = m.extraWallet(6);
    const d = await escrowMarketWithBets(t, {
      title: 'Solvency D',
      resolverModel: 'stub-judge',
      bettors: [
        { prediction: 'YES', amountWei: parseEther('0.01'), wallet: m.extraWallet(5) },
        { prediction: 'NO', amountWei: parseEther('0.02'), wallet: flagger },
      ],
    });
    await job('market-settlement').run();
    await job('market-judging').run();
    await postMarketSettlement(t, { marketId: d.marketId });
    const inReview = MarketDetailResponseSchema.parse(await getJson(`/api/markets/${d.marketId}`));
    const bondWei = BigInt(inReview.market.review?.bondWei ?? '0');
    expect(bondWei).toBeGreaterThan(0n);
    const expiry = Math.floor(t.clock.now().getTime() / 1000) + 300;
    const reason = 'The source says otherwise.';
    const signature = await flagger.account.signTypedData(
      flagTypedData({ chainId: t.config.chain.id, marketId: d.marketId, reason, expiry }),
    );
    const flagged = await payAndPostFlag(
      { payer: walletPayer(flagger), vault: m.vault, escrow: escrowOf(t), api: m.api },
      {
        marketId: d.marketId,
        escrowId: d.escrowId,
        closesAt: d.closesAt,
        amountWei: bondWei,
        flag: { address: flagger.account.address, reason, expiry, signature },
      },
    );
    expect(flagged.response.statusCode).toBe(201);
    const bondTx = flagged.txHash;

    // An oracle round with two bets runs to its end; a bet on the next round stays open.
    await toNextRoundStart();
    await t.runJobs();
    const live = RoundsResponseSchema.parse(await getJson('/api/oracle/rounds')).current;
    if (!live) throw new Error('no live round');
    await placeRoundBet(m.extraWallet(7), live.epoch, parseEther('0.1'));
    await placeRoundBet(m.extraWallet(8), live.epoch, parseEther('0.05'));
    await t.advanceTime(60);
    await t.runJobs();
    await t.advanceTime(60);
    await t.runJobs();
    const after = RoundsResponseSchema.parse(await getJson('/api/oracle/rounds'));
    expect(after.previous?.epoch).toBe(live.epoch);
    if (after.current?.status !== 'live') throw new Error('the next round is not live');
    await placeRoundBet(m.extraWallet(9), after.current.epoch, parseEther('0.02'));

    // B's and C's bets are the escrow's to pay: a vault claim finds nothing of them.
    expect((await listClaimable(t.db, alice.account.address.toLowerCase())).markets).toEqual([]);
    // The refused deposits were given back by the escrow's refundStake (the jobs ran), not the vault.
    expect(await m.paymentRow(refused.txHash)).toMatchObject({ status: 'refunded' });
    expect(await m.paymentRow(small.txHash)).toMatchObject({ status: 'refunded' });
    expect(await m.paymentRow(bondTx)).toMatchObject({ status: 'recorded', purpose: 'market_flag' });

    // A vault payout still in flight (queued, not yet signed, as a claim leaves it) is owed until it confirms.
    const queuedWei = parseEther('0.03');
    await t.db.insert(payouts).values({
      chainId: t.config.chain.id,
      fromAddress: vault().toLowerCase(),
      toAddress: dave.account.address.toLowerCase(),
      amount: queuedWei,
      kind: 'claim',
    });

    const body = await solvency();
    const reads = await owedByTheReads();
    expect(body.liabilitiesWei).toBe(reads.totalWei.toString());
    expect(body.parts).toEqual({
      openMarketStakesWei: reads.openMarketsWei.toString(),
      // The round stakes and winnings are on the escrow (decision 026): none of the vault's debt.
      openRoundStakesWei: '0',
      unclaimedMarketWei: expect.any(String),
      unclaimedRoundWei: '0',
      refundsOwedWei: reads.refundsWei.toString(),
      // D's bond is the escrow's (a dispute deposit): none of the vault's debt.
      flagBondsHeldWei: '0',
      payoutsQueuedWei: queuedWei.toString(),
      unrecordedTransfersWei: '0',
    });
    expect(BigInt(body.parts.unclaimedMarketWei)).toBe(reads.claimableWei);
    // The escrow holds the rounds' stakes instead, the open one's among them.
    const escrow = await t.app.inject({ method: 'GET', url: '/api/vault' });
    expect(BigInt(escrow.json().liabilitiesWei)).toBeGreaterThanOrEqual(reads.openRoundsWei);
    // What the vault still owes is in the figure: the queued payout. Every market (A to D, D open
    // with its held bond), every refusal and the open round are the escrow's (decision 026).
    expect(reads.openMarketsWei).toBe(0n);
    expect(reads.openRoundsWei).toBe(parseEther('0.02'));
    expect(reads.refundsWei).toBe(0n);
    expect(reads.claimableWei).toBe(0n);
    // The SQL sums are core's row rules, part by part.
    const byRules = await owedByTheRowRules();
    expect(await readLiabilities(t.db)).toEqual(byRules);
    expect(body.liabilitiesWei).toBe(byRules.totalWei.toString());

    // The balance is the chain's at the block the answer names.
    const balance = await t.chain.publicClient.getBalance({
      address: vault(),
      blockNumber: BigInt(body.blockNumber),
    });
    expect(body.vaultBalanceWei).toBe(balance.toString());
    expect(body).toMatchObject({ vaultAddress: vault(), covered: true, shortfallWei: '0' });
    expect(BigInt(body.reserveRatioBps ?? '0')).toBe((balance * 10_000n) / reads.totalWei);

    // The periodic check reports the same figures and logs nothing while covered.
    readings.length = 0;
    await job('reserves-check').run();
    expect(readings).toHaveLength(1);
    expect(readings[0]?.liabilitiesWei).toBe(reads.totalWei);
    expect(logLines.filter((line) => line.includes('ALERT: the vault holds less'))).toEqual([]);
  });

  test('a drained vault is short: the ratio falls under 1 and every check logs an error with the figures', async () => {
    const before = await solvency();
    const owed = BigInt(before.liabilitiesWei);
    expect(owed).toBeGreaterThan(parseEther('0.02'));
    // Send the vault's BNB away, leaving about half of what it owes (plus change for the gas).
    const hash = await t.chain.vault.sendTransaction({
      account: t.chain.vault.account,
      chain: t.chain.vault.chain,
      to: '0x000000000000000000000000000000000000dEaD',
      value: BigInt(before.vaultBalanceWei) - owed / 2n - parseEther('0.01'),
    });
    await t.chain.vault.waitForTransactionReceipt({ hash });

    const short = await solvency();
    expect(short.liabilitiesWei).toBe(before.liabilitiesWei);
    const balance = await t.chain.publicClient.getBalance({
      address: vault(),
      blockNumber: BigInt(short.blockNumber),
    });
    expect(short.vaultBalanceWei).toBe(balance.toString());
    expect(balance).toBeLessThan(owed);
    expect(short).toMatchObject({ covered: false, shortfallWei: (owed - balance).toString() });
    expect(BigInt(short.reserveRatioBps ?? '10000')).toBeLessThan(10_000n);

    logLines.length = 0;
    readings.length = 0;
    await job('reserves-check').run();
    await job('reserves-check').run();
    const alerts = logLines
      .map((line) => JSON.parse(line))
      .filter((entry) => String(entry.msg).startsWith('ALERT: the vault holds less'));
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toMatchObject({
      level: 50,
      vaultBalanceWei: balance.toString(),
      liabilitiesWei: owed.toString(),
      shortfallWei: (owed - balance).toString(),
    });
    expect(Object.keys(alerts[0].parts)).toEqual([...LIABILITY_PARTS]);
    expect(readings).toHaveLength(2);
    expect(readings[1]).toMatchObject({ vaultBalanceWei: balance, liabilitiesWei: owed });
  });

  test('the endpoint is in the OpenAPI document', async () => {
    const document = await getJson('/api/openapi.json');
    expect(document.paths['/api/solvency']?.get?.responses?.['200']).toBeDefined();
  });
});

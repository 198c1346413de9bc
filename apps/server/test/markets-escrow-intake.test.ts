import { MIN_MARKET_BET_WEI } from '@pm/core/constants';
import { creationCloseAt } from '@pm/core/market-rules';
import { marketBetTerms } from '@pm/escrow/deposit-terms';
import { payForMarket, placeMarketOrder } from '@pm/pay-and-post/pay-and-post-market';
import { walletPayer } from '@pm/pay-and-post/payer';
import { eq } from 'drizzle-orm';
import { type Address, type Hash, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bets, markets } from '../src/db/schema.ts';
import { deposit } from './support/escrow-contracts.ts';
import { escrowDepositRow, escrowRefundRow } from './support/escrow-market-helpers.ts';
import { stakeOf } from './support/escrow-stakes.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 026: market creations and bets are deposits into the escrow. The cases
// markets-api.test.ts does not walk through: the creation's escrow id and close refused (given back
// by the escrow), a market made before the escrow, and deposits nobody posted (escrow reconciliation
// records a bet, refuses one below the minimum, and makes a market of a creation only from the
// request kept for it).

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
let escrow: Address;

beforeAll(async () => {
  t = await startTestApp({ PAYMENT_WAIT_MS: '1500' });
  m = marketHelpers(t);
  if (!t.config.escrow.address) throw new Error('the test app deploys an escrow');
  escrow = t.config.escrow.address;
});
afterAll(() => t?.close());

const reconcileEscrow = () => t.job('escrow-reconciliation').run();

const stakeIdOf = async (txHash: Hash) => (await stakeOf(t.chain, txHash)).stakeId;
async function chainNowS(): Promise<number> {
  return Number((await t.chain.publicClient.getBlock({ blockTag: 'latest' })).timestamp);
}

describe('a creation names its escrow id and close', () => {
  test('an escrow id another market has is ESCROW_ID_TAKEN, and the deposit is given back by the escrow', async () => {
    const first = await m.createMarket({ description: 'The id is mine' });
    const escrowId = first.market.escrowId as `0x${string}`;
    const { response, txHash } = await m.postCreate(
      { description: 'The id is mine too' },
      { escrowId, closesAt: first.market.closesAt + 5 },
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('ESCROW_ID_TAKEN');
    expect(await m.paymentRow(txHash)).toMatchObject({
      status: 'escrow_refund',
      refundReason: 'ESCROW_ID_TAKEN',
    });
    expect(await escrowRefundRow(t, await stakeIdOf(txHash))).toMatchObject({ reason: 'ESCROW_ID_TAKEN' });
    expect(await t.db.select().from(markets).where(eq(markets.escrowId, escrowId))).toHaveLength(1);
  });

  test('a close outside [duration − 10 min, duration + 1 min] of the block is CLOSE_OUT_OF_RANGE, given back', async () => {
    for (const offsetS of [3600 + 120, 3600 - 900]) {
      const { response, txHash } = await m.postCreate(
        { description: `Close ${offsetS}` },
        { closesAt: (await chainNowS()) + offsetS },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('CLOSE_OUT_OF_RANGE');
      expect(await m.paymentRow(txHash)).toMatchObject({
        status: 'escrow_refund',
        refundReason: 'CLOSE_OUT_OF_RANGE',
      });
    }
    // Within the tolerance, the deadline is exactly the close asked for.
    const closesAt = creationCloseAt('hourly', await chainNowS()) - 300;
    const { response } = await m.postCreate({ description: 'Close a little early' }, { closesAt });
    expect(response.statusCode).toBe(201);
    expect(response.json().market).toMatchObject({
      closesAt,
      deadline: new Date(closesAt * 1000).toISOString(),
    });
  });

  test("a bet is a deposit under the market's key and names its stake", async () => {
    const { market } = await m.createMarket({ description: 'Stake ids' });
    const { response, txHash } = await m.postJoin(market.id, { player: 2, prediction: 'NO' });
    expect(response.statusCode).toBe(201);
    const [bet] = await t.db.select().from(bets).where(eq(bets.id, response.json().bet.id));
    expect(bet?.stakeId).toBe(await stakeIdOf(txHash));
  });

  test('a market made before the escrow (no escrow id) takes no new bet', async () => {
    const old = await insertMarketWithBets(t.db, {
      title: 'Before the escrow',
      // Active, its deadline an hour on: only the missing escrow id closes it.
      status: 'active',
      now: new Date(t.clock.now().getTime() + 3_600_000),
      bets: [
        { prediction: 'YES', amountWei: parseEther('0.01'), user: m.player(1).account.address.toLowerCase() },
      ],
    });
    const { response, txHash } = await m.postJoin(old.marketId, { player: 2 });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('MARKET_CLOSED');
    // No key to check the deposit against: reconciliation gives it back (a key no market has).
    expect(await m.paymentRow(txHash)).toBeUndefined();
  });
});

describe('market deposits nobody posted (escrow reconciliation)', () => {
  test('a bet deposit is recorded from its event, and the late request answers with that bet', async () => {
    const { market } = await m.createMarket({ description: 'Unposted bet' });
    const txHash = await m.payBet(market.id, { player: 2, prediction: 'NO', amountWei: parseEther('0.02') });
    const stakeId = await stakeIdOf(txHash);
    await reconcileEscrow();
    const [bet] = await t.db.select().from(bets).where(eq(bets.stakeId, stakeId));
    expect(bet).toMatchObject({
      marketId: market.id,
      prediction: 'NO',
      amount: parseEther('0.02'),
      userAddress: m.player(2).account.address.toLowerCase(),
    });
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: 'recorded' });
    const late = await m.postJoin(market.id, {
      player: 2,
      prediction: 'NO',
      amountWei: parseEther('0.02'),
      txHash,
    });
    expect(late.response.statusCode).toBe(201);
    expect(late.response.json().bet.id).toBe(bet?.id);
  });

  test('a bet deposit below the minimum is refused and given back by refundStake', async () => {
    const { market } = await m.createMarket({ description: 'Unposted small bet' });
    const bettor = m.player(2).account.address;
    const amountWei = MIN_MARKET_BET_WEI - 1n;
    const txHash = await m.payBet(market.id, { player: 2, amountWei });
    const stakeId = await stakeIdOf(txHash);
    const afterDeposit = await t.chain.publicClient.getBalance({ address: bettor });
    await reconcileEscrow();
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: 'escrow_refund' });
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({ reason: 'AMOUNT_TOO_LOW' });
    await t.runJobs();
    await t.advanceTime(6);
    await t.runJobs();
    await t.advanceTime(6);
    await t.runJobs();
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({ status: 'refunded' });
    expect(await t.chain.publicClient.getBalance({ address: bettor })).toBe(afterDeposit + amountWei);
  });

  test('a creation nobody posted waits its grace, then is refused: its content is off chain', async () => {
    const creator = m.player(1);
    const order = await placeMarketOrder(walletPayer(creator), {
      terms: { category: 'crypto', duration: 'hourly', description: 'Never posted' },
      prediction: 'YES',
      amountWei: parseEther('0.01'),
    });
    const txHash = await payForMarket(walletPayer(creator), escrow, order);
    const stakeId = await stakeIdOf(txHash);
    await reconcileEscrow();
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: null });
    await t.advanceTime(601);
    await reconcileEscrow();
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: 'escrow_refund' });
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({ reason: 'CREATION_NOT_POSTED' });
    expect(await t.db.select().from(markets).where(eq(markets.escrowId, order.escrowId))).toEqual([]);
  });

  test('a creation whose request was kept (a 202) is made a market by reconciliation, pinned to its stake', async () => {
    await t.chain.testClient.setAutomine(false);
    let pending: Awaited<ReturnType<typeof m.postCreate>>;
    try {
      pending = await m.postCreate({ description: 'Kept, then reconciled' });
    } finally {
      await t.chain.testClient.setAutomine(true);
    }
    expect(pending.response.statusCode).toBe(202);
    await t.chain.testClient.mine({ blocks: 1 });
    const stakeId = await stakeIdOf(pending.txHash);
    // Reconciliation reads the deposit before the pending-payments job replays the request.
    await reconcileEscrow();
    const [created] = await t.db
      .select()
      .from(markets)
      .where(eq(markets.escrowId, String(pending.payload.escrowId).toLowerCase()));
    expect(created).toMatchObject({ description: 'Kept, then reconciled', yesCount: 1 });
    const [bet] = await t.db.select().from(bets).where(eq(bets.stakeId, stakeId));
    expect(bet).toMatchObject({ marketId: created?.id, isCreator: true });
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: 'recorded' });
  });

  test("a deposit for another market's key, or a flag's, is not a bet of this one", async () => {
    const { market } = await m.createMarket({ description: 'Keys' });
    const closesAt = market.closesAt;
    const stray = await deposit(
      m.player(2),
      escrow,
      marketBetTerms({ escrowId: `0x${'77'.repeat(32)}`, closesAt }, 'YES'),
      parseEther('0.01'),
    );
    const stakeId = await stakeIdOf(stray);
    await reconcileEscrow();
    // A key no market has waits its grace (a market being created), then is given back.
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: null });
    await t.advanceTime(601);
    await reconcileEscrow();
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({ reason: 'MARKET_NOT_FOUND' });
  });
});

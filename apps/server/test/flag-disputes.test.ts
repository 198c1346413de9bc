import { MarketDetailResponseSchema } from '@pm/core/contract/markets';
import { flagTypedData } from '@pm/core/contract/review';
import { computeBondedMarketPayouts, flagBondWei } from '@pm/core/flag-bonds';
import { depositArgs, flagBondTerms } from '@pm/escrow/deposit-terms';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { payForFlagBond } from '@pm/pay-and-post/pay-and-post-flag';
import { walletPayer } from '@pm/pay-and-post/payer';
import { eq } from 'drizzle-orm';
import {
  createWalletClient,
  type Hash,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  publicActions,
} from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { escrowRefunds, marketFlags, markets, payments, payoutLists } from '../src/db/schema.ts';
import { MARKET_STATE, readEscrowMarket } from '../src/escrow/escrow-chain.ts';
import { listMarketBondStakes } from '../src/escrow/settlements/payout-lists-repository.ts';
import { marketsCommands } from '../src/ops/markets-commands.ts';
import { type AiStub, judgeEnv, startAiStub, verdict } from './support/ai-stub.ts';
import {
  escrowMarket,
  escrowOf,
  postClaim,
  postEscrowSettlement,
  stakePayoutsOf,
} from './support/escrow-market-helpers.ts';
import { escrowPayoutsOf, stakeOf, watchBalance } from './support/escrow-stakes.ts';
import { settleMarkets } from './support/market-helpers.ts';
import { runOps } from './support/ops-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { localChain } from './support/test-chain.ts';

// Decision 026, "Flag bonds": a flag's bond is a dispute deposit into the market's key while its
// verdict's settlement is pending on chain (posted at proposal with the review window as its delay).
// On a real Hardhat node and database: the dispute reopens the settlement and the flag is recorded
// with its stake; a second dispute in the same window reverts; a refused one is given back to its
// sender only and the settlement is queued again; one nobody posts is found by reconciliation; and
// the bonds' fates end as the right leaves or refunds, the contract's PoolMismatch check holding each
// list to the pool to the wei.

const FEE_BPS = 200;
const WINDOW_S = 600;
const MODEL = 'stub-judge';

let stub: AiStub;
let t: TestApp;

beforeAll(async () => {
  stub = await startAiStub();
  stub.reply(() => verdict({ verdict: 'YES', confidence: 91 }));
  t = await startTestApp({
    ...judgeEnv(stub, MODEL),
    MARKET_FEE_BPS: String(FEE_BPS),
    RESOLUTION_REVIEW_WINDOW_S: String(WINDOW_S),
  });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const walletOf = (account: PrivateKeyAccount) =>
  createWalletClient({ chain: localChain, transport: http(t.chain.rpcUrl), account }).extend(publicActions);

async function fundedWallet() {
  const account = privateKeyToAccount(generatePrivateKey());
  await t.chain.testClient.setBalance({ address: account.address, value: parseEther('1') });
  return walletOf(account);
}

const detail = async (id: number) =>
  MarketDetailResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/markets/${id}` })).json());

const ops = (...argv: string[]) => runOps(t, marketsCommands, ...argv);

/**
 * A market on the escrow, judged YES by the stub, in review, its settlement posted on chain with the
 * review window as its delay. Pools 0.01 YES / 0.02 + 0.03 NO unless said.
 */
async function escrowMarketInReview(title: string, sides: Array<'YES' | 'NO'> = ['YES', 'NO', 'NO']) {
  const wallets: Wallet[] = [];
  for (const _ of sides) wallets.push(await fundedWallet());
  const market = await escrowMarket(t, {
    title,
    resolverModel: MODEL,
    bettors: sides.map((prediction, index) => ({
      wallet: wallets[index] as Wallet,
      prediction,
      amountWei: parseEther(`0.0${index + 1}`),
    })),
  });
  await market.passClose();
  await settleMarkets(t);
  const [row] = await t.db.select().from(markets).where(eq(markets.id, market.marketId));
  expect(row?.proposedResult).toBe('YES');
  await postEscrowSettlement(t, { marketId: market.marketId });
  expect((await readEscrowMarket(t.chain.publicClient, escrowOf(t), market.key)).state).toBe(
    MARKET_STATE.settled,
  );
  return { ...market, wallets };
}

type Market = Awaited<ReturnType<typeof escrowMarketInReview>>;
type Wallet = Awaited<ReturnType<typeof fundedWallet>>;

/** `wallet` deposits `amountWei` as a flag's bond of `market` (pay-and-post) and waits for it. */
async function depositBond(wallet: Wallet, market: Market, amountWei: bigint): Promise<Hash> {
  const hash = await payForFlagBond(walletPayer(wallet), escrowOf(t), {
    marketId: market.marketId,
    escrowId: market.escrowId,
    closesAt: market.closesAt,
    amountWei,
  });
  await wallet.waitForTransactionReceipt({ hash });
  return hash;
}

async function postFlag(
  wallet: Wallet,
  market: Market,
  txHash: Hash,
  amountWei: bigint,
  reason = 'Wrong source.',
) {
  const expiry = Math.floor(t.clock.now().getTime() / 1000) + 300;
  const signature = await wallet.account.signTypedData(
    flagTypedData({ chainId: t.config.chain.id, marketId: market.marketId, reason, expiry }),
  );
  return t.app.inject({
    method: 'POST',
    url: `/api/markets/${market.marketId}/flags`,
    payload: {
      address: wallet.account.address,
      reason,
      expiry,
      signature,
      txHash,
      amountWei: amountWei.toString(),
    },
  });
}

const contractBond = (key: Hex) =>
  t.chain.publicClient.readContract({
    address: escrowOf(t),
    abi: predictionEscrowAbi,
    functionName: 'disputeBond',
    args: [key],
  });

const flagsOf = (marketId: number) =>
  t.db.select().from(marketFlags).where(eq(marketFlags.marketId, marketId));
const refundsOf = (txHash: string) =>
  t.db.select().from(escrowRefunds).where(eq(escrowRefunds.txHash, txHash.toLowerCase()));
const payoutListOf = async (marketId: number) =>
  (await t.db.select().from(payoutLists).where(eq(payoutLists.predictionMarketId, marketId)))[0];

/** Runs escrow reconciliation (it gives refused deposits back) and the sender until `stakeId`'s refund ends. */
async function giveBack(stakeId: bigint) {
  let row: typeof escrowRefunds.$inferSelect | undefined;
  for (let i = 0; i < 6; i++) {
    await t.job('escrow-reconciliation').run();
    await t.job('operator-transactions').run();
    [row] = await t.db.select().from(escrowRefunds).where(eq(escrowRefunds.stakeId, stakeId));
    if (row?.status === 'refunded') return row;
    // A refund asked is looked at again a few seconds on (escrow-refunds.ts).
    await t.advanceTime(6);
  }
  throw new Error(`the refund of stake ${stakeId} did not end: ${row?.status} ${row?.lastError}`);
}

describe('A flag is a dispute deposit', () => {
  test("the bond is the contract's disputeBond, core's rule under its parameters, shown on the market and in the config", async () => {
    const market = await escrowMarketInReview('Bond from the contract');
    const bond = await contractBond(market.key);
    const config = (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
    expect(config).toMatchObject({ flagBondMinWei: String(parseEther('0.01')), flagBondBps: 500 });
    // Pools of 0.06 BNB: 5% is below the 0.01 BNB floor.
    expect(bond).toBe(flagBondWei({ poolWei: parseEther('0.06'), minWei: parseEther('0.01'), bps: 500 }));
    expect((await detail(market.marketId)).market.review?.bondWei).toBe(String(bond));
  });

  test('reopens the pending settlement and is recorded with its stake; a second flag in the window reverts, nothing taken', async () => {
    const market = await escrowMarketInReview('Disputed');
    const [, flagger, other] = market.wallets;
    if (!flagger || !other) throw new Error('no bettors');
    const bond = await contractBond(market.key);
    const txHash = await depositBond(flagger, market, bond);
    const response = await postFlag(flagger, market, txHash, bond);
    expect(response.statusCode).toBe(201);

    const receipt = await t.chain.publicClient.getTransactionReceipt({ hash: txHash });
    const [disputed] = parseEventLogs({
      abi: predictionEscrowAbi,
      eventName: 'Disputed',
      logs: receipt.logs,
    });
    const stakeId = (await stakeOf(t.chain, txHash)).stakeId;
    expect(disputed?.args).toMatchObject({ market: market.key, stakeId, disputes: 1 });
    const onChain = await readEscrowMarket(t.chain.publicClient, escrowOf(t), market.key);
    expect(onChain).toMatchObject({ state: MARKET_STATE.open, claimableAt: 0 });
    expect(onChain.pool).toBe(parseEther('0.06') + bond);
    expect(await flagsOf(market.marketId)).toEqual([
      expect.objectContaining({
        address: flagger.account.address.toLowerCase(),
        stakeId,
        bondAmount: bond,
        bondStatus: 'held',
      }),
    ]);
    expect(await refundsOf(txHash)).toEqual([]);
    expect((await detail(market.marketId)).market.review).toMatchObject({ flagCount: 1, bondWei: null });
    // The disputed settlement never opens: its list waits for the operator, nothing claimable.
    expect(await payoutListOf(market.marketId)).toMatchObject({ status: 'due', claimableAt: null });
    expect((await payoutListOf(market.marketId))?.nextAttemptAt.getUTCFullYear()).toBe(9999);

    // The market is open again past its close: a second dispute reverts (BettingClosed), nothing taken.
    const balance = await t.chain.publicClient.getBalance({ address: other.account.address });
    await expect(
      t.chain.publicClient.simulateContract({
        account: other.account.address,
        address: escrowOf(t),
        abi: predictionEscrowAbi,
        functionName: 'deposit',
        args: depositArgs(flagBondTerms(market)),
        value: bond,
      }),
    ).rejects.toThrow(/BettingClosed/);
    expect(await t.chain.publicClient.getBalance({ address: other.account.address })).toBe(balance);
  });

  test('a refused flag is refunded to its sender only, and the settlement is queued again with the same verdict', async () => {
    const market = await escrowMarketInReview('Refused flag');
    const stranger = await fundedWallet();
    const bond = await contractBond(market.key);
    const txHash = await depositBond(stranger, market, bond);
    const response = await postFlag(stranger, market, txHash, bond);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'NOT_A_BETTOR' } });
    const stakeId = (await stakeOf(t.chain, txHash)).stakeId;
    expect(await flagsOf(market.marketId)).toEqual([]);
    expect(await refundsOf(txHash)).toEqual([
      expect.objectContaining({
        stakeId,
        owner: stranger.account.address.toLowerCase(),
        amount: bond,
        reason: 'NOT_A_BETTOR',
      }),
    ]);
    const before = await payoutListOf(market.marketId);
    expect(before).toMatchObject({ status: 'due', payoutDelayS: null, outcome: 1, claimableAt: null });

    const balance = await t.chain.publicClient.getBalance({ address: stranger.account.address });
    await giveBack(stakeId);
    expect(await t.chain.publicClient.getBalance({ address: stranger.account.address })).toBe(balance + bond);
    // Only the bets are left in the pool: the same verdict settles again, its payouts opening when the
    // review window ends (what is left of it), so a refused dispute never shortens the window of others.
    expect((await readEscrowMarket(t.chain.publicClient, escrowOf(t), market.key)).pool).toBe(
      parseEther('0.06'),
    );
    await postEscrowSettlement(t, { marketId: market.marketId });
    const settled = await readEscrowMarket(t.chain.publicClient, escrowOf(t), market.key);
    expect(settled.state).toBe(MARKET_STATE.settled);
    const [row] = await t.db.select().from(markets).where(eq(markets.id, market.marketId));
    const windowEndS = Math.floor((row?.reviewEndsAt?.getTime() ?? 0) / 1000);
    expect(settled.claimableAt).toBeGreaterThanOrEqual(windowEndS);
    expect(settled.claimableAt).toBeLessThanOrEqual(windowEndS + 60);
  });

  test('a dispute nobody posts a flag for is found by reconciliation after its grace and given back', async () => {
    const market = await escrowMarketInReview('Unposted dispute');
    const [, flagger] = market.wallets;
    if (!flagger) throw new Error('no bettor');
    const bond = await contractBond(market.key);
    const txHash = await depositBond(flagger, market, bond);
    const stakeId = (await stakeOf(t.chain, txHash)).stakeId;
    await t.job('escrow-reconciliation').run();
    expect(await refundsOf(txHash)).toEqual([]);
    await t.advanceTime(601);
    const balance = await t.chain.publicClient.getBalance({ address: flagger.account.address });
    const refund = await giveBack(stakeId);
    expect(refund).toMatchObject({
      reason: 'UNCLAIMED_FLAG_BOND',
      owner: flagger.account.address.toLowerCase(),
    });
    expect(await t.chain.publicClient.getBalance({ address: flagger.account.address })).toBe(balance + bond);
    expect(await payoutListOf(market.marketId)).toMatchObject({ status: 'due', payoutDelayS: null });
    const [payment] = await t.db.select().from(payments).where(eq(payments.txHash, txHash.toLowerCase()));
    expect(payment).toMatchObject({ purpose: 'market_flag', status: 'refunded' });
  });
});

describe("A bond's fate is a leaf of the operator's settlement", () => {
  async function flagged(title: string, sides?: Array<'YES' | 'NO'>, flaggerIndex = 1) {
    const market = await escrowMarketInReview(title, sides);
    const flagger = market.wallets[flaggerIndex];
    if (!flagger) throw new Error('no flagger');
    const bond = await contractBond(market.key);
    const txHash = await depositBond(flagger, market, bond);
    expect((await postFlag(flagger, market, txHash, bond)).statusCode).toBe(201);
    return { market, flagger, bond, txHash, stakeId: (await stakeOf(t.chain, txHash)).stakeId };
  }

  /** Core's settlement of a market of escrowMarketInReview's pools (0.01, 0.02, 0.03) judged YES, flagged. */
  const bondedPayouts = (sides: Array<'YES' | 'NO'>, bond: bigint, result: 'YES' | 'NO') =>
    computeBondedMarketPayouts({
      bets: sides.map((side, id) => ({ id, side, amountWei: parseEther(`0.0${id + 1}`) })),
      bonds: [{ id: 'flag', amountWei: bond }],
      proposedResult: 'YES',
      result,
      feeBps: FEE_BPS,
    });

  const bondStillRecorded = async (txHash: string) => {
    const [payment] = await t.db.select().from(payments).where(eq(payments.txHash, txHash.toLowerCase()));
    expect(payment).toMatchObject({ status: 'recorded' });
  };

  /**
   * Once the market's payouts open, `wallet` claims its stakes of it through the relay: what its
   * balance gained (it sends nothing, so no gas) and what the relay says it paid.
   */
  async function claimed(wallet: Wallet, marketId: number) {
    const list = await payoutListOf(marketId);
    const waitS = Math.ceil(((list?.claimableAt?.getTime() ?? 0) - t.clock.now().getTime()) / 1000) + 1;
    if (waitS > 0) await t.advanceTime(waitS);
    const balance = await watchBalance(t.chain, wallet.account.address);
    const answer = await postClaim(t, wallet.account.address, { scope: 'markets' });
    expect(answer.body).toMatchObject({ success: true, payoutStatus: 'confirmed' });
    return { received: await balance.moved(), totalWei: BigInt(answer.body.totalWei) };
  }

  test('overturned: the bond comes back with the reward as its own leaf, and the list is the pool to the wei', async () => {
    const { market, flagger, bond, txHash, stakeId } = await flagged('Overturned');
    expect(
      (await ops('markets:overturn', String(market.marketId), 'NO', '--reason', 'Called off.')).code,
    ).toBe(0);
    const expected = bondedPayouts(['YES', 'NO', 'NO'], bond, 'NO');
    const [leaf] = await listMarketBondStakes(t.db, market.marketId);
    expect(leaf).toMatchObject({
      stakeId,
      bondStatus: 'returned',
      returnAmount: expected.bonds.bonds[0]?.returnWei,
    });
    expect(leaf?.returnAmount).toBe(bond + parseEther('0.0002'));
    await bondStillRecorded(txHash);
    await postEscrowSettlement(t, { marketId: market.marketId });
    expect((await readEscrowMarket(t.chain.publicClient, escrowOf(t), market.key)).state).toBe(
      MARKET_STATE.settled,
    );
    // The flagger (0.02 NO) is paid its bet's return and its bond with the reward, to the wei; the
    // other winner its return.
    const returnOf = (id: number) =>
      expected.bets.payouts.find((payout) => payout.id === id)?.returnWei ?? 0n;
    const flaggerOwed = returnOf(1) + bond + parseEther('0.0002');
    expect(await claimed(flagger, market.marketId)).toEqual({ received: flaggerOwed, totalWei: flaggerOwed });
    expect(await stakePayoutsOf(t, stakeId)).toMatchObject([
      { kind: 'claimed', amount: bond + parseEther('0.0002') },
    ]);
    const [, , other] = market.wallets;
    if (!other) throw new Error('no bettor');
    expect(await claimed(other, market.marketId)).toEqual({ received: returnOf(2), totalWei: returnOf(2) });
  });

  test('confirmed: the bond has no leaf, its amount is in the winners’ payouts, and the list is the pool to the wei', async () => {
    const { market, bond, txHash, stakeId } = await flagged('Confirmed', ['YES', 'YES', 'NO'], 2);
    expect((await ops('markets:confirm', String(market.marketId), '--note', 'Checked.')).code).toBe(0);
    const [leaf] = await listMarketBondStakes(t.db, market.marketId);
    expect(leaf).toMatchObject({ bondStatus: 'forfeited', returnAmount: 0n });
    await bondStillRecorded(txHash);
    await postEscrowSettlement(t, { marketId: market.marketId });
    expect((await readEscrowMarket(t.chain.publicClient, escrowOf(t), market.key)).state).toBe(
      MARKET_STATE.settled,
    );
    // The winners (0.01 and 0.02 YES) are paid, to the wei, their returns with the forfeited bond.
    const expected = bondedPayouts(['YES', 'YES', 'NO'], bond, 'YES');
    for (const [index, wallet] of market.wallets.slice(0, 2).entries()) {
      const owed = expected.bets.payouts.find((payout) => payout.id === index)?.returnWei ?? 0n;
      expect(owed).toBeGreaterThan(0n);
      expect(await claimed(wallet, market.marketId)).toEqual({ received: owed, totalWei: owed });
    }
    expect(await stakePayoutsOf(t, stakeId)).toEqual([]);
  });

  test('void: settleAsRefund gives the bond back with every stake', async () => {
    const { market, flagger, bond, txHash, stakeId } = await flagged('Voided');
    expect(
      (await ops('markets:overturn', String(market.marketId), 'VOID', '--reason', 'Ambiguous.')).code,
    ).toBe(0);
    const [leaf] = await listMarketBondStakes(t.db, market.marketId);
    expect(leaf).toMatchObject({ bondStatus: 'returned_void', returnAmount: bond });
    await bondStillRecorded(txHash);
    await postEscrowSettlement(t, { marketId: market.marketId });
    expect((await readEscrowMarket(t.chain.publicClient, escrowOf(t), market.key)).state).toBe(
      MARKET_STATE.refunding,
    );
    const balance = await watchBalance(t.chain, flagger.account.address);
    const refund = await t.chain.operator.writeContract({
      address: escrowOf(t),
      abi: predictionEscrowAbi,
      functionName: 'refund',
      args: [{ stakeId, owner: flagger.account.address, market: market.key, amount: bond }],
    });
    expect(await escrowPayoutsOf(t.chain, refund)).toEqual([
      { kind: 'refunded', stakeId, owner: flagger.account.address, amount: bond },
    ]);
    expect(await balance.moved()).toBe(bond);
  });
});

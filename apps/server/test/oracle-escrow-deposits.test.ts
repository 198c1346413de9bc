import { PlaceOracleBetResponseSchema } from '@pm/core/contract/oracle';
import { DEPOSIT_KIND, roundDepositTerms, roundMarketId } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { eq } from 'drizzle-orm';
import { type Address, encodeFunctionData, keccak256, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { escrowRefunds, operatorTransactions, oracleBets } from '../src/db/schema.ts';
import { listRefusedDepositsInPool } from '../src/escrow/deposits/escrow-refunds-repository.ts';
import { paymentsCommands } from '../src/ops/payments-commands.ts';
import { stakeIdsOf } from './support/deposit-chain.ts';
import { deployBatchAccount, deposit, depositCall, executeBatch } from './support/escrow-contracts.ts';
import { escrowDepositRow, escrowRefundRow } from './support/escrow-market-helpers.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { runOps } from './support/ops-helpers.ts';
import { liveRound } from './support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 026: round stakes in the escrow contract, the cases oracle-bets.test.ts does not
// walk through: a smart account's deposit (the bettor is the caller), a batch of identical deposits,
// deposits nobody posted (recorded, refused, or of another kind and left), a round unknown past its
// grace, and a refused deposit whose market was settled first (its payout list returns it).

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
let epoch: number;
let lockTime: number;
let escrow: Address;
/** A settlement this file sends with the operator key itself, not through the server. */

beforeAll(async () => {
  t = await startTestApp({ ROUND_INTERVAL_S: '300', BETTING_WINDOW_S: '240', PAYMENT_WAIT_MS: '1500' });
  m = marketHelpers(t);
  if (!t.config.escrow.address) throw new Error('the test app deploys an escrow');
  escrow = t.config.escrow.address;
  ({ epoch, lockTime } = await liveRound(t));
});
afterAll(() => t?.close());

const player = (index: number) => m.player(index);
const postBet = (body: Record<string, unknown>) => m.api({ path: '/api/oracle/bets', body });

const balanceOf = (address: Address) => t.chain.publicClient.getBalance({ address });

/** bnbpredict_escrow_deposits_total for these labels. */
async function depositCount(kind: string, outcome: string): Promise<number> {
  const metric = t.metrics.registry.getSingleMetric('bnbpredict_escrow_deposits_total');
  const values = (await metric?.get())?.values ?? [];
  return values.find((each) => each.labels.kind === kind && each.labels.outcome === outcome)?.value ?? 0;
}

/** Runs the jobs, then again past the refunds' recheck, so refunds asked are sent and ended. */
async function settleRefunds() {
  await t.runJobs();
  await t.advanceTime(6);
  await t.runJobs();
  await t.advanceTime(6);
  await t.runJobs();
}

describe('round deposits into the escrow', () => {
  test('a smart account deposits for its owner: the bettor is the account, the caller of deposit', async () => {
    const owner = player(1);
    const account = await deployBatchAccount(t.chain, owner);
    const amountWei = parseEther('0.05');
    const terms = roundDepositTerms(epoch, lockTime, 'bull');
    const txHash = await executeBatch(owner, account, [depositCall(escrow, terms, amountWei)]);
    const body = { epoch, position: 'bull', amountWei: amountWei.toString(), txHash };
    // The owner did not deposit: the account did.
    const byOwner = await postBet({ ...body, userAddress: owner.account.address });
    expect(byOwner.json().error.code).toBe('WRONG_SENDER');
    const response = await postBet({ ...body, userAddress: account });
    expect(response.statusCode).toBe(201);
    expect(PlaceOracleBetResponseSchema.parse(response.json()).bet).toMatchObject({
      userAddress: account.toLowerCase(),
      amountWei: amountWei.toString(),
    });
  });

  test('a batch of two identical deposits is two bets: each request takes a stake not taken yet', async () => {
    const owner = player(2);
    const account = await deployBatchAccount(t.chain, owner);
    const amountWei = parseEther('0.02');
    const call = depositCall(escrow, roundDepositTerms(epoch, lockTime, 'bear'), amountWei);
    const txHash = await executeBatch(owner, account, [call, call]);
    const stakeIds = await stakeIdsOf(t.chain, txHash);
    expect(stakeIds).toHaveLength(2);
    const body = { epoch, position: 'bear', amountWei: amountWei.toString(), txHash, userAddress: account };
    const first = await postBet(body);
    const second = await postBet(body);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json().bet.id).not.toBe(first.json().bet.id);
    const bets = await t.db.select().from(oracleBets).where(eq(oracleBets.txHash, txHash.toLowerCase()));
    expect(bets.map((bet) => bet.stakeId).sort()).toEqual(stakeIds);
    // Every deposit taken: the same request again answers with a bet it recorded, and counts nothing.
    const third = await postBet(body);
    expect(third.statusCode).toBe(201);
    expect([first.json().bet.id, second.json().bet.id]).toContain(third.json().bet.id);
    expect(third.json().round.downCount).toBe(second.json().round.downCount);
  });

  test('a round deposit nobody posted is recorded by reconciliation from its event', async () => {
    const recordedBefore = await depositCount('round', 'recorded');
    const amountWei = parseEther('0.04');
    const txHash = await deposit(player(0), escrow, roundDepositTerms(epoch, lockTime, 'bull'), amountWei);
    const [stakeId] = await stakeIdsOf(t.chain, txHash);
    if (stakeId === undefined) throw new Error('no stake');
    await t.runJobs();
    const [bet] = await t.db.select().from(oracleBets).where(eq(oracleBets.stakeId, stakeId));
    expect(bet).toMatchObject({
      epoch,
      position: 'bull',
      amount: amountWei,
      userAddress: player(0).account.address.toLowerCase(),
      txHash: txHash.toLowerCase(),
    });
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: 'recorded' });
    expect(await depositCount('round', 'recorded')).toBe(recordedBefore + 1);
    // The browser's request arriving late answers with that bet.
    const late = await postBet({
      epoch,
      position: 'bull',
      amountWei: amountWei.toString(),
      userAddress: player(0).account.address,
      txHash,
    });
    expect(late.statusCode).toBe(201);
    expect(late.json().bet.id).toBe(bet?.id);
  });

  test('a deposit with terms the app never sends is refused by reconciliation and given back', async () => {
    const bettor = player(0);
    const amountWei = parseEther('0.03');
    // A round deposit with no side.
    const txHash = await bettor.writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'deposit',
      args: [
        roundMarketId(epoch),
        lockTime,
        DEPOSIT_KIND.round,
        0,
        `0x${'0'.repeat(64)}`,
        `0x${'0'.repeat(64)}`,
      ],
      value: amountWei,
    });
    const [stakeId] = await stakeIdsOf(t.chain, txHash);
    if (stakeId === undefined) throw new Error('no stake');
    const afterDeposit = await balanceOf(bettor.account.address);
    await settleRefunds();
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({ reason: 'INVALID_TERMS', status: 'refunded' });
    expect(await balanceOf(bettor.account.address)).toBe(afterDeposit + amountWei);
    expect(await t.db.select().from(oracleBets).where(eq(oracleBets.stakeId, stakeId))).toEqual([]);
  });

  test('a refused deposit whose market was settled first is left to its payout list', async () => {
    const bettor = player(2);
    const amountWei = parseEther('0.005');
    const { response, txHash } = await m.postOracleBet(epoch, { player: 2, position: 'bull', amountWei });
    expect(response.json().error.code).toBe('AMOUNT_TOO_LOW');
    const [stakeId] = await stakeIdsOf(t.chain, txHash);
    if (stakeId === undefined) throw new Error('no stake');
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({ status: 'queued' });
    // Before any job runs, the round closes and the operator settles its key on chain (a void here).
    await t.advanceTime(lockTime - Math.floor(t.clock.now().getTime() / 1000) + 1);
    const key = marketKey(roundMarketId(epoch), lockTime);
    await t.chain.operator.writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'settleAsRefund',
      args: [key, 0, `0x${'0'.repeat(64)}`],
    });
    await t.runJobs();
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({ status: 'payout_list' });
    const inPool = await listRefusedDepositsInPool(t.db, t.config.chain.id, key);
    expect(inPool).toEqual([
      {
        stakeId,
        owner: bettor.account.address.toLowerCase(),
        marketKey: key,
        amountWei,
        reason: 'AMOUNT_TOO_LOW',
        status: 'payout_list',
      },
    ]);
  });

  test('a round deposit under a key no round has is refunded once its grace is over', async () => {
    const bettor = player(1);
    const amountWei = parseEther('0.01');
    const closesAt = Math.floor(t.clock.now().getTime() / 1000) + 1200;
    const txHash = await deposit(bettor, escrow, roundDepositTerms(epoch + 40, closesAt, 'bull'), amountWei);
    const [stakeId] = await stakeIdsOf(t.chain, txHash);
    if (stakeId === undefined) throw new Error('no stake');
    await t.runJobs();
    // Within the grace: it waits for its round, and payments:status says so.
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: null });
    const status = await runOps(t, paymentsCommands, 'payments:status');
    expect(status.output).toContain('Escrow deposits being settled: 1');
    expect(status.output).toContain(`stake ${stakeId} ${txHash.toLowerCase()}`);
    const afterDeposit = await balanceOf(bettor.account.address);
    await t.advanceTime(601);
    await settleRefunds();
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: 'escrow_refund' });
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({
      reason: 'ROUND_NOT_FOUND',
      status: 'refunded',
    });
    expect(await balanceOf(bettor.account.address)).toBe(afterDeposit + amountWei);
  });

  test("a flag's bond nobody posts a flag for waits its grace, then is counted, refused and given back", async () => {
    const refusedBefore = await depositCount('flag', 'refused');
    const bettor = player(1);
    const market = keccak256(toHex('a market the server does not know'));
    const closesAt = lockTime + 3600;
    const txHash = await deposit(bettor, escrow, { kind: 'flag', market, closesAt }, 10n ** 16n);
    const [stakeId] = await stakeIdsOf(t.chain, txHash);
    if (stakeId === undefined) throw new Error('no stake');
    await t.runJobs();
    // Within the grace its flag may still be posted (a flag is a signed reason the deposit does not carry).
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: null });
    expect(await escrowRefundRow(t, stakeId)).toBeUndefined();
    const afterDeposit = await balanceOf(bettor.account.address);
    await t.advanceTime(601);
    await settleRefunds();
    expect(await escrowDepositRow(t, stakeId)).toMatchObject({ outcome: 'escrow_refund' });
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({
      reason: 'UNCLAIMED_FLAG_BOND',
      status: 'refunded',
    });
    expect(await balanceOf(bettor.account.address)).toBe(afterDeposit + 10n ** 16n);
    expect(await depositCount('flag', 'refused')).toBe(refusedBefore + 1);
  });

  test('the refundStake of one stake is one operator action whoever asks, keyed by the stake', async () => {
    const rows = await t.db.select().from(escrowRefunds).where(eq(escrowRefunds.status, 'refunded'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.operatorTxKey).toBe(`escrow-refund-stake:31337:${row.stakeId}`);
    // A second ask of a refunded stake's key answers the same action (submitOperatorAction is
    // idempotent by key); its call is the contract's refundStake of that stake, to its owner.
    const [row] = rows;
    if (!row) throw new Error('no refund');
    const data = encodeFunctionData({
      abi: predictionEscrowAbi,
      functionName: 'refundStake',
      args: [
        {
          stakeId: row.stakeId,
          owner: row.owner as Address,
          market: row.marketKey as `0x${string}`,
          amount: row.amount,
        },
      ],
    });
    const actions = await t.db
      .select()
      .from(operatorTransactions)
      .where(eq(operatorTransactions.key, row.operatorTxKey ?? ''));
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ data, toAddress: escrow.toLowerCase(), status: 'confirmed' });
  });
});

describe('a refund whose refundStake was skipped', () => {
  // docs/security.md "Payouts (claims and refunds)": a refundStake the sender skipped (its simulation reverted
  // StakeMismatch, as for a stake spent already) counts as refunded only once the chain says so.
  let round: { epoch: number; lockTime: number };
  beforeAll(async () => {
    round = await liveRound(t);
  });

  test('a refused deposit refunded on chain before its refundStake was sent is refunded by its Refunded event', async () => {
    const bettor = player(2);
    const amountWei = parseEther('0.004');
    const { response, txHash } = await m.postOracleBet(round.epoch, {
      player: 2,
      position: 'bear',
      amountWei,
    });
    expect(response.json().error.code).toBe('AMOUNT_TOO_LOW');
    const [stakeId] = await stakeIdsOf(t.chain, txHash);
    if (stakeId === undefined) throw new Error('no stake');
    const refund = await escrowRefundRow(t, stakeId);
    expect(refund).toMatchObject({ status: 'queued' });
    // The operator key gives it back by itself first: the server's own refundStake then reverts.
    await t.chain.operator.writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'refundStake',
      args: [
        {
          stakeId,
          owner: bettor.account.address,
          market: marketKey(roundMarketId(round.epoch), round.lockTime),
          amount: amountWei,
        },
      ],
    });
    await settleRefunds();
    const [action] = await t.db
      .select()
      .from(operatorTransactions)
      .where(eq(operatorTransactions.key, `escrow-refund-stake:31337:${stakeId}`));
    expect(action?.status).toBe('skipped');
    expect(await escrowRefundRow(t, stakeId)).toMatchObject({ status: 'refunded' });
    expect(await m.paymentRow(txHash)).toMatchObject({ status: 'refunded' });
  });

  test('a skipped refundStake whose stake the escrow still holds is not counted refunded: it fails for an operator', async () => {
    const amountWei = parseEther('0.003');
    const { response, txHash } = await m.postOracleBet(round.epoch, {
      player: 1,
      position: 'bull',
      amountWei,
    });
    expect(response.json().error.code).toBe('AMOUNT_TOO_LOW');
    const [stakeId] = await stakeIdsOf(t.chain, txHash);
    if (stakeId === undefined) throw new Error('no stake');
    // A record that no longer names the stake as its Deposited event did: the contract answers
    // StakeMismatch, which the sender reads as a stake spent already.
    await t.db
      .update(escrowRefunds)
      .set({ amount: amountWei + 1n })
      .where(eq(escrowRefunds.stakeId, stakeId));
    await settleRefunds();
    const [action] = await t.db
      .select()
      .from(operatorTransactions)
      .where(eq(operatorTransactions.key, `escrow-refund-stake:31337:${stakeId}`));
    expect(action?.status).toBe('skipped');
    const refund = await escrowRefundRow(t, stakeId);
    expect(refund?.status).toBe('failed');
    expect(refund?.lastError).toContain(`the escrow still holds stake ${stakeId}`);
    expect(await m.paymentRow(txHash)).toMatchObject({ status: 'escrow_refund' });
    const stakeHash = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'stakes',
      args: [stakeId],
    });
    expect(BigInt(stakeHash)).not.toBe(0n);
  });
});

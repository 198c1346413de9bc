import { RoundsResponseSchema } from '@pm/core/contract/oracle';
import { roundDepositTerms, roundMarketId } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { eq } from 'drizzle-orm';
import { type Address, type Hash, parseEther, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFinalHeight } from '../src/chain/finality.ts';
import { escrowRefunds, oracleBets } from '../src/db/schema.ts';
import { STAKE_PAYOUTS_CURSOR } from '../src/escrow/claims/stake-payouts-watch-job.ts';
import { readChainCursor } from '../src/escrow/deposits/escrow-deposits-repository.ts';
import { findPayoutListByEpoch } from '../src/escrow/settlements/payout-lists-repository.ts';
import { deposit } from './support/escrow-contracts.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Where the escrow's scans start (docs/architecture.md "Deposits into the escrow"): at the escrow's
// deployment block (ESCROW_DEPLOY_BLOCK), whatever the confirmations. Here the final height stays
// CONFIRMATIONS blocks below the head, as on BSC, where a scan that started at the head would never
// find a final block at or above it and never write its cursor.

const CONFIRMATIONS = 4;

let t: TestApp;
let escrow: Address;
let epoch: number;
let lockTime: number;

beforeAll(async () => {
  t = await startTestApp({
    CONFIRMATIONS: String(CONFIRMATIONS),
    ROUND_INTERVAL_S: '300',
    BETTING_WINDOW_S: '240',
    PAYMENT_WAIT_MS: '1500',
  });
  if (!t.config.escrow.address) throw new Error('the test app deploys an escrow');
  escrow = t.config.escrow.address;
  const nowS = t.clock.now().getTime() / 1000;
  await t.advanceTime(Math.ceil(nowS / 300) * 300 - Math.floor(nowS) + 1);
  await t.runJobs();
  const rounds = RoundsResponseSchema.parse(
    (await t.app.inject({ method: 'GET', url: '/api/oracle/rounds' })).json(),
  );
  if (!rounds.current) throw new Error('auto-genesis did not start a round');
  epoch = rounds.current.epoch;
  lockTime = await marketHelpers(t).roundLockTime(epoch);
});
afterAll(() => t?.close());

function player(index: number) {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
}

async function stakeIdOf(txHash: Hash): Promise<bigint> {
  const receipt = await t.chain.publicClient.waitForTransactionReceipt({ hash: txHash });
  const [event] = parseEventLogs({ abi: predictionEscrowAbi, eventName: 'Deposited', logs: receipt.logs });
  if (!event) throw new Error('no deposit');
  return event.args.stakeId;
}

/** Blocks mined so what came before is final, then every job once. */
async function finalizeAndRun() {
  await t.chain.testClient.mine({ blocks: CONFIRMATIONS + 1 });
  await t.runJobs();
}

async function scanLag(scan: string): Promise<number | undefined> {
  const metric = t.metrics.registry.getSingleMetric('bnbpredict_escrow_scan_lag_blocks');
  const values = (await metric?.get())?.values ?? [];
  return values.find((each) => each.labels.scan === scan)?.value;
}

describe('escrow scans with a final height below the head', () => {
  test('both cursors are written on the first runs, from the deployment block on', async () => {
    await t.chain.testClient.mine({ blocks: CONFIRMATIONS + 2 });
    const head = await t.chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const finalHeight = await readFinalHeight(t.chain.publicClient, CONFIRMATIONS);
    expect(finalHeight).not.toBeNull();
    expect(finalHeight as bigint).toBeLessThan(head);
    await t.runJobs();
    const deposits = await readChainCursor(t.db, 'escrow-deposits');
    const payouts = await readChainCursor(t.db, STAKE_PAYOUTS_CURSOR);
    expect(deposits).toBeDefined();
    expect(payouts).toBeDefined();
    expect(deposits as bigint).toBeGreaterThanOrEqual(t.config.escrow.deployBlock);
    expect(await scanLag('deposits')).toBe(0);
    expect(await scanLag('stake-payouts')).toBe(0);
  });

  test('a deposit nobody posted is recorded as the bet its event states', async () => {
    const amountWei = parseEther('0.04');
    const txHash = await deposit(player(1), escrow, roundDepositTerms(epoch, lockTime, 'bull'), amountWei);
    const stakeId = await stakeIdOf(txHash);
    // Not final yet: nothing is recorded.
    await t.runJobs();
    expect(await t.db.select().from(oracleBets).where(eq(oracleBets.stakeId, stakeId))).toEqual([]);
    await finalizeAndRun();
    const [bet] = await t.db.select().from(oracleBets).where(eq(oracleBets.stakeId, stakeId));
    expect(bet).toMatchObject({
      epoch,
      position: 'bull',
      amount: amountWei,
      userAddress: player(1).account.address.toLowerCase(),
    });
  });

  test('a 1-wei deposit sent straight to the contract is refused and given back, and is no bet', async () => {
    const bettor = player(2);
    const txHash = await deposit(bettor, escrow, roundDepositTerms(epoch, lockTime, 'bear'), 1n);
    const stakeId = await stakeIdOf(txHash);
    const afterDeposit = await t.chain.publicClient.getBalance({ address: bettor.account.address });
    // Found and refused once final; its refundStake is sent, then recorded once final itself.
    for (let run = 0; run < 4; run++) {
      await finalizeAndRun();
      await t.advanceTime(6);
    }
    const [refund] = await t.db.select().from(escrowRefunds).where(eq(escrowRefunds.stakeId, stakeId));
    expect(refund).toMatchObject({ reason: 'AMOUNT_TOO_LOW', status: 'refunded' });
    expect(await t.chain.publicClient.getBalance({ address: bettor.account.address })).toBe(
      afterDeposit + 1n,
    );
    expect(await t.db.select().from(oracleBets).where(eq(oracleBets.stakeId, stakeId))).toEqual([]);
  });

  test('the round then settles as if the 1-wei deposit had never come: its pool is the bets it recorded', async () => {
    // The round closes ROUND_INTERVAL_S − BETTING_WINDOW_S (60 s) after its lock.
    const closeTime = lockTime + 60;
    await t.advanceTime(Math.max(1, Math.ceil(closeTime - t.clock.now().getTime() / 1000) + 2));
    let settled = false;
    for (let run = 0; run < 12 && !settled; run++) {
      await finalizeAndRun();
      await t.advanceTime(6);
      settled = (await findPayoutListByEpoch(t.db, epoch))?.status === 'settled';
    }
    const list = await findPayoutListByEpoch(t.db, epoch);
    expect(list?.status).toBe('settled');
    const key = marketKey(roundMarketId(epoch), lockTime);
    const [pool, , , state] = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'markets',
      args: [key],
    });
    // Only the recorded 0.04 BNB bull bet: the refunded wei left the pool before the settlement.
    expect(pool).toBe(parseEther('0.04'));
    expect(state).not.toBe(1);
  });
});

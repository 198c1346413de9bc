import { newMarketId } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { eq } from 'drizzle-orm';
import { type Address, type Hash, type Hex, parseEventLogs } from 'viem';
import { bets, markets, operatorTransactions, payments } from '../../src/db/schema.ts';
import { findPayoutListByMarket } from '../../src/escrow/settlements/payout-lists-repository.ts';
import { chainNow, deposit } from './escrow-contracts.ts';
import { insertMarketWithBets } from './market-fixtures.ts';
import type { TestApp } from './test-app.ts';
import type { TestChain } from './test-chain.ts';

// Predictions markets on the escrow for the flags' tests (decision 026): bets are real deposits, and
// the settlement a judged market posts on chain when its verdict is proposed (delay = the review
// window) is posted here by the smallest stand-in for the settlement job (another branch's, msettle):
// the list from core's payouts by stake id, the bonds' leaves (listMarketBondStakes) and the refused
// deposits still in the pool, the fee = the pool less the payouts (so the contract's own PoolMismatch
// check holds the list to the pool, to the wei).

type Wallet = TestChain['operator'];

/** The market outcome codes on chain (MARKETS-DESIGN: MARKET_OUTCOME). */
export const OUTCOME_CODE = { YES: 1, NO: 2, VOID: 4 } as const;

export type EscrowBettor = { wallet: Wallet; prediction: 'YES' | 'NO'; amountWei: bigint };

/** The stake id of the deposit a receipt holds (the first `Deposited` of our escrow). */
export async function stakeOf(t: TestApp, hash: Hash): Promise<bigint> {
  const receipt = await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  const [event] = parseEventLogs({ abi: predictionEscrowAbi, eventName: 'Deposited', logs: receipt.logs });
  if (!event) throw new Error(`no deposit in ${hash}`);
  return event.args.stakeId;
}

/**
 * A market on the escrow whose bets are deposits, closed and `settling` (the judge's next), its
 * deadline its escrow close. The bets' rows carry their stake ids.
 */
export async function escrowMarketWithBets(
  t: TestApp,
  input: { title: string; bettors: EscrowBettor[]; resolverModel: string },
) {
  const escrow = escrowOf(t);
  const escrowId = newMarketId();
  const closesAt = (await chainNow(t.chain)) + 120;
  const stakeIds: bigint[] = [];
  const deposits: Array<{ txHash: Hash; logIndex: number }> = [];
  for (const bettor of input.bettors) {
    const hash = await deposit(
      bettor.wallet,
      escrow,
      { kind: 'bet', market: escrowId, closesAt, prediction: bettor.prediction },
      bettor.amountWei,
    );
    const receipt = await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, eventName: 'Deposited', logs: receipt.logs });
    if (!event) throw new Error(`no deposit in ${hash}`);
    stakeIds.push(event.args.stakeId);
    deposits.push({ txHash: hash, logIndex: event.logIndex });
  }
  await t.advanceTime(closesAt - (await chainNow(t.chain)) + 1);
  const { marketId, betIds } = await insertMarketWithBets(t.db, {
    title: input.title,
    now: new Date(closesAt * 1000),
    resolverModel: input.resolverModel,
    bets: input.bettors.map((bettor) => ({
      prediction: bettor.prediction,
      amountWei: bettor.amountWei,
      user: bettor.wallet.account.address.toLowerCase(),
    })),
  });
  const key = marketKey(escrowId, closesAt);
  await t.db.update(markets).set({ escrowId, escrowKey: key.toLowerCase() }).where(eq(markets.id, marketId));
  // Each bet and its payment name the deposit's stake and transaction, as the intake records them, so
  // reconciliation finds every deposit of the market already a bet.
  for (const [index, betId] of betIds.entries()) {
    const made = deposits[index];
    if (!made) throw new Error('deposits out of step');
    const [bet] = await t.db
      .update(bets)
      .set({ stakeId: stakeIds[index] ?? null, txHash: made.txHash.toLowerCase() })
      .where(eq(bets.id, betId))
      .returning({ paymentId: bets.paymentId });
    if (!bet) throw new Error(`no bet ${betId}`);
    await t.db
      .update(payments)
      .set({ stakeId: stakeIds[index] ?? null, logIndex: made.logIndex, txHash: made.txHash.toLowerCase() })
      .where(eq(payments.id, bet.paymentId));
  }
  return { marketId, betIds, stakeIds, escrowId, closesAt, key };
}

export function escrowOf(t: TestApp): Address {
  const escrow = t.config.escrow.address;
  if (!escrow) throw new Error('the test app has no escrow');
  return escrow;
}

/** Runs the operator sender's job until the action under `key` ends (confirmed, skipped or failed). */
export async function runOperatorAction(t: TestApp, key: string) {
  const job = t.features.jobs.find((candidate) => candidate.name === 'operator-transactions');
  if (!job) throw new Error('no operator-transactions job');
  for (let i = 0; i < 10; i++) {
    await job.run();
    const [row] = await t.db.select().from(operatorTransactions).where(eq(operatorTransactions.key, key));
    if (row && ['confirmed', 'skipped', 'failed'].includes(row.status)) return row;
  }
  throw new Error(`operator action ${key} did not end`);
}

/**
 * Runs the escrow's own jobs (the settlement job, then the operator sender's) until the market's
 * settlement is final on chain: the one its proposal queued (delay = what is left of the review
 * window) or the one its settlement queued (the contract's minimum delay). Throws with the row when
 * it does not get there.
 */
export async function postMarketSettlement(t: TestApp, input: { marketId: number }) {
  const [market] = await t.db.select().from(markets).where(eq(markets.id, input.marketId));
  if (!market?.escrowKey) throw new Error(`market ${input.marketId} is not on the escrow`);
  const jobs = ['escrow-settlements', 'operator-transactions'].map((name) => {
    const job = t.features.jobs.find((candidate) => candidate.name === name);
    if (!job) throw new Error(`no ${name} job`);
    return job;
  });
  for (let step = 0; step < 8; step++) {
    for (const job of jobs) await job.run();
    const row = await findPayoutListByMarket(t.db, input.marketId);
    if (row?.status === 'settled') {
      const [action] = row.operatorTxId
        ? await t.db.select().from(operatorTransactions).where(eq(operatorTransactions.id, row.operatorTxId))
        : [];
      return { key: market.escrowKey as Hex, row, action };
    }
  }
  const row = await findPayoutListByMarket(t.db, input.marketId);
  throw new Error(`market ${input.marketId}'s settlement is not final: ${JSON.stringify(row)}`);
}

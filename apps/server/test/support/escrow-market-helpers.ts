import { computeMarketPayouts } from '@pm/core/payouts';
import { newMarketId } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { buildSettlement, settleArgs } from '@pm/escrow/settlement';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import pino from 'pino';
import {
  type Address,
  encodeFunctionData,
  type Hash,
  type Hex,
  keccak256,
  parseEventLogs,
  stringToHex,
} from 'viem';
import { bets, markets, operatorTransactions, payoutLists } from '../../src/db/schema.ts';
import { readEscrowMarket } from '../../src/escrow/escrow-chain.ts';
import { createEscrowModule } from '../../src/escrow/escrow-module.ts';
import { listMarketBondStakes } from '../../src/escrow/payout-lists-repository.ts';
import type { OperatorSenderDeps } from '../../src/operator-sender/operator-sender-deps.ts';
import { submitOperatorAction } from '../../src/operator-sender/submit-operator-action.ts';
import { listRefusedDepositsInPool } from '../../src/payments/escrow-refunds-repository.ts';
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

type Wallet = TestChain['vault'];

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
  for (const bettor of input.bettors) {
    const hash = await deposit(
      bettor.wallet,
      escrow,
      { kind: 'bet', market: escrowId, closesAt, prediction: bettor.prediction },
      bettor.amountWei,
    );
    stakeIds.push(await stakeOf(t, hash));
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
  for (const [index, betId] of betIds.entries()) {
    await t.db
      .update(bets)
      .set({ stakeId: stakeIds[index] ?? null })
      .where(eq(bets.id, betId));
  }
  return { marketId, betIds, stakeIds, escrowId, closesAt, key };
}

export function escrowOf(t: TestApp): Address {
  const escrow = t.config.escrow.address;
  if (!escrow) throw new Error('the test app has no escrow');
  return escrow;
}

let sender: OperatorSenderDeps | null = null;
function operatorSender(t: TestApp): OperatorSenderDeps {
  sender ??= createEscrowModule(t.deps, pino({ level: 'silent' })).sender;
  if (!sender) throw new Error('the test app has no operator key');
  return sender;
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

let attempt = 0;

/**
 * The market's settlement on chain, as the settlement job would post it: `proposal` from core's
 * payouts of its bets under the proposed verdict (bets still pending), `settled` from what settleMarket
 * wrote (bets' payout_amount, bonds' bond_return_amount); every refused deposit still in the pool a
 * full-amount leaf. A refund in full is settleAsRefund. `delayS` null: the contract's minimum. Its
 * payout_lists row is written as the job leaves it: settled.
 */
export async function postMarketSettlement(
  t: TestApp,
  input: { marketId: number; mode: 'proposal' | 'settled'; delayS: number | null; feeBps: number },
) {
  const escrow = escrowOf(t);
  const [market] = await t.db.select().from(markets).where(eq(markets.id, input.marketId));
  if (!market?.escrowKey || !market.escrowId)
    throw new Error(`market ${input.marketId} is not on the escrow`);
  const key = market.escrowKey as Hex;
  const result = (input.mode === 'proposal' ? market.proposedResult : market.result) as 'YES' | 'NO' | 'VOID';
  const rows = await t.db
    .select()
    .from(bets)
    .where(and(eq(bets.marketId, input.marketId), isNotNull(bets.stakeId)))
    .orderBy(asc(bets.stakeId));
  const betPayouts =
    input.mode === 'proposal'
      ? computeMarketPayouts({
          bets: rows.map((bet) => ({
            id: bet.stakeId ?? 0n,
            side: bet.prediction as 'YES' | 'NO',
            amountWei: bet.amount,
          })),
          result,
          feeBps: input.feeBps,
        })
      : null;
  const refund = betPayouts
    ? betPayouts.refund
    : market.result === 'VOID' || rows.every((bet) => bet.status === 'refunded');
  const verdictHash = keccak256(stringToHex(`market ${input.marketId} ${result}`));
  const outcome = OUTCOME_CODE[result];
  let data: Hex;
  let root: Hex | null = null;
  if (refund) {
    data = encodeFunctionData({
      abi: predictionEscrowAbi,
      functionName: 'settleAsRefund',
      args: [key, outcome, verdictHash],
    });
  } else {
    const payouts = betPayouts
      ? betPayouts.payouts.map((payout) => ({ stakeId: payout.id, amount: payout.returnWei }))
      : rows.flatMap((bet) =>
          bet.stakeId !== null && bet.payoutAmount
            ? [{ stakeId: bet.stakeId, amount: bet.payoutAmount }]
            : [],
        );
    if (input.mode === 'settled') {
      for (const bond of await listMarketBondStakes(t.db, input.marketId)) {
        if (bond.stakeId !== null && bond.payoutAmount)
          payouts.push({ stakeId: bond.stakeId, amount: bond.payoutAmount });
      }
    }
    for (const refused of await listRefusedDepositsInPool(t.db, t.config.chain.id, key)) {
      payouts.push({ stakeId: refused.stakeId, amount: refused.amountWei });
    }
    const { pool } = await readEscrowMarket(t.chain.publicClient, escrow, key);
    const paid = payouts.reduce((sum, payout) => sum + payout.amount, 0n);
    const settlement = buildSettlement({ pool, payouts, fee: pool - paid });
    root = settlement.root;
    const delay =
      input.delayS ??
      (await t.chain.publicClient.readContract({
        address: escrow,
        abi: predictionEscrowAbi,
        functionName: 'minPayoutDelay',
      }));
    data = encodeFunctionData({
      abi: predictionEscrowAbi,
      functionName: 'settle',
      args: settleArgs(settlement, { marketKey: key, outcome, verdictHash, delay }),
    });
  }
  attempt += 1;
  const actionKey = `test-market-settle:${key}:${attempt}`;
  await submitOperatorAction(operatorSender(t), { key: actionKey, to: escrow, data, gasCap: 300_000n });
  const action = await runOperatorAction(t, actionKey);
  if (action.status !== 'confirmed')
    throw new Error(`settling market ${input.marketId}: ${action.status} ${action.lastError}`);
  const values = {
    marketKey: key.toLowerCase(),
    predictionMarketId: input.marketId,
    payoutDelayS: input.delayS,
    chainId: t.config.chain.id,
    escrow: escrow.toLowerCase(),
    marketId: market.escrowId,
    closesAt: Math.floor(market.deadline.getTime() / 1000),
    refund,
    outcome,
    verdictHash,
    status: 'settled',
    operatorTxId: action.id,
    // The published document is the settlement job's (msettle); the stand-in keeps only the root.
    root,
    document: root ? { standIn: 'flag-disputes test' } : null,
  };
  await t.db
    .insert(payoutLists)
    .values(values)
    .onConflictDoUpdate({ target: payoutLists.marketKey, set: { ...values, lastError: null } });
  return { key, action };
}

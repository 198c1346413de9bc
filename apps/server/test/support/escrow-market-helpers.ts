import { type EscrowClaim, escrowClaimArg } from '@pm/core/contract/payout-lists';
import { type ClaimableResponse, ClaimableResponseSchema } from '@pm/core/contract/users';
import { newMarketId } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { eq } from 'drizzle-orm';
import type { Address, Hash, Hex } from 'viem';
import { expect } from 'vitest';
import {
  escrowDeposits,
  escrowRefunds,
  escrowRelayStakes,
  escrowStakePayouts,
  markets,
} from '../../src/db/schema.ts';
import {
  findPayoutListByEpoch,
  findPayoutListByMarket,
} from '../../src/escrow/settlements/payout-lists-repository.ts';
import { chainNow, deposit } from './escrow-contracts.ts';
import { stakeOf } from './escrow-stakes.ts';
import { insertBets, insertMarketWithBets } from './market-fixtures.ts';
import type { TestApp } from './test-app.ts';
import type { TestChain } from './test-chain.ts';

// A Predictions market on the escrow (docs/decisions/026) as the server's tests build it: its bets
// are real deposits into the contract, and the market and its bets are written as the intake records
// them (the market's escrow id and key, each bet and its payment naming the deposit's stake), so the
// settlement job, reconciliation and claims find every deposit of the market already a bet. And the
// escrow's own jobs, run until a market's or a round's settlement is final on chain.

type Wallet = TestChain['operator'];

export type EscrowBettor = { wallet: Wallet; prediction: 'YES' | 'NO'; amountWei: bigint };

/** A bet of a market on the escrow and the stake its deposit made. */
export type EscrowStake = {
  betId: number;
  stakeId: bigint;
  owner: Address;
  amount: bigint;
  prediction: 'YES' | 'NO';
  txHash: Hash;
};

export function escrowOf(t: TestApp): Address {
  const escrow = t.config.escrow.address;
  if (!escrow) throw new Error('the test app has no escrow');
  return escrow;
}

/** The server's record of the deposit that made `stakeId` (escrow reconciliation's). */
export async function escrowDepositRow(t: TestApp, stakeId: bigint) {
  const [row] = await t.db.select().from(escrowDeposits).where(eq(escrowDeposits.stakeId, stakeId));
  return row;
}

/** What the server recorded as paid out for `stakeId` (claimed, refunded, credited), from the chain. */
export function stakePayoutsOf(t: TestApp, stakeId: bigint) {
  return t.db.select().from(escrowStakePayouts).where(eq(escrowStakePayouts.stakeId, stakeId));
}

/**
 * `stakeId` was paid `amount` by transaction `hash` with no relay (its wallet's own claim): no relay
 * carries it, and the server recorded the payout from the chain.
 */
export async function expectPaidWithoutRelay(t: TestApp, stakeId: bigint, hash: Hash, amount: bigint) {
  const carried = await t.db
    .select({ stakeId: escrowRelayStakes.stakeId })
    .from(escrowRelayStakes)
    .where(eq(escrowRelayStakes.stakeId, stakeId));
  expect(carried).toEqual([]);
  expect(await stakePayoutsOf(t, stakeId)).toMatchObject([
    { kind: 'claimed', relayId: null, txHash: hash.toLowerCase(), amount, credited: false },
  ]);
}

/** What the escrow holds for `owner` to withdraw: payouts it could not push (a gas burner's). */
export function escrowCreditOf(t: TestApp, owner: Address): Promise<bigint> {
  return t.chain.publicClient.readContract({
    address: escrowOf(t),
    abi: predictionEscrowAbi,
    functionName: 'credits',
    args: [owner],
  });
}

/** The refund the server owes or gave for `stakeId` (a refused deposit's). */
export async function escrowRefundRow(t: TestApp, stakeId: bigint) {
  const [row] = await t.db.select().from(escrowRefunds).where(eq(escrowRefunds.stakeId, stakeId));
  return row;
}

/** A market of the test app's escrow as the contract holds it, what it has paid out too. */
export async function readMarketOnChain(t: TestApp, key: Hex) {
  const [pool, closesAt, claimableAt, state, , , payoutRoot, payoutTotal, paid, fee] =
    await t.chain.publicClient.readContract({
      address: escrowOf(t),
      abi: predictionEscrowAbi,
      functionName: 'markets',
      args: [key],
    });
  return { pool, closesAt, claimableAt, state, payoutRoot, payoutTotal, paid, fee };
}

/**
 * A market on the escrow, `settling` unless told, closing `closeInS` (default 120) seconds from the
 * chain's now, its deadline its escrow close: each of `bettors` deposits its bet, then the market and
 * its bets are written. Time does not move: `passClose()` moves the chain (and the server's clock)
 * past the close. `stake` adds a bet deposited later; `recordStake` records a deposit made another
 * way (a contract's) as the intake does. `row` overrides columns of the market's row (a price
 * market's terms).
 */
export async function escrowMarket(
  t: TestApp,
  input: {
    bettors?: EscrowBettor[];
    closeInS?: number;
    title?: string;
    resolverModel?: string;
    row?: Partial<typeof markets.$inferInsert>;
  } = {},
) {
  const escrow = escrowOf(t);
  const escrowId = newMarketId();
  const closesAt = (await chainNow(t.chain)) + (input.closeInS ?? 120);
  const key = marketKey(escrowId, closesAt);
  const betOf = (prediction: 'YES' | 'NO') => ({
    kind: 'bet' as const,
    market: escrowId,
    closesAt,
    prediction,
  });

  const deposited = [];
  for (const bettor of input.bettors ?? []) {
    const hash = await deposit(bettor.wallet, escrow, betOf(bettor.prediction), bettor.amountWei);
    deposited.push({ bettor, made: await stakeOf(t.chain, hash) });
  }
  type Made = Awaited<ReturnType<typeof stakeOf>>;
  const betRow = (prediction: 'YES' | 'NO', amountWei: bigint, made: Made) => ({
    prediction,
    amountWei,
    user: made.owner.toLowerCase(),
    stakeId: made.stakeId,
    deposit: { txHash: made.txHash, logIndex: made.logIndex },
  });
  const { marketId, betIds } = await insertMarketWithBets(t.db, {
    bets: deposited.map(({ bettor, made }) => betRow(bettor.prediction, bettor.amountWei, made)),
    escrow: { escrowId, closesAt },
    ...(input.title ? { title: input.title } : {}),
    ...(input.resolverModel ? { resolverModel: input.resolverModel } : {}),
  });
  if (input.row) await t.db.update(markets).set(input.row).where(eq(markets.id, marketId));
  const stakes: EscrowStake[] = deposited.map(({ bettor, made }, index) => ({
    betId: betIds[index] ?? 0,
    stakeId: made.stakeId,
    owner: made.owner,
    amount: bettor.amountWei,
    prediction: bettor.prediction,
    txHash: made.txHash,
  }));

  async function recordStake(hash: Hash, prediction: 'YES' | 'NO', amountWei: bigint): Promise<EscrowStake> {
    const made = await stakeOf(t.chain, hash);
    const [betId] = await insertBets(t.db, { marketId, now: new Date(closesAt * 1000) }, [
      betRow(prediction, amountWei, made),
    ]);
    if (betId === undefined) throw new Error('no bet recorded');
    const staked = {
      betId,
      stakeId: made.stakeId,
      owner: made.owner,
      amount: amountWei,
      prediction,
      txHash: hash,
    };
    stakes.push(staked);
    return staked;
  }

  return {
    marketId,
    betIds,
    stakeIds: stakes.map((each) => each.stakeId),
    stakes,
    escrowId,
    closesAt,
    key,
    async stake(bettor: EscrowBettor): Promise<EscrowStake> {
      const hash = await deposit(bettor.wallet, escrow, betOf(bettor.prediction), bettor.amountWei);
      return recordStake(hash, bettor.prediction, bettor.amountWei);
    },
    recordStake,
    async passClose() {
      const now = await chainNow(t.chain);
      if (now <= closesAt) await t.advanceTime(closesAt - now + 1);
    },
  };
}

export type EscrowMarket = Awaited<ReturnType<typeof escrowMarket>>;

/** POST /api/claims for `address` (every scope unless told): the relay's answer and its status. */
export async function postClaim(
  t: TestApp,
  address: Address,
  extra: { scope?: 'all' | 'markets' | 'oracle'; betId?: number } = {},
) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/claims',
    payload: { userAddress: address, scope: 'all', ...extra },
  });
  return { status: response.statusCode, body: response.json() };
}

/**
 * `wallet` claims a stake itself from the escrow, with its published claim alone (GET claimable's
 * escrowClaim), no relay: the transaction's hash, once mined.
 */
export async function claimItself(t: TestApp, wallet: Wallet, claim: EscrowClaim): Promise<Hash> {
  const hash = await wallet.writeContract({
    address: escrowOf(t),
    abi: predictionEscrowAbi,
    functionName: 'claim',
    args: [escrowClaimArg(claim)],
  });
  await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hash;
}

/** GET /api/users/:address/claimable. */
export async function claimableOf(t: TestApp, address: Address): Promise<ClaimableResponse> {
  const response = await t.app.inject({ method: 'GET', url: `/api/users/${address}/claimable` });
  return ClaimableResponseSchema.parse(response.json());
}

/**
 * Runs the escrow's own jobs (the settlement job, then the operator sender's) until the settlement
 * of a market (`marketId`) or a round (`epoch`) is final on chain: the one its proposal queued
 * (delay = what is left of the review window) or the one its settlement queued (the contract's
 * minimum delay). Returns its payout list's row; throws with the row when it does not get there.
 */
export async function postEscrowSettlement(t: TestApp, of: { marketId: number } | { epoch: number }) {
  const find = () =>
    'epoch' in of ? findPayoutListByEpoch(t.db, of.epoch) : findPayoutListByMarket(t.db, of.marketId);
  for (let step = 0; step < 8; step++) {
    for (const name of ['escrow-settlements', 'operator-transactions']) await t.job(name).run();
    const row = await find();
    if (row?.status === 'settled') return row;
  }
  const row = JSON.stringify(await find(), (_, value) => (typeof value === 'bigint' ? String(value) : value));
  throw new Error(`the settlement of ${JSON.stringify(of)} is not final: ${row}`);
}

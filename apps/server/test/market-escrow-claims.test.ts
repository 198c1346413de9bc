import { randomBytes } from 'node:crypto';
import { escrowClaimArg } from '@pm/core/contract/payout-lists';
import type { ClaimableResponse } from '@pm/core/contract/users';
import { newMarketId } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import { toPayoutList } from '@pm/escrow/payout-list';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { buildSettlement, settleArgs } from '@pm/escrow/settlement';
import { eq, inArray, sql } from 'drizzle-orm';
import {
  type Address,
  getAddress,
  type Hash,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostileBettorAbi } from '../../../packages/escrow/test/attackers.gen.ts';
import {
  bets,
  escrowRelayStakes,
  escrowRelays,
  escrowStakePayouts,
  marketFlags,
  markets,
  payments,
  payoutListLeaves,
  payoutLists,
} from '../src/db/schema.ts';
import { deposit } from './support/escrow-contracts.ts';
import { deployGasBurner, stakeOf } from './support/escrow-stakes.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Issue 29, decision 026: a Predictions market's bets and flag bonds staked on the escrow are paid by
// the contract, relayed by POST /api/claims exactly as round bets are (claimMany after the settlement's
// claimableAt, refundMany for a voided market), on a real Hardhat node and a real database. The market's
// intake and its settlement job are other branches': the rows are written with their stake ids, and the
// settlement is posted here by the operator key with packages/escrow's own builders.

const MIN_PAYOUT_DELAY = 60;
const FEE_BPS = 200n;
const VERDICT = keccak256(toHex('a test verdict'));

let t: TestApp;
let escrow: Address;

beforeAll(async () => {
  t = await startTestApp();
  const address = t.config.escrow.address;
  if (!address) throw new Error('no escrow');
  escrow = address;
});
afterAll(() => t?.close());

const player = (index: number) => {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};
const addressOf = (index: number) => player(index).account.address;
const balanceOf = (address: Address) => t.chain.publicClient.getBalance({ address });

async function chainNowS(): Promise<number> {
  return Number((await t.chain.publicClient.getBlock({ blockTag: 'latest' })).timestamp);
}

type Market = { id: number; escrowId: Hex; closesAt: number; key: Hex };
type Staked = { betId: number; stakeId: bigint; owner: Address; amount: bigint; prediction: 'YES' | 'NO' };

/** A market on the escrow as the intake writes it: its escrow id, key and deadline (= closesAt). */
async function newMarket(): Promise<Market> {
  const escrowId = newMarketId();
  const closesAt = (await chainNowS()) + 600;
  const key = marketKey(escrowId, closesAt);
  const [row] = await t.db
    .insert(markets)
    .values({
      creatorAddress: addressOf(0).toLowerCase(),
      title: 'Will the escrow pay this market?',
      description: 'A market staked on the escrow contract.',
      category: 'crypto',
      duration: 'hourly',
      startTime: new Date((closesAt - 3600) * 1000),
      deadline: new Date(closesAt * 1000),
      resolverModel: 'operator',
      resolverPromptVersion: 'test',
      contentHash: `0x${randomBytes(32).toString('hex')}`,
      escrowId,
      escrowKey: key,
    })
    .returning({ id: markets.id });
  if (!row) throw new Error('no market');
  return { id: row.id, escrowId, closesAt, key };
}

/** A payment row and a bet naming its stake, as the intake records a verified deposit. */
async function recordBet(market: Market, input: Omit<Staked, 'betId'> & { txHash: Hash }): Promise<Staked> {
  const [payment] = await t.db
    .insert(payments)
    .values({
      chainId: t.config.chain.id,
      txHash: input.txHash.toLowerCase(),
      fromAddress: input.owner.toLowerCase(),
      amount: input.amount,
      intent: `pm1:bet:${market.id}:${input.prediction}`,
      blockNumber: 1n,
      blockTime: new Date(),
      purpose: 'market_bet',
      status: 'recorded',
    })
    .returning({ id: payments.id });
  if (!payment) throw new Error('no payment');
  const [bet] = await t.db
    .insert(bets)
    .values({
      marketId: market.id,
      userAddress: input.owner.toLowerCase(),
      prediction: input.prediction,
      amount: input.amount,
      potentialPayout: input.amount * 2n,
      paymentId: payment.id,
      txHash: input.txHash.toLowerCase(),
      stakeId: input.stakeId,
    })
    .returning({ id: bets.id });
  if (!bet) throw new Error('no bet');
  return { ...input, betId: bet.id };
}

/** A player deposits a bet into the market on the escrow; the bet is recorded with its stake id. */
async function stake(index: number, market: Market, prediction: 'YES' | 'NO', bnb: string): Promise<Staked> {
  const amount = parseEther(bnb);
  const hash = await deposit(
    player(index),
    escrow,
    { kind: 'bet', market: market.escrowId, closesAt: market.closesAt, prediction },
    amount,
  );
  const { stakeId, owner } = await stakeOf(t.chain, hash);
  return recordBet(market, { stakeId, owner, amount, prediction, txHash: hash });
}

async function operatorSends(data: { functionName: 'settle' | 'settleAsRefund'; args: readonly unknown[] }) {
  const hash = await t.chain.operator.writeContract({
    address: escrow,
    abi: predictionEscrowAbi,
    // biome-ignore lint/suspicious/noExplicitAny: the two calls' argument tuples, checked by the contract
    ...(data as any),
  });
  const receipt = await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe('success');
  const block = await t.chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return { receipt, blockTime: new Date(Number(block.timestamp) * 1000) };
}

async function passClose(market: Market) {
  const now = await chainNowS();
  if (now <= market.closesAt) await t.advanceTime(market.closesAt - now + 1);
}

async function poolOf(key: Hex): Promise<bigint> {
  const [pool] = await t.chain.publicClient.readContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'markets',
    args: [key],
  });
  return pool;
}

/**
 * The market settles for `winner` (its side's stakes share the pool less a 2 % fee, rounded down),
 * on chain and in the database, its list published as msettle's job does.
 */
async function settleFor(market: Market, staked: Staked[], winner: 'YES' | 'NO', delay = MIN_PAYOUT_DELAY) {
  await passClose(market);
  const pool = await poolOf(market.key);
  const fee = (pool * FEE_BPS) / 10_000n;
  const winning = staked.filter((bet) => bet.prediction === winner);
  const winningPool = winning.reduce((sum, bet) => sum + bet.amount, 0n);
  const paid = winning.map((bet) => ({ bet, payout: (bet.amount * (pool - fee)) / winningPool }));
  const settlement = buildSettlement({
    pool,
    payouts: paid.map(({ bet, payout }) => ({ stakeId: bet.stakeId, amount: payout })),
    fee,
  });
  await postSettlement(market, {
    outcome: winner === 'YES' ? 1 : 2,
    settlement,
    pool,
    delay,
    stakes: staked,
    record: async (tx) => {
      for (const bet of staked) {
        const payout = paid.find((each) => each.bet.betId === bet.betId)?.payout ?? 0n;
        await tx
          .update(bets)
          .set({ status: payout > 0n ? 'won' : 'lost', payoutAmount: payout })
          .where(eq(bets.id, bet.betId));
      }
      await tx.update(markets).set({ status: 'settled', result: winner }).where(eq(markets.id, market.id));
    },
  });
  return new Map(paid.map(({ bet, payout }) => [bet.betId, payout]));
}

type Tx = Parameters<Parameters<TestApp['db']['transaction']>[0]>[0];

/**
 * The operator posts `settle` for the market and the list is published as msettle's job does: the
 * payout_lists row (settled, its claimableAt from the Settled event) and each leaf's proof; `record`
 * writes the bets' (or flags') side in the same transaction.
 */
async function postSettlement(
  market: Market,
  input: {
    outcome: number;
    settlement: ReturnType<typeof buildSettlement>;
    pool: bigint;
    delay: number;
    stakes: ReadonlyArray<{ stakeId: bigint; owner: Address; amount: bigint }>;
    record: (tx: Tx) => Promise<void>;
  },
) {
  const { outcome, settlement, pool, delay } = input;
  const { receipt, blockTime } = await operatorSends({
    functionName: 'settle',
    args: settleArgs(settlement, { marketKey: market.key, outcome, verdictHash: VERDICT, delay }),
  });
  const [settled] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Settled' });
  if (!settled) throw new Error('not settled');
  const document = toPayoutList({
    chainId: t.config.chain.id,
    escrow: getAddress(escrow),
    market: { id: market.escrowId, closesAt: market.closesAt },
    outcome,
    verdictHash: VERDICT,
    settlement,
    stakes: input.stakes.map((each) => ({ ...each, market: market.key })),
  });
  await t.db.transaction(async (tx) => {
    await input.record(tx);
    await tx.insert(payoutLists).values({
      marketKey: market.key,
      predictionMarketId: market.id,
      payoutDelayS: delay,
      chainId: t.config.chain.id,
      escrow: escrow.toLowerCase(),
      marketId: market.escrowId,
      closesAt: market.closesAt,
      refund: false,
      outcome,
      verdictHash: VERDICT,
      status: 'settled',
      document,
      root: settlement.root,
      payoutTotal: settlement.payoutTotal,
      fee: settlement.fee,
      pool,
      settledBlock: receipt.blockNumber,
      settledAt: blockTime,
      claimableAt: new Date(Number(settled.args.claimableAt) * 1000),
    });
    await tx.insert(payoutListLeaves).values(
      settlement.payouts.map((payout) => ({
        stakeId: payout.stakeId,
        marketKey: market.key,
        payout: payout.amount,
        proof: settlement.tree.proof(payout.stakeId),
      })),
    );
  });
}

/** The market is voided on chain (settleAsRefund) and in the database: every bet refunded. */
async function voidMarket(market: Market) {
  const { receipt, blockTime } = await operatorSends({
    functionName: 'settleAsRefund',
    args: [market.key, 4, VERDICT],
  });
  await t.db.transaction(async (tx) => {
    await tx
      .update(bets)
      .set({ status: 'refunded', payoutAmount: sql`${bets.amount}` })
      .where(eq(bets.marketId, market.id));
    await tx.update(markets).set({ status: 'settled', result: 'VOID' }).where(eq(markets.id, market.id));
    await tx.insert(payoutLists).values({
      marketKey: market.key,
      predictionMarketId: market.id,
      chainId: t.config.chain.id,
      escrow: escrow.toLowerCase(),
      marketId: market.escrowId,
      closesAt: market.closesAt,
      refund: true,
      outcome: 4,
      verdictHash: VERDICT,
      status: 'settled',
      settledBlock: receipt.blockNumber,
      settledAt: blockTime,
      claimableAt: blockTime,
    });
  });
}

async function claim(address: Address, extra: { betId?: number } = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/claims',
    payload: { userAddress: address, scope: 'markets', ...extra },
  });
  return { status: response.statusCode, body: response.json() };
}

async function claimable(address: Address): Promise<ClaimableResponse> {
  return (await t.app.inject({ method: 'GET', url: `/api/users/${address}/claimable` })).json();
}

async function betRow(betId: number) {
  const [row] = await t.db.select().from(bets).where(eq(bets.id, betId));
  return row;
}

async function count(table: typeof escrowRelays): Promise<number> {
  const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return Number(row?.n ?? 0);
}

describe('a settled market on the escrow', () => {
  let market: Market;
  let staked: Staked[];
  let returns: Map<number, bigint>;

  test('each winner sees its escrow claim, and nothing is relayed before claimableAt', async () => {
    market = await newMarket();
    staked = [
      await stake(0, market, 'YES', '1'),
      await stake(1, market, 'YES', '0.333333333333333333'),
      await stake(2, market, 'NO', '0.9'),
    ];
    returns = await settleFor(market, staked, 'YES');
    const winner = staked[0] as Staked;
    const view = await claimable(winner.owner);
    const bet = view.markets.bets.find((each) => each.id === winner.betId);
    const [list] = await t.db.select().from(payoutLists).where(eq(payoutLists.predictionMarketId, market.id));
    expect(bet?.escrowClaim).toMatchObject({
      market: market.key,
      stakeId: winner.stakeId.toString(),
      owner: winner.owner,
      amountWei: winner.amount.toString(),
      payoutWei: returns.get(winner.betId)?.toString(),
      claimableAt: list?.claimableAt?.toISOString(),
      refund: false,
    });
    expect(bet?.escrowClaim?.proof.length).toBeGreaterThan(0);
    expect((await claimable(addressOf(2))).markets.bets.some((each) => each.marketId === market.id)).toBe(
      false,
    );

    const early = await claim(winner.owner);
    expect(early.body).toMatchObject({ success: false, payoutStatus: 'none' });
    expect(early.body.message).toMatch(/can be claimed from/);
  });

  test('a winner claims through POST /api/claims: relayed once by the operator, from the escrow', async () => {
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);
    const winner = staked[0] as Staked;
    const payout = returns.get(winner.betId) ?? 0n;
    const before = await balanceOf(winner.owner);
    const answer = await claim(winner.owner, { betId: winner.betId });
    expect(answer.body).toMatchObject({
      success: true,
      betsCount: 1,
      totalWei: payout.toString(),
      payoutStatus: 'confirmed',
    });
    expect(await balanceOf(winner.owner)).toBe(before + payout);
    const receipt = await t.chain.publicClient.getTransactionReceipt({ hash: answer.body.payoutTxHash });
    expect(receipt.to?.toLowerCase()).toBe(escrow.toLowerCase());
    const carried = await t.db
      .select()
      .from(escrowRelayStakes)
      .where(eq(escrowRelayStakes.stakeId, winner.stakeId));
    expect(carried).toMatchObject([{ betId: winner.betId, oracleBetId: null, flagId: null }]);
    const [paid] = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.stakeId, winner.stakeId));
    expect(paid).toMatchObject({ kind: 'claimed', amount: payout, credited: false });
    expect((await betRow(winner.betId))?.status).toBe('claimed');
    expect((await claimable(winner.owner)).markets.bets.some((each) => each.id === winner.betId)).toBe(false);

    // Again: nothing more.
    expect((await claim(winner.owner)).body).toMatchObject({ success: false, betsCount: 0 });
    expect(await balanceOf(winner.owner)).toBe(before + payout);
  });

  test('two claims at once relay one batch and pay once', async () => {
    const winner = staked[1] as Staked;
    const payout = returns.get(winner.betId) ?? 0n;
    const before = await balanceOf(winner.owner);
    const relays = await count(escrowRelays);
    const answers = await Promise.all([claim(winner.owner), claim(winner.owner)]);
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(await balanceOf(winner.owner)).toBe(before + payout);
    expect((await count(escrowRelays)) - relays).toBe(1);
    const [, , , , , , , payoutTotal, paidOut] = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'markets',
      args: [market.key],
    });
    // Every winner is paid: the contract's count of what left is the list's total.
    expect(paidOut).toBe(payoutTotal);
  });
});

describe('a market stake the wallet claimed itself', () => {
  test('is recorded from the chain and never relayed; the relay takes only what is still open', async () => {
    const market = await newMarket();
    const own = await stake(0, market, 'NO', '0.4');
    const relayed = await stake(0, market, 'NO', '0.6');
    const loser = await stake(1, market, 'YES', '0.5');
    const returns = await settleFor(market, [own, relayed, loser], 'NO');
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);

    const winner = player(0);
    const mine = (await claimable(own.owner)).markets.bets.find((bet) => bet.id === own.betId)?.escrowClaim;
    if (!mine) throw new Error('no escrow claim for the stake');
    const hash = await winner.writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'claim',
      args: [escrowClaimArg(mine)],
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });

    const before = await balanceOf(own.owner);
    const answer = await claim(own.owner);
    expect(answer.body).toMatchObject({
      success: true,
      betsCount: 1,
      totalWei: returns.get(relayed.betId)?.toString(),
      payoutStatus: 'confirmed',
    });
    expect(await balanceOf(own.owner)).toBe(before + (returns.get(relayed.betId) ?? 0n));
    const carried = await t.db
      .select({ stakeId: escrowRelayStakes.stakeId })
      .from(escrowRelayStakes)
      .where(eq(escrowRelayStakes.stakeId, own.stakeId));
    expect(carried).toEqual([]);
    const paid = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.stakeId, own.stakeId));
    expect(paid).toMatchObject([{ kind: 'claimed', relayId: null, txHash: hash.toLowerCase() }]);
    expect((await betRow(own.betId))?.status).toBe('claimed');
    expect((await betRow(relayed.betId))?.status).toBe('claimed');
  });
});

describe('the watcher of the escrow payouts (decision 026, "Claims")', () => {
  const watch = async () => {
    const job = t.features.jobs.find((candidate) => candidate.name === 'escrow-stake-payouts');
    if (!job) throw new Error('no escrow-stake-payouts job');
    await job.run();
  };

  test("records a wallet's own claim at once, with no claim request: the bet is paid and no longer claimable", async () => {
    const market = await newMarket();
    const own = await stake(2, market, 'YES', '0.3');
    const loser = await stake(1, market, 'NO', '0.2');
    const returns = await settleFor(market, [own, loser], 'YES');
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);
    const mine = (await claimable(own.owner)).markets.bets.find((bet) => bet.id === own.betId)?.escrowClaim;
    if (!mine) throw new Error('no escrow claim for the stake');
    const hash = await player(2).writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'claim',
      args: [escrowClaimArg(mine)],
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });

    await watch();
    const paid = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.stakeId, own.stakeId));
    expect(paid).toMatchObject([
      {
        kind: 'claimed',
        relayId: null,
        txHash: hash.toLowerCase(),
        amount: returns.get(own.betId),
        credited: false,
      },
    ]);
    expect((await betRow(own.betId))?.status).toBe('claimed');
    expect((await claimable(own.owner)).markets.bets.some((bet) => bet.id === own.betId)).toBe(false);
    // Read again (another instance, a restart before the cursor moved): nothing twice, nothing else.
    await t.db.execute(sql`update chain_cursors set block_number = 0 where name = 'escrow-stake-payouts'`);
    await watch();
    expect(
      await t.db.select().from(escrowStakePayouts).where(eq(escrowStakePayouts.stakeId, own.stakeId)),
    ).toHaveLength(1);
    // The loser's stake was never paid: nothing recorded for it.
    expect(
      await t.db.select().from(escrowStakePayouts).where(eq(escrowStakePayouts.stakeId, loser.stakeId)),
    ).toEqual([]);
  });
});

describe('a voided market with a dispute bond', () => {
  test('refunds every stake, the bond too, exactly once', async () => {
    const market = await newMarket();
    const staked = [await stake(0, market, 'YES', '0.3'), await stake(1, market, 'NO', '0.7')];
    // A pending settlement, disputed by player 1's bond (a flag), then voided: every stake goes back.
    await settleForDispute(market, staked);
    const bond = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'disputeBond',
      args: [market.key],
    });
    const bondHash = await deposit(
      player(1),
      escrow,
      { kind: 'flag', market: market.escrowId, closesAt: market.closesAt },
      bond,
    );
    const bondStake = await stakeOf(t.chain, bondHash);
    const [bondPayment] = await t.db
      .insert(payments)
      .values({
        chainId: t.config.chain.id,
        txHash: bondHash.toLowerCase(),
        logIndex: 0,
        stakeId: bondStake.stakeId,
        fromAddress: bondStake.owner.toLowerCase(),
        amount: bond,
        intent: 'escrow:flag',
        blockNumber: 1n,
        blockTime: new Date(),
        purpose: 'market_flag',
        status: 'recorded',
      })
      .returning({ id: payments.id });
    const [flag] = await t.db
      .insert(marketFlags)
      .values({
        bondPaymentId: bondPayment?.id,
        marketId: market.id,
        address: bondStake.owner.toLowerCase(),
        reason: 'the verdict is wrong',
        expiry: market.closesAt + 3600,
        signature: `0x${'11'.repeat(65)}`,
        bondAmount: bond,
        bondStatus: 'returned_void',
        bondReturnAmount: bond,
        bondRewardAmount: 0n,
        stakeId: bondStake.stakeId,
      })
      .returning({ id: marketFlags.id });
    if (!flag) throw new Error('no flag');
    await voidMarket(market);

    const view = await claimable(addressOf(1));
    expect(view.bonds.bonds).toMatchObject([
      {
        flagId: flag.id,
        marketId: market.id,
        fate: 'returned_void',
        bondWei: bond.toString(),
        returnWei: bond.toString(),
        escrowClaim: {
          stakeId: bondStake.stakeId.toString(),
          refund: true,
          proof: [],
          payoutWei: bond.toString(),
        },
      },
    ]);
    const refunds = view.markets.bets.filter((bet) => bet.marketId === market.id);
    expect(refunds.every((bet) => bet.escrowClaim?.refund === true)).toBe(true);

    // The history says the bond is to be claimed, like a bet.
    const bondEntry = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/users/${addressOf(1)}/history?game=markets` }))
        .json()
        .entries.find(
          (entry: { kind: string; betId: number }) => entry.kind === 'bond' && entry.betId === flag.id,
        );
    expect(await bondEntry()).toMatchObject({ claimState: 'claimable', bond: { refundState: 'none' } });

    const owed = new Map<Address, bigint>([
      [addressOf(0), parseEther('0.3')],
      [addressOf(1), parseEther('0.7') + bond],
    ]);
    for (const [owner, total] of owed) {
      const before = await balanceOf(owner);
      const answer = await claim(owner);
      expect(answer.body).toMatchObject({
        success: true,
        totalWei: total.toString(),
        payoutStatus: 'confirmed',
      });
      expect(await balanceOf(owner)).toBe(before + total);
      expect((await claim(owner)).body).toMatchObject({ success: false, betsCount: 0 });
      expect(await balanceOf(owner)).toBe(before + total);
    }
    const paid = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.marketKey, market.key));
    expect(paid.map((each) => [each.stakeId, each.kind]).sort()).toEqual(
      [...staked.map((each) => each.stakeId), bondStake.stakeId].map((id) => [id, 'refunded']).sort(),
    );
    const carriedBond = await t.db
      .select()
      .from(escrowRelayStakes)
      .where(eq(escrowRelayStakes.stakeId, bondStake.stakeId));
    expect(carriedBond).toMatchObject([{ flagId: flag.id, betId: null, oracleBetId: null }]);
    expect(await poolOf(market.key)).toBe(0n);
    expect((await claimable(addressOf(1))).bonds.count).toBe(0);
    expect(await bondEntry()).toMatchObject({ claimState: 'claimed', bond: { refundState: 'refunded' } });
    const bets_ = await t.db
      .select()
      .from(bets)
      .where(inArray(bets.marketId, [market.id]));
    expect(bets_.every((bet) => bet.status === 'claimed')).toBe(true);
  });
});

/** A settlement left pending (a review window's delay), so a flag's bond can dispute it. */
async function settleForDispute(market: Market, staked: Staked[]) {
  await passClose(market);
  const pool = await poolOf(market.key);
  const settlement = buildSettlement({
    pool,
    payouts: staked.map((bet) => ({ stakeId: bet.stakeId, amount: bet.amount })),
    fee: 0n,
  });
  await operatorSends({
    functionName: 'settle',
    args: settleArgs(settlement, { marketKey: market.key, outcome: 1, verdictHash: VERDICT, delay: 3600 }),
  });
}

describe('a market winner that burns the gas of its payout', () => {
  test('is credited, the operator paying one capped attempt; claiming again sends nothing', async () => {
    const market = await newMarket();
    const deployer = player(0);
    const burner = await deployGasBurner(t.chain, deployer, escrow);
    const amount = parseEther('0.5');
    const hash = await deployer.writeContract({
      address: burner,
      abi: hostileBettorAbi,
      functionName: 'bet',
      args: [market.escrowId, market.closesAt, 2],
      value: amount,
    });
    const deposited = await stakeOf(t.chain, hash);
    expect(deposited.owner.toLowerCase()).toBe(burner.toLowerCase());
    const burnerBet = await recordBet(market, { ...deposited, amount, prediction: 'NO', txHash: hash });
    const other = await stake(2, market, 'YES', '0.5');
    const returns = await settleFor(market, [burnerBet, other], 'NO');
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);

    const payout = returns.get(burnerBet.betId) ?? 0n;
    expect(payout).toBeGreaterThan(amount);
    const answer = await claim(burner);
    expect(answer.body).toMatchObject({ success: true, betsCount: 1, payoutStatus: 'confirmed' });
    const credit = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'credits',
      args: [burner],
    });
    expect(credit).toBe(payout);
    const [paid] = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.stakeId, deposited.stakeId));
    expect(paid).toMatchObject({ kind: 'claimed', credited: true, amount: payout });
    expect((await betRow(burnerBet.betId))?.status).toBe('claimed');

    const relays = await count(escrowRelays);
    expect((await claim(burner)).body).toMatchObject({ success: false, betsCount: 0 });
    expect(await count(escrowRelays)).toBe(relays);
  });
});

describe('a bond returned with its reward, and the scope of a claim', () => {
  test("a winner's claim of the oracle scope relays nothing of a market; the markets scope pays the bet and the bond by claimMany", async () => {
    const market = await newMarket();
    const staked = [await stake(0, market, 'YES', '0.4'), await stake(1, market, 'NO', '0.6')];
    // A verdict (YES) disputed by player 1's bond, then overturned: NO wins, the bond comes back with a reward.
    await settleForDispute(market, staked);
    const bond = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'disputeBond',
      args: [market.key],
    });
    const bondHash = await deposit(
      player(1),
      escrow,
      { kind: 'flag', market: market.escrowId, closesAt: market.closesAt },
      bond,
    );
    const bondStake = await stakeOf(t.chain, bondHash);
    const reward = parseEther('0.001');
    const [flag] = await t.db
      .insert(marketFlags)
      .values({
        marketId: market.id,
        address: bondStake.owner.toLowerCase(),
        reason: 'the verdict is wrong',
        expiry: market.closesAt + 3600,
        signature: `0x${'11'.repeat(65)}`,
        bondAmount: bond,
        bondStatus: 'returned',
        bondReturnAmount: bond + reward,
        bondRewardAmount: reward,
        stakeId: bondStake.stakeId,
      })
      .returning({ id: marketFlags.id });
    if (!flag) throw new Error('no flag');
    // The reviewed list: the winner takes the pool less the fee, the bond and its reward (out of the fee).
    const pool = await poolOf(market.key);
    const fee = (parseEther('1') * FEE_BPS) / 10_000n - reward;
    const winner = staked[1] as Staked;
    const winnerPayout = pool - bond - reward - fee - 7n;
    const settlement = buildSettlement({
      pool,
      payouts: [
        { stakeId: winner.stakeId, amount: winnerPayout },
        { stakeId: bondStake.stakeId, amount: bond + reward },
      ],
      fee,
    });
    await postSettlement(market, {
      outcome: 2,
      settlement,
      pool,
      delay: MIN_PAYOUT_DELAY,
      stakes: [...staked, { stakeId: bondStake.stakeId, owner: bondStake.owner, amount: bond }],
      record: async (tx) => {
        await tx
          .update(bets)
          .set({ status: 'lost', payoutAmount: 0n })
          .where(eq(bets.id, (staked[0] as Staked).betId));
        await tx
          .update(bets)
          .set({ status: 'won', payoutAmount: winnerPayout })
          .where(eq(bets.id, winner.betId));
        await tx.update(markets).set({ status: 'settled', result: 'NO' }).where(eq(markets.id, market.id));
      },
    });
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);

    const view = await claimable(winner.owner);
    expect(view.bonds.bonds).toMatchObject([
      {
        flagId: flag.id,
        fate: 'returned',
        returnWei: (bond + reward).toString(),
        escrowClaim: {
          stakeId: bondStake.stakeId.toString(),
          payoutWei: (bond + reward).toString(),
          refund: false,
        },
      },
    ]);

    const relays = await count(escrowRelays);
    const oracleOnly = await t.app.inject({
      method: 'POST',
      url: '/api/claims',
      payload: { userAddress: winner.owner, scope: 'oracle' },
    });
    expect(oracleOnly.json()).toMatchObject({ success: false, betsCount: 0 });
    expect(await count(escrowRelays)).toBe(relays);

    const before = await balanceOf(winner.owner);
    const answer = await claim(winner.owner);
    expect(answer.body).toMatchObject({
      success: true,
      betsCount: 2,
      totalWei: (winnerPayout + bond + reward).toString(),
      payoutStatus: 'confirmed',
    });
    expect(await balanceOf(winner.owner)).toBe(before + winnerPayout + bond + reward);
    const paid = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(inArray(escrowStakePayouts.stakeId, [winner.stakeId, bondStake.stakeId]));
    expect(paid.map((each) => [each.stakeId, each.kind, each.amount]).sort()).toEqual(
      [
        [winner.stakeId, 'claimed', winnerPayout],
        [bondStake.stakeId, 'claimed', bond + reward],
      ].sort(),
    );
    expect((await claimable(winner.owner)).bonds.count).toBe(0);
  });
});

describe('the escape hatch, with no server acting', () => {
  test('a stake of a market never settled is refunded by anyone ESCAPE_DELAY after its close, and the watcher records it', async () => {
    const market = await newMarket();
    const stranded = await stake(2, market, 'YES', '0.25');
    await passClose(market);
    const escapeDelay = await t.chain.publicClient.readContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'ESCAPE_DELAY',
    });
    await t.advanceTime(Number(escapeDelay) + 1);
    const before = await balanceOf(stranded.owner);
    // Anyone may send it (here another player); the stake goes to its owner and nowhere else.
    const hash = await player(1).writeContract({
      address: escrow,
      abi: predictionEscrowAbi,
      functionName: 'refund',
      args: [
        { stakeId: stranded.stakeId, owner: stranded.owner, market: market.key, amount: stranded.amount },
      ],
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(await balanceOf(stranded.owner)).toBe(before + stranded.amount);

    const job = t.features.jobs.find((candidate) => candidate.name === 'escrow-stake-payouts');
    await job?.run();
    const paid = await t.db
      .select()
      .from(escrowStakePayouts)
      .where(eq(escrowStakePayouts.stakeId, stranded.stakeId));
    expect(paid).toMatchObject([
      { kind: 'refunded', relayId: null, amount: stranded.amount, txHash: hash.toLowerCase() },
    ]);
  });
});

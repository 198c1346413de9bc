import { toPayoutList } from '@pm/escrow/payout-list';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { buildSettlement, settleArgs } from '@pm/escrow/settlement';
import { eq, inArray, sql } from 'drizzle-orm';
import { type Address, getAddress, keccak256, parseEther, parseEventLogs, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gasBurnerAbi, gasBurnerBytecode } from '../../../packages/escrow/test/attackers.gen.ts';
import {
  bets,
  escrowRelayStakes,
  escrowRelays,
  escrowStakePayouts,
  marketFlags,
  markets,
  operatorTransactions,
  payments,
  payoutListLeaves,
  payoutLists,
} from '../src/db/schema.ts';
import { deposit } from './support/escrow-contracts.ts';
import {
  claimableOf,
  claimItself,
  type EscrowMarket,
  type EscrowStake,
  escrowCreditOf,
  escrowMarket,
  escrowOf,
  expectPaidWithoutRelay,
  postClaim,
  readMarketOnChain,
  stakePayoutsOf,
} from './support/escrow-market-helpers.ts';
import { escrowPayoutsOf, gasBurnerStake, stakeOf, watchBalance } from './support/escrow-stakes.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 026: a Predictions market's bets and flag bonds staked on the escrow are paid by the
// contract, relayed by POST /api/claims exactly as round bets are (claimMany after the settlement's
// claimableAt, refundMany for a voided market), on a real Hardhat node and a real database. The
// market's bets are real deposits recorded as the intake records them; its settlement is posted here
// by the operator key with packages/escrow's own builders (market-escrow-settlement.test.ts has the
// settlement job's).

const MIN_PAYOUT_DELAY = 60;
const FEE_BPS = 200n;
const VERDICT = keccak256(toHex('a test verdict'));

let t: TestApp;
let escrow: Address;

beforeAll(async () => {
  t = await startTestApp();
  escrow = escrowOf(t);
});
afterAll(() => t?.close());

const player = (index: number) => {
  const wallet = t.chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
};
const addressOf = (index: number) => player(index).account.address;
const balanceOf = (address: Address) => t.chain.publicClient.getBalance({ address });

type Market = EscrowMarket;
type Staked = EscrowStake;

/** A market on the escrow with no bets yet, open for ten minutes. */
const newMarket = () => escrowMarket(t, { closeInS: 600, title: 'Will the escrow pay this market?' });

/** Player `index` deposits a bet into the market; the bet is recorded with its stake id. */
const stake = (index: number, market: Market, prediction: 'YES' | 'NO', bnb: string) =>
  market.stake({ wallet: player(index), prediction, amountWei: parseEther(bnb) });

const poolOf = async (market: Market) => (await readMarketOnChain(t, market.key)).pool;

const claim = (address: Address, extra: { betId?: number } = {}) =>
  postClaim(t, address, { scope: 'markets', ...extra });

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

/**
 * The market settles for `winner` (its side's stakes share the pool less a 2 % fee, rounded down),
 * on chain and in the database, its list published as msettle's job does.
 */
async function settleFor(market: Market, staked: Staked[], winner: 'YES' | 'NO', delay = MIN_PAYOUT_DELAY) {
  await market.passClose();
  const pool = await poolOf(market);
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
      await tx
        .update(markets)
        .set({ status: 'settled', result: winner })
        .where(eq(markets.id, market.marketId));
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
      predictionMarketId: market.marketId,
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
      .where(eq(bets.marketId, market.marketId));
    await tx
      .update(markets)
      .set({ status: 'settled', result: 'VOID' })
      .where(eq(markets.id, market.marketId));
    await tx.insert(payoutLists).values({
      marketKey: market.key,
      predictionMarketId: market.marketId,
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
    const view = await claimableOf(t, winner.owner);
    const bet = view.markets.bets.find((each) => each.id === winner.betId);
    const [list] = await t.db
      .select()
      .from(payoutLists)
      .where(eq(payoutLists.predictionMarketId, market.marketId));
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
    expect(
      (await claimableOf(t, addressOf(2))).markets.bets.some((each) => each.marketId === market.marketId),
    ).toBe(false);

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
    const [paid] = await stakePayoutsOf(t, winner.stakeId);
    expect(paid).toMatchObject({ kind: 'claimed', amount: payout, credited: false });
    expect((await betRow(winner.betId))?.status).toBe('claimed');
    expect((await claimableOf(t, winner.owner)).markets.bets.some((each) => each.id === winner.betId)).toBe(
      false,
    );

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
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await balanceOf(winner.owner)).toBe(before + payout);
    expect((await count(escrowRelays)) - relays).toBe(1);
    const { payoutTotal, paid } = await readMarketOnChain(t, market.key);
    // Every winner is paid: the contract's count of what left is the list's total.
    expect(paid).toBe(payoutTotal);
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

    const mine = (await claimableOf(t, own.owner)).markets.bets.find(
      (bet) => bet.id === own.betId,
    )?.escrowClaim;
    if (!mine) throw new Error('no escrow claim for the stake');
    const ownPayout = returns.get(own.betId) ?? 0n;
    expect(ownPayout).toBeGreaterThan(own.amount);
    const wallet = await watchBalance(t.chain, own.owner);
    const hash = await claimItself(t, player(0), mine);
    // The contract paid the stake its return, to the wei: the wallet gained it less its own gas.
    expect(await escrowPayoutsOf(t.chain, hash)).toEqual([
      { kind: 'claimed', stakeId: own.stakeId, owner: own.owner, amount: ownPayout },
    ]);
    expect(await wallet.moved(hash)).toBe(ownPayout);

    const before = await balanceOf(own.owner);
    const answer = await claim(own.owner);
    expect(answer.body).toMatchObject({
      success: true,
      betsCount: 1,
      totalWei: returns.get(relayed.betId)?.toString(),
      payoutStatus: 'confirmed',
    });
    expect(await balanceOf(own.owner)).toBe(before + (returns.get(relayed.betId) ?? 0n));
    await expectPaidWithoutRelay(t, own.stakeId, hash, ownPayout);
    expect((await betRow(own.betId))?.status).toBe('claimed');
    expect((await betRow(relayed.betId))?.status).toBe('claimed');
  });
});

describe('the watcher of the escrow payouts (decision 026, "Claims")', () => {
  const watch = () => t.job('escrow-stake-payouts').run();

  test("records a wallet's own claim at once, with no claim request: the bet is paid and no longer claimable", async () => {
    const market = await newMarket();
    const own = await stake(2, market, 'YES', '0.3');
    const loser = await stake(1, market, 'NO', '0.2');
    const returns = await settleFor(market, [own, loser], 'YES');
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);
    const mine = (await claimableOf(t, own.owner)).markets.bets.find(
      (bet) => bet.id === own.betId,
    )?.escrowClaim;
    if (!mine) throw new Error('no escrow claim for the stake');
    const wallet = await watchBalance(t.chain, own.owner);
    const hash = await claimItself(t, player(2), mine);
    expect(await wallet.moved(hash)).toBe(returns.get(own.betId));

    await watch();
    await expectPaidWithoutRelay(t, own.stakeId, hash, returns.get(own.betId) ?? 0n);
    expect((await betRow(own.betId))?.status).toBe('claimed');
    expect((await claimableOf(t, own.owner)).markets.bets.some((bet) => bet.id === own.betId)).toBe(false);
    // Read again (another instance, a restart before the cursor moved): nothing twice, nothing else.
    await t.db.execute(sql`update chain_cursors set block_number = 0 where name = 'escrow-stake-payouts'`);
    await watch();
    expect(await stakePayoutsOf(t, own.stakeId)).toHaveLength(1);
    // The loser's stake was never paid: nothing recorded for it.
    expect(await stakePayoutsOf(t, loser.stakeId)).toEqual([]);
  });
});

describe('a voided market with a dispute bond', () => {
  test('refunds every stake, the bond too, exactly once', async () => {
    const market = await newMarket();
    const staked = [await stake(0, market, 'YES', '0.3'), await stake(1, market, 'NO', '0.7')];
    // A pending settlement, disputed by player 1's bond (a flag), then voided: every stake goes back.
    const { bond, bondStake, flag } = await disputeWithBond(market, staked, 1, (bond) => ({
      bondStatus: 'returned_void',
      bondReturnAmount: bond,
      bondRewardAmount: 0n,
    }));
    await voidMarket(market);

    const view = await claimableOf(t, addressOf(1));
    expect(view.bonds.bonds).toMatchObject([
      {
        flagId: flag.id,
        marketId: market.marketId,
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
    const refunds = view.markets.bets.filter((bet) => bet.marketId === market.marketId);
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
    expect(await poolOf(market)).toBe(0n);
    expect((await claimableOf(t, addressOf(1))).bonds.count).toBe(0);
    expect(await bondEntry()).toMatchObject({ claimState: 'claimed', bond: { refundState: 'refunded' } });
    const bets_ = await t.db
      .select()
      .from(bets)
      .where(inArray(bets.marketId, [market.marketId]));
    expect(bets_.every((bet) => bet.status === 'claimed')).toBe(true);
  });
});

/**
 * The market's settlement left pending (a review window's delay, every stake its own payout) and
 * disputed by player `index`'s bond: the flag's dispute deposit of the contract's disputeBond, its
 * payment and the flag recorded with its stake and the fate `fate` gives it.
 */
async function disputeWithBond(
  market: Market,
  staked: Staked[],
  index: number,
  fate: (
    bond: bigint,
  ) => Pick<typeof marketFlags.$inferInsert, 'bondStatus' | 'bondReturnAmount' | 'bondRewardAmount'>,
) {
  await market.passClose();
  const pool = await poolOf(market);
  const pending = buildSettlement({
    pool,
    payouts: staked.map((bet) => ({ stakeId: bet.stakeId, amount: bet.amount })),
    fee: 0n,
  });
  await operatorSends({
    functionName: 'settle',
    args: settleArgs(pending, { marketKey: market.key, outcome: 1, verdictHash: VERDICT, delay: 3600 }),
  });
  const bond = await t.chain.publicClient.readContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'disputeBond',
    args: [market.key],
  });
  const bondHash = await deposit(
    player(index),
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
      logIndex: bondStake.logIndex,
      stakeId: bondStake.stakeId,
      fromAddress: bondStake.owner.toLowerCase(),
      amount: bond,
      intent: 'escrow:flag',
      blockNumber: bondStake.blockNumber,
      blockTime: bondStake.blockTime,
      purpose: 'market_flag',
      status: 'recorded',
    })
    .returning({ id: payments.id });
  const [flag] = await t.db
    .insert(marketFlags)
    .values({
      bondPaymentId: bondPayment?.id,
      marketId: market.marketId,
      address: bondStake.owner.toLowerCase(),
      reason: 'the verdict is wrong',
      expiry: market.closesAt + 3600,
      signature: `0x${'11'.repeat(65)}`,
      bondAmount: bond,
      stakeId: bondStake.stakeId,
      ...fate(bond),
    })
    .returning({ id: marketFlags.id });
  if (!flag) throw new Error('no flag');
  return { bond, bondStake, flag };
}

describe('a market winner that burns the gas of its payout', () => {
  test('is credited, the operator paying one capped attempt; claiming again sends nothing', async () => {
    const market = await newMarket();
    const amount = parseEther('0.5');
    const { burner, hash } = await gasBurnerStake(
      t.chain,
      player(0),
      escrow,
      { id: market.escrowId, closesAt: market.closesAt },
      amount,
    );
    const burnerBet = await market.recordStake(hash, 'NO', amount);
    expect(burnerBet.owner.toLowerCase()).toBe(burner.toLowerCase());
    const other = await stake(2, market, 'YES', '0.5');
    const returns = await settleFor(market, [burnerBet, other], 'NO');
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);

    const payout = returns.get(burnerBet.betId) ?? 0n;
    expect(payout).toBeGreaterThan(amount);
    const answer = await claim(burner);
    expect(answer.body).toMatchObject({ success: true, betsCount: 1, payoutStatus: 'confirmed' });
    const credit = await escrowCreditOf(t, burner);
    expect(credit).toBe(payout);
    const [paid] = await stakePayoutsOf(t, burnerBet.stakeId);
    expect(paid).toMatchObject({ kind: 'claimed', credited: true, amount: payout });
    expect((await betRow(burnerBet.betId))?.status).toBe('claimed');

    const relays = await count(escrowRelays);
    expect((await claim(burner)).body).toMatchObject({ success: false, betsCount: 0 });
    expect(await count(escrowRelays)).toBe(relays);
  });
});

describe('a winner delegated (EIP-7702) to code that burns its gas only when paid for real', () => {
  test("25 claims of a delegated burner's 40 stakes relay one stake each, signed at its cap, and spend it; an honest winner is paid meanwhile", async () => {
    const market = await newMarket();
    const owner = marketHelpers(t).extraWallet(12);
    const stakeWei = parseEther('0.01');
    const mine: Staked[] = [];
    for (let i = 0; i < 40; i++) {
      mine.push(await market.stake({ wallet: owner, prediction: 'YES', amountWei: stakeWei }));
    }
    const honest = await stake(1, market, 'YES', '0.05');
    const loser = await stake(2, market, 'NO', '0.5');
    // The owner's account runs GasBurner: cheap when the base fee is 0 (an estimate without fees),
    // burning every gas it is given otherwise.
    const deployed = await t.chain.publicClient.waitForTransactionReceipt({
      hash: await player(0).deployContract({ abi: gasBurnerAbi, bytecode: gasBurnerBytecode }),
      pollingInterval: 50,
    });
    if (!deployed.contractAddress) throw new Error('no burner');
    const authorization = await owner.signAuthorization({
      account: owner.account,
      contractAddress: deployed.contractAddress,
    });
    await t.chain.publicClient.waitForTransactionReceipt({
      hash: await player(0).sendTransaction({ to: addressOf(0), authorizationList: [authorization] }),
      pollingInterval: 50,
    });
    expect(await t.chain.publicClient.getCode({ address: owner.account.address })).toMatch(/^0xef0100/);
    const returns = await settleFor(market, [...mine, honest, loser], 'YES');
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);
    const each = returns.get(mine[0]?.betId ?? 0) ?? 0n;
    expect(each).toBeGreaterThan(stakeWei);

    for (let attempt = 0; attempt < 25; attempt++) {
      const answer = await claim(owner.account.address);
      expect(answer.body).toMatchObject({ success: true, betsCount: 1, payoutStatus: 'confirmed' });
      if (attempt === 12) {
        // An honest winner's claim in the middle of it is relayed and paid at once, to the wei.
        const balance = await watchBalance(t.chain, addressOf(1));
        expect((await claim(addressOf(1))).body).toMatchObject({ success: true, payoutStatus: 'confirmed' });
        expect(await balance.moved()).toBe(returns.get(honest.betId));
      }
    }
    // Each relay spent its one stake: pushed to the burner, which burnt its capped gas, and credited.
    expect(await escrowCreditOf(t, owner.account.address)).toBe(each * 25n);
    const relays = await t.db
      .select({
        stakes: sql<number>`(select count(*)::int from ${escrowRelayStakes} where relay_id = ${escrowRelays.id})`,
        status: escrowRelays.status,
        action: operatorTransactions.status,
        gasLimit: operatorTransactions.gasLimit,
        gasCap: operatorTransactions.gasCap,
        gasUsed: operatorTransactions.gasUsed,
      })
      .from(escrowRelays)
      .innerJoin(operatorTransactions, eq(operatorTransactions.id, escrowRelays.operatorTxId))
      .where(eq(escrowRelays.owner, owner.account.address.toLowerCase()));
    expect(relays).toHaveLength(25);
    for (const relay of relays) {
      expect(relay).toMatchObject({ stakes: 1, status: 'done', action: 'confirmed' });
      // Signed at the contract's worst case for one stake, and used at most that: one capped attempt.
      expect(relay.gasLimit).toBe(relay.gasCap);
      expect(relay.gasUsed).not.toBeNull();
      expect(relay.gasUsed as bigint).toBeLessThanOrEqual(relay.gasCap);
    }
    const open = await Promise.all(
      mine.map(async (bet) => (await stakePayoutsOf(t, bet.stakeId)).length === 0),
    );
    expect(open.filter(Boolean)).toHaveLength(15);
  });

  test('an owner whose relay reverted on chain is not relayed again for an hour: the claim says to claim with the wallet', async () => {
    const market = await newMarket();
    const winner = await stake(0, market, 'YES', '0.2');
    const loser = await stake(2, market, 'NO', '0.2');
    await settleFor(market, [winner, loser], 'YES');
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);
    // A relay of this owner's that mined and reverted a minute ago (its receipt used gas).
    const [action] = await t.db
      .insert(operatorTransactions)
      .values({
        key: `escrow-relay:reverted:${market.key}`,
        chainId: t.config.chain.id,
        sender: t.chain.operator.account.address.toLowerCase(),
        toAddress: escrow.toLowerCase(),
        data: '0x',
        value: 0n,
        gasCap: 250_000n,
        signAtCap: true,
        status: 'failed',
        gasUsed: 240_000n,
        lastError: 'transaction reverted on chain',
      })
      .returning({ id: operatorTransactions.id });
    if (!action) throw new Error('no action');
    await t.db.insert(escrowRelays).values({
      kind: 'claim',
      owner: addressOf(0).toLowerCase(),
      operatorTxId: action.id,
      status: 'released',
      lastError: 'the claimMany relay failed',
      doneAt: new Date(Date.now() - 60_000),
    });
    const relays = await count(escrowRelays);
    const answer = await claim(addressOf(0));
    expect(answer.status).toBe(502);
    expect(answer.body.error).toMatchObject({ code: 'PAYOUT_FAILED' });
    expect(answer.body.error.message).toMatch(
      /reverted on chain, so none is relayed until .*claim with the wallet itself/,
    );
    expect(await count(escrowRelays)).toBe(relays);
    // Its stake stays claimable, by the wallet's own claim.
    expect((await claimableOf(t, addressOf(0))).markets.bets.some((each) => each.id === winner.betId)).toBe(
      true,
    );
  });
});

describe('a bond returned with its reward, and the scope of a claim', () => {
  test("a winner's claim of the oracle scope relays nothing of a market; the markets scope pays the bet and the bond by claimMany", async () => {
    const market = await newMarket();
    const staked = [await stake(0, market, 'YES', '0.4'), await stake(1, market, 'NO', '0.6')];
    // A verdict (YES) disputed by player 1's bond, then overturned: NO wins, the bond comes back with a reward.
    const reward = parseEther('0.001');
    const { bond, bondStake, flag } = await disputeWithBond(market, staked, 1, (bond) => ({
      bondStatus: 'returned',
      bondReturnAmount: bond + reward,
      bondRewardAmount: reward,
    }));
    // The reviewed list: the winner takes the pool less the fee, the bond and its reward (out of the fee).
    const pool = await poolOf(market);
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
        await tx
          .update(markets)
          .set({ status: 'settled', result: 'NO' })
          .where(eq(markets.id, market.marketId));
      },
    });
    await t.advanceTime(MIN_PAYOUT_DELAY + 1);

    const view = await claimableOf(t, winner.owner);
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
    expect((await claimableOf(t, winner.owner)).bonds.count).toBe(0);
  });
});

describe('the escape hatch, with no server acting', () => {
  test('a stake of a market never settled is refunded by anyone ESCAPE_DELAY after its close, and the watcher records it', async () => {
    const market = await newMarket();
    const stranded = await stake(2, market, 'YES', '0.25');
    await market.passClose();
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
    expect(await escrowPayoutsOf(t.chain, hash)).toEqual([
      { kind: 'refunded', stakeId: stranded.stakeId, owner: stranded.owner, amount: stranded.amount },
    ]);
    expect(await balanceOf(stranded.owner)).toBe(before + stranded.amount);

    await t.job('escrow-stake-payouts').run();
    const paid = await stakePayoutsOf(t, stranded.stakeId);
    expect(paid).toMatchObject([
      { kind: 'refunded', relayId: null, amount: stranded.amount, txHash: hash.toLowerCase() },
    ]);
  });
});

import { computeBondedMarketPayouts } from '@pm/core/flag-bonds';
import { createPublicClient, type Hex, http, keccak256, parseEther, toHex } from 'viem';
import { hardhat } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyJudgedSettlement } from '../src/judged-payouts/verify-judged-settlement.ts';
import type { Payout } from '../src/payout-tree.ts';
import {
  BETTORS,
  createMarketEscrowWorld,
  GUARDIAN,
  type MarketEscrowWorld,
  NO,
  OPERATOR,
  PAYOUT_DELAY,
  type StakeRef,
  YES,
} from './market-escrow-world.ts';

// verifyJudgedSettlement on a Hardhat node: judged markets settled by the operator, honestly and not,
// with disputes, refunds and claims, each settlement recomputed from the market's chain events alone.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

const FEE_BPS = 200;
const VOID = 4;
const [alice, bob, carol, dave, erin] = BETTORS;
const bnb = parseEther;

/** A judged market with these bets (the first creates it), past its close. */
async function closedMarket(bets: ReadonlyArray<readonly [bettor: number, side: number, amount: string]>) {
  const [first, ...rest] = bets;
  if (!first) throw new Error('a market needs a first bet');
  const created = await world.createJudgedMarket(first[0], { side: first[1], amount: bnb(first[2]) });
  const stakes = [created.stake];
  for (const [bettor, side, amount] of rest)
    stakes.push(await world.bet(bettor, created.key, side, bnb(amount)));
  await world.travelTo(created.closesAt + 1);
  return { key: created.key, stakes };
}

/**
 * The list the server's settlement writes for these stakes (settleMarket's returns: core's
 * computeBondedMarketPayouts), computed apart from the module under test.
 */
function honestList(stakes: readonly StakeRef[], outcome: number, disputed: number | null = null): Payout[] {
  const name = (code: number) => (code === YES ? 'YES' : code === NO ? 'NO' : 'VOID');
  const settled = computeBondedMarketPayouts({
    bets: stakes.flatMap((s) =>
      s.side === 0
        ? []
        : [{ id: s.stakeId, side: s.side === YES ? ('YES' as const) : ('NO' as const), amountWei: s.amount }],
    ),
    bonds: stakes.flatMap((s) => (s.side === 0 ? [{ id: s.stakeId, amountWei: s.amount }] : [])),
    proposedResult: name(disputed ?? outcome),
    result: name(outcome),
    feeBps: FEE_BPS,
  });
  return [...settled.bets.payouts, ...settled.bonds.bonds].flatMap((payout) =>
    payout.returnWei > 0n ? [{ stakeId: payout.id, amount: payout.returnWei }] : [],
  );
}

const verify = (key: Hex, publishedPayouts?: readonly Payout[]) =>
  verifyJudgedSettlement(world.publicClient, world.address, key, {
    feeBps: FEE_BPS,
    ...(publishedPayouts ? { publishedPayouts } : {}),
  });

async function claim(stake: StakeRef, payouts: readonly Payout[], tree: { proof(id: bigint): Hex[] }) {
  const payout = payouts.find((leaf) => leaf.stakeId === stake.stakeId)?.amount ?? 0n;
  await world.mined(world.as(bob).write.claim([{ stake, payout, proof: tree.proof(stake.stakeId) }]));
}

describe('honest settlements', () => {
  test('a settlement paying winners of several sizes on either side agrees while pending and once claimed', async () => {
    for (const outcome of [YES, NO]) {
      const { key, stakes } = await closedMarket([
        [alice, YES, '1'],
        [carol, YES, '0.3'],
        [erin, YES, '0.007'],
        [bob, NO, '0.5'],
        [dave, NO, '0.25'],
        [dave, NO, '0.013'],
      ]);
      const list = honestList(stakes, outcome);
      const { tree } = await world.settleJudged(key, list, { outcome });
      const pending = await verify(key, list);
      expect(pending).toMatchObject({ status: 'agrees', sentences: [], posted: { standing: 'pending' } });
      expect(pending.expected?.root).toBe(tree.root);
      expect(pending.read).toMatchObject({ deposits: 6, refunds: 0, disputes: 0, claims: 0 });

      await world.travel(PAYOUT_DELAY);
      const winners = stakes.filter((stake) => stake.side === outcome);
      for (const winner of winners) await claim(winner, list, tree);
      const claimed = await verify(key);
      expect(claimed).toMatchObject({ status: 'agrees', posted: { standing: 'claimable' } });
      expect(claimed.read.claims).toBe(winners.length);
    }
  });

  test('a one-sided market voided by settleAsRefund has nothing to recompute; settled instead, it pays every stake back', async () => {
    const voided = await closedMarket([
      [alice, YES, '1'],
      [carol, YES, '0.2'],
    ]);
    await world.mined(world.as(OPERATOR).write.settleAsRefund([voided.key, VOID, keccak256(toHex('void'))]));
    const check = await verify(voided.key);
    expect(check.status).toBe('none');
    expect(check.sentences[0]).toMatch(
      /voided by the operator\) and was never settled: the contract refunds every stake/,
    );

    const settled = await closedMarket([
      [alice, YES, '1'],
      [carol, YES, '0.2'],
    ]);
    const list = honestList(settled.stakes, NO);
    expect(list.map((leaf) => leaf.amount)).toEqual([bnb('1'), bnb('0.2')]);
    await world.settleJudged(settled.key, list, { outcome: NO });
    expect(await verify(settled.key, list)).toMatchObject({ status: 'agrees', expected: { fee: 0n } });
  });

  test('a market not settled, a price market and a key nobody used have nothing to recompute', async () => {
    const open = await closedMarket([[alice, YES, '0.01']]);
    expect(await verify(open.key)).toMatchObject({
      status: 'none',
      sentences: ['The market has no settlement yet.'],
    });
    const price = await world.createPriceMarket(alice, { target: 100n * 10n ** 8n });
    expect((await verify(price.key)).sentences[0]).toMatch(/price kind/);
    expect((await verify(keccak256(toHex('nobody')))).sentences[0]).toMatch(/No creation of this market/);
  });

  test('a settlement withdrawn by the operator or vetoed by the guardian pays nobody and has nothing to recompute', async () => {
    for (const [takeBack, said] of [
      [
        (key: Hex) => world.as(OPERATOR).write.withdrawSettlement([key]),
        /was withdrawn by the operator at block/,
      ],
      [(key: Hex) => world.as(GUARDIAN).write.veto([key]), /was vetoed by the guardian at block/],
    ] as const) {
      const { key, stakes } = await closedMarket([
        [alice, YES, '0.1'],
        [bob, NO, '0.1'],
      ]);
      await world.settleJudged(key, honestList(stakes, YES));
      await world.mined(takeBack(key));
      const check = await verify(key);
      expect(check.status).toBe('none');
      expect(check.sentences[0]).toMatch(said);
    }
  });

  test('an RPC that cannot be reached throws instead of reporting', async () => {
    const dead = createPublicClient({
      chain: hardhat,
      transport: http('http://127.0.0.1:1', { retryCount: 0 }),
    });
    await expect(
      verifyJudgedSettlement(dead, world.address, keccak256(toHex('x')), { feeBps: FEE_BPS }),
    ).rejects.toThrow();
  });
});

/** alice YES 1, carol YES 0.05, bob NO 0.5, dave NO 0.25: settled YES, alice 1.7, carol 0.085, fee 0.015. */
async function tamperableMarket() {
  const { key, stakes } = await closedMarket([
    [alice, YES, '1'],
    [carol, YES, '0.05'],
    [bob, NO, '0.5'],
    [dave, NO, '0.25'],
  ]);
  const [aliceStake, carolStake, bobStake] = stakes;
  if (!aliceStake || !carolStake || !bobStake) throw new Error('four stakes');
  expect(honestList(stakes, YES).map((leaf) => leaf.amount)).toEqual([bnb('1.7'), bnb('0.085')]);
  return { key, aliceStake, carolStake, bobStake };
}

describe('tampered settlements', () => {
  test('a list that pays a loser disagrees, names the loser, and so does the loser’s claim', async () => {
    const { key, aliceStake, carolStake, bobStake } = await tamperableMarket();
    const list = [
      { stakeId: aliceStake.stakeId, amount: bnb('1.69') },
      { stakeId: carolStake.stakeId, amount: bnb('0.085') },
      { stakeId: bobStake.stakeId, amount: bnb('0.01') },
    ];
    const { tree } = await world.settleJudged(key, list);
    const rootOnly = await verify(key);
    expect(rootOnly.status).toBe('differs');
    expect(rootOnly.sentences).toEqual([
      expect.stringMatching(/payout root 0x[0-9a-f]{64} is not the rules' root/),
    ]);
    const named = await verify(key, list);
    expect(named.sentences).toContain(
      `Stake ${bobStake.stakeId} (NO bet of ${bobStake.owner}) is paid 0.01 BNB, but it is a losing bet: it should get nothing.`,
    );
    expect(named.sentences).toContain(
      `Stake ${aliceStake.stakeId} (YES bet of ${aliceStake.owner}) is paid 1.69 BNB, but the rules give it 1.7 BNB: 0.01 BNB too little.`,
    );

    await world.travel(PAYOUT_DELAY);
    await claim(bobStake, list, tree);
    expect((await verify(key)).sentences).toContain(
      `Stake ${bobStake.stakeId} (NO bet of ${bobStake.owner}) was claimed for 0.01 BNB, but it is a losing bet: it should get nothing.`,
    );
  });

  test('a list that leaves a winner out disagrees on the total, the fee and the winner', async () => {
    const { key, aliceStake, carolStake } = await tamperableMarket();
    const list = [{ stakeId: aliceStake.stakeId, amount: bnb('1.7') }];
    await world.settleJudged(key, list);
    const check = await verify(key, list);
    expect(check.status).toBe('differs');
    expect(check.sentences).toEqual([
      expect.stringMatching(/is not the rules' root/),
      'The settlement pays out 1.7 BNB in all, the rules 1.785 BNB: 0.085 BNB too little.',
      'The settlement keeps a fee of 0.1 BNB, the rules 0.015 BNB (the fee 0.015 BNB and rounding dust 0 BNB): 0.085 BNB too much.',
      `Stake ${carolStake.stakeId} (YES bet of ${carolStake.owner}), a winner, is left out: it should get 0.085 BNB.`,
    ]);
  });

  test('a list that overpays the fee disagrees on the fee and the winner it shorts', async () => {
    const { key, aliceStake, carolStake } = await tamperableMarket();
    const list = [
      { stakeId: aliceStake.stakeId, amount: bnb('1.65') },
      { stakeId: carolStake.stakeId, amount: bnb('0.085') },
    ];
    await world.settleJudged(key, list);
    const check = await verify(key, list);
    expect(check.sentences).toContain(
      'The settlement keeps a fee of 0.065 BNB, the rules 0.015 BNB (the fee 0.015 BNB and rounding dust 0 BNB): 0.05 BNB too much.',
    );
    expect(check.sentences).toContain(
      `Stake ${aliceStake.stakeId} (YES bet of ${aliceStake.owner}) is paid 1.65 BNB, but the rules give it 1.7 BNB: 0.05 BNB too little.`,
    );
    // A list other than the one posted names nobody.
    const other = await verify(key, honestList([aliceStake, carolStake], YES));
    expect(other.sentences.at(-1)).toMatch(
      /is not the settlement's 0x[0-9a-f]{64}: it is not the list posted/,
    );
  });
});

describe('disputes', () => {
  /** alice YES 1, bob NO 0.5, dave NO 0.25, settled on `first`, then disputed by `disputer`. */
  async function disputedMarket(first: number, disputer: 'alice' | 'bob') {
    const { key, stakes } = await closedMarket([
      [alice, YES, '1'],
      [bob, NO, '0.5'],
      [dave, NO, '0.25'],
    ]);
    const firstList = honestList(stakes, first);
    await world.settleJudged(key, firstList, { outcome: first });
    expect((await verify(key, firstList)).status).toBe('agrees');
    const [aliceStake, bobStake] = stakes;
    if (!aliceStake || !bobStake) throw new Error('three stakes');
    const { bond } = await world.dispute(disputer === 'alice' ? aliceStake : bobStake);
    // 5 % of the 1.75 BNB of stakes.
    expect(bond.amount).toBe(bnb('0.0875'));
    const sentBack = await verify(key);
    expect(sentBack.status).toBe('none');
    expect(sentBack.sentences[0]).toMatch(/was sent back by a dispute/);
    return { key, stakes: [...stakes, bond], aliceStake, bobStake, bond };
  }

  test('an overturned verdict returns the bond with its reward: honest it agrees, the bond forfeited it does not', async () => {
    const { key, stakes, aliceStake, bond } = await disputedMarket(NO, 'alice');
    const forfeited = honestList(stakes, YES, YES);
    await world.settleJudged(key, forfeited, { outcome: YES });
    const wrong = await verify(key, forfeited);
    expect(wrong.status).toBe('differs');
    expect(wrong.sentences).toContain(
      `Stake ${bond.stakeId} (dispute bond of ${bond.owner}), a bond to be returned, is left out: it should get 0.1025 BNB.`,
    );
    expect(wrong.sentences).toContain(
      `Stake ${aliceStake.stakeId} (YES bet of ${aliceStake.owner}) is paid 1.8225 BNB, but the rules give it 1.735 BNB: 0.0875 BNB too much.`,
    );

    // The operator amends it while pending: the bond back with the whole fee of 0.015 as its reward.
    const returned = honestList(stakes, YES, NO);
    await world.settleJudged(key, returned, { outcome: YES });
    const check = await verify(key, returned);
    expect(check).toMatchObject({ status: 'agrees', expected: { bondFate: 'returned', fee: 0n } });
    expect(check.read.disputes).toBe(1);
  });

  test('a confirmed verdict forfeits the bond to the winners: honest it agrees, the bond returned it does not', async () => {
    const { key, stakes, aliceStake, bond } = await disputedMarket(YES, 'bob');
    const returned = honestList(stakes, YES, NO);
    await world.settleJudged(key, returned, { outcome: YES });
    const wrong = await verify(key, returned);
    expect(wrong.sentences).toContain(
      `Stake ${bond.stakeId} (dispute bond of ${bond.owner}) is paid 0.1025 BNB, but its bond is forfeited (the verdict it disputed was confirmed): it should get nothing.`,
    );
    expect(wrong.sentences).toContain(
      `Stake ${aliceStake.stakeId} (YES bet of ${aliceStake.owner}) is paid 1.735 BNB, but the rules give it 1.8225 BNB: 0.0875 BNB too little.`,
    );

    const forfeited = honestList(stakes, YES, YES);
    await world.settleJudged(key, forfeited, { outcome: YES });
    expect(await verify(key, forfeited)).toMatchObject({
      status: 'agrees',
      expected: { bondFate: 'forfeited', fee: bnb('0.015') },
    });
  });

  test('bonds contesting verdicts of different outcomes cannot be recomputed, and the check says so', async () => {
    // bob disputes YES, the operator answers NO, alice disputes NO: one bond overturned, one confirmed.
    const { key, stakes, aliceStake } = await disputedMarket(YES, 'bob');
    await world.settleJudged(key, honestList(stakes, NO, YES), { outcome: NO });
    const second = await world.dispute(aliceStake);
    const all = [...stakes, second.bond];
    await world.settleJudged(key, honestList(all, NO, YES), { outcome: NO });
    const check = await verify(key);
    expect(check.status).toBe('differs');
    expect(check.sentences).toEqual([
      expect.stringMatching(
        /^The market's bonds contest settlements of different outcomes \(bond \d+ sent back outcome 1 at block \d+, bond \d+ sent back outcome 2 at block \d+\): the rules give every bond of a market one fate/,
      ),
    ]);
  });
});

test('a stake refunded by refundStake before the settlement is not in the list', async () => {
  const { key, stakes } = await closedMarket([
    [alice, YES, '1'],
    [bob, NO, '0.5'],
    [erin, NO, '0.2'],
  ]);
  const [aliceStake, bobStake, erinStake] = stakes;
  if (!aliceStake || !bobStake || !erinStake) throw new Error('three stakes');
  await world.mined(world.as(OPERATOR).write.refundStake([erinStake]));
  const list = honestList([aliceStake, bobStake], YES);
  await world.settleJudged(key, list);
  const check = await verify(key, list);
  expect(check).toMatchObject({ status: 'agrees', read: { deposits: 3, refunds: 1 } });
  expect(check.expected?.stakes.map((stake) => stake.stakeId)).toEqual([
    aliceStake.stakeId,
    bobStake.stakeId,
  ]);

  // Paying the refunded stake again, out of the winner's share, is named.
  const twice = [
    { stakeId: aliceStake.stakeId, amount: bnb('1.29') },
    { stakeId: erinStake.stakeId, amount: bnb('0.2') },
  ];
  await world.settleJudged(key, twice);
  expect((await verify(key, twice)).sentences).toContain(
    `Stake ${erinStake.stakeId} is paid 0.2 BNB, but it was refunded before the settlement: it is not in the pool.`,
  );
});

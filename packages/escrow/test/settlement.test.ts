import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { getAddress, keccak256, type PublicClient, parseEther, parseEventLogs, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as constants from '../src/escrow-constants.ts';
import { readMarketEvents } from '../src/escrow-events.ts';
import {
  claimFor,
  claimsFor,
  type PayoutList,
  type PayoutListDocument,
  parsePayoutList,
  toPayoutList,
} from '../src/payout-list.ts';
import { buildPayoutTree, type Payout } from '../src/payout-tree.ts';
import { predictionEscrowAbi } from '../src/prediction-escrow.gen.ts';
import { buildSettlement, settleArgs } from '../src/settlement.ts';
import { verifySettlement } from '../src/verify-settlement.ts';
import { devAccount } from './chain-clients.ts';
import {
  BETTORS,
  createEscrowWorld,
  type EscrowWorld,
  expectRevert,
  GUARDIAN,
  HOUR,
  OPERATOR,
  type StakeRef,
  TREASURY,
} from './escrow-fixture.ts';

// The settlement library against the contract on a Hardhat node: what buildSettlement computes the
// contract takes, the published list pays every claim, and verifySettlement finds every lie in a list.

let world: EscrowWorld;
beforeAll(async () => {
  world = await createEscrowWorld();
});
afterAll(() => world?.stop());

const [alice, bob, carol, dave] = BETTORS;
/** A relayer: claims cost it gas, never the winner. */
const relayer = BETTORS[8];
const DELAY = 600;

type Bet = { bettor: number; amount: bigint; side: 1 | 2 };
type Stake = StakeRef & { side: number; bettor: number };

/** Deposits `bets` into a fresh market and lets it close. */
async function closedMarket(name: string, bets: Bet[]) {
  const market = await world.openMarket(name);
  const stakes: Stake[] = [];
  for (const bet of bets) {
    stakes.push({ ...(await world.deposit(bet.bettor, market, bet.amount, bet.side)), ...bet });
  }
  await world.travel(HOUR);
  return { market, stakes };
}

/** Parimutuel payouts: the winners share the pool less the fee, pro rata, rounded down. */
function parimutuel(stakes: Stake[], pool: bigint, fee: bigint, side: number): Payout[] {
  const winners = stakes.filter((stake) => stake.side === side);
  const winning = winners.reduce((sum, stake) => sum + stake.amount, 0n);
  return winners.map((stake) => ({
    stakeId: stake.stakeId,
    amount: ((pool - fee) * stake.amount) / winning,
  }));
}

/** A market settled by the library as the server will: its list built, posted and published. */
async function settledMarket(name: string, bets: Bet[], { side = 1, feeBps = 100n } = {}) {
  const { market, stakes } = await closedMarket(name, bets);
  const [pool] = await world.read.markets([market.key]);
  const fee = (pool * feeBps) / 10_000n;
  const settlement = buildSettlement({ pool, payouts: parimutuel(stakes, pool, fee, side), fee });
  const verdictHash = keccak256(toHex(`verdict of ${name}`));
  const receipt = await world.mined(
    world
      .as(OPERATOR)
      .write.settle(
        settleArgs(settlement, { marketKey: market.key, outcome: side, verdictHash, delay: DELAY }),
      ),
  );
  const document = toPayoutList({
    chainId: await world.publicClient.getChainId(),
    escrow: world.address,
    market,
    outcome: side,
    verdictHash,
    settlement,
    stakes,
  });
  return { market, stakes, pool, settlement, document, receipt, read: () => readList(document) };
}

/** The list as a downloader reads it: the JSON text, parsed. */
const readList = (document: PayoutListDocument) => parsePayoutList(JSON.stringify(document));

const verify = (list: PayoutList) => verifySettlement(world.publicClient, world.address, list);

const openClaims = () => world.travel(DELAY);

describe('the contract mirror', () => {
  test('every constant of escrow-constants.ts is the deployed contract’s', async () => {
    const onChain = {
      MAX_FEE_BPS: await world.read.MAX_FEE_BPS(),
      ESCAPE_DELAY: await world.read.ESCAPE_DELAY(),
      MAX_BETTING_PERIOD: await world.read.MAX_BETTING_PERIOD(),
      PAYOUT_GAS_CAP: await world.read.PAYOUT_GAS_CAP(),
      MIN_PAYOUT_DELAY: await world.read.MIN_PAYOUT_DELAY(),
      MAX_PAYOUT_DELAY: await world.read.MAX_PAYOUT_DELAY(),
      MIN_SETTLEMENT_CAPACITY: await world.read.MIN_SETTLEMENT_CAPACITY(),
      MAX_SETTLEMENT_CAPACITY: await world.read.MAX_SETTLEMENT_CAPACITY(),
      MAX_DISPUTES: await world.read.MAX_DISPUTES(),
      MIN_DISPUTE_BOND_MIN: await world.read.MIN_DISPUTE_BOND_MIN(),
      MAX_DISPUTE_BOND_MIN: await world.read.MAX_DISPUTE_BOND_MIN(),
      MAX_DISPUTE_BOND_BPS: await world.read.MAX_DISPUTE_BOND_BPS(),
    };
    const { BPS, maxFee, ...mirrored } = constants;
    expect(mirrored).toEqual(onChain);
    expect(BPS).toBe(10_000n);
  });
});

describe('settle, claim, verify', () => {
  test('a settlement built by the library is taken, every claim from the list pays, and the list verifies', async () => {
    const { market, stakes, pool, settlement, receipt, read } = await settledMarket('happy path', [
      { bettor: alice, amount: parseEther('1'), side: 1 },
      { bettor: bob, amount: parseEther('2.5'), side: 1 },
      { bettor: carol, amount: parseEther('3'), side: 2 },
      { bettor: alice, amount: parseEther('0.7'), side: 1 },
    ]);
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Settled' });
    expect(event?.args).toMatchObject({
      market: market.key,
      payoutRoot: settlement.root,
      payoutTotal: settlement.payoutTotal,
      fee: settlement.fee,
    });
    expect(settlement.payoutTotal + settlement.fee).toBe(pool);

    // Before any claim the list already verifies.
    const list = read();
    expect(await verify(list)).toMatchObject({ ok: true, discrepancies: [] });

    await openClaims();
    const paidTo = new Map<string, bigint>();
    for (const leaf of list.leaves) {
      const before = await world.publicClient.getBalance({ address: leaf.owner });
      await world.mined(world.as(relayer).write.claim([claimFor(list, leaf.stakeId)]));
      const gained = (await world.publicClient.getBalance({ address: leaf.owner })) - before;
      expect(gained).toBe(leaf.payout);
      paidTo.set(leaf.owner, (paidTo.get(leaf.owner) ?? 0n) + gained);
    }
    expect([...paidTo.values()].reduce((sum, paid) => sum + paid, 0n)).toBe(settlement.payoutTotal);
    const { payoutTotal, paid } = await world.market(market.key);
    expect(paid).toBe(payoutTotal);

    const report = await verify(list);
    expect(report.discrepancies).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checked).toMatchObject({
      deposits: stakes.length,
      claims: 3,
      claimed: settlement.payoutTotal,
    });
  });

  test('a wallet builds its own claim from the downloaded list and the contract pays it', async () => {
    const { document } = await settledMarket(
      'own claim',
      [
        { bettor: dave, amount: parseEther('1'), side: 2 },
        { bettor: carol, amount: parseEther('1'), side: 1 },
      ],
      { side: 2 },
    );
    await openClaims();
    // The wallet has only the file: its text, parsed, names its stake, its payout and the proof.
    const list = parsePayoutList(JSON.stringify(document, null, 2));
    const mine = list.leaves.find((leaf) => leaf.owner === devAccount(dave).address);
    if (!mine) throw new Error('dave is not in the list');
    const receipt = await world.mined(world.as(dave).write.claim([claimFor(list, mine.stakeId)]));
    const [claimed] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Claimed' });
    expect(claimed?.args).toMatchObject({ stakeId: mine.stakeId, owner: mine.owner, amount: mine.payout });
    // Once only: the same claim again is refused before any transfer.
    await expectRevert(world.as(relayer).write.claim([claimFor(list, mine.stakeId)]), 'StakeMismatch');
    expect((await verify(list)).ok).toBe(true);
  });

  test('the rounding dust goes to the fee, and the treasury collects exactly that fee', async () => {
    // Three winners of 1 ether + 1 wei each: a pool no split divides evenly.
    const odd = parseEther('1') + 1n;
    const { market, settlement, read } = await settledMarket(
      'dust',
      [
        { bettor: alice, amount: odd, side: 1 },
        { bettor: bob, amount: odd, side: 1 },
        { bettor: carol, amount: odd + 3n, side: 1 },
        { bettor: dave, amount: parseEther('1') / 3n, side: 2 },
      ],
      { feeBps: 77n },
    );
    expect(settlement.dust).toBeGreaterThan(0n);
    const [pool] = await world.read.markets([market.key]);
    expect(settlement.fee).toBe((pool * 77n) / 10_000n + settlement.dust);
    await openClaims();
    const treasury = devAccount(TREASURY).address;
    const before = await world.publicClient.getBalance({ address: treasury });
    await world.mined(world.as(relayer).write.collectFee([market.key]));
    expect((await world.publicClient.getBalance({ address: treasury })) - before).toBe(settlement.fee);
    const list = read();
    await world.mined(
      world.as(relayer).write.claimMany([
        claimsFor(
          list,
          list.leaves.map((leaf) => leaf.stakeId),
        ),
      ]),
    );
    expect((await verify(list)).ok).toBe(true);
  });

  test('the fee cap is the contract’s: what the library refuses, the contract refuses too', async () => {
    const { market, stakes } = await closedMarket('greedy fee', [
      { bettor: alice, amount: parseEther('1'), side: 1 },
      { bettor: bob, amount: parseEther('1'), side: 2 },
    ]);
    const [pool] = await world.read.markets([market.key]);
    const cap = constants.maxFee(pool);
    const winner = stakes[0]?.stakeId ?? 0n;
    // One wei over the cap (as fee or as dust): the library refuses it, and so does the contract.
    expect(() =>
      buildSettlement({ pool, payouts: [{ stakeId: winner, amount: pool - cap - 1n }], fee: 0n }),
    ).toThrow(/above the contract's cap of 10 %/);
    const tree = buildPayoutTree([{ stakeId: winner, amount: pool - cap - 1n }]);
    const verdictHash = keccak256(toHex('greedy'));
    await expectRevert(
      world.as(OPERATOR).write.settle([market.key, 1, verdictHash, tree.root, tree.total, cap + 1n, DELAY]),
      'FeeTooHigh',
    );
    // At the cap: the library builds it and the contract takes it.
    const settlement = buildSettlement({
      pool,
      payouts: [{ stakeId: winner, amount: pool - cap }],
      fee: cap,
    });
    expect(settlement.fee).toBe(cap);
    await world.mined(
      world
        .as(OPERATOR)
        .write.settle(
          settleArgs(settlement, { marketKey: market.key, outcome: 1, verdictHash, delay: DELAY }),
        ),
    );
  });
});

describe('verifySettlement finds every lie in a list', () => {
  let audited: Awaited<ReturnType<typeof settledMarket>>;
  /** A stake of another market, settled too. */
  let foreign: Stake;
  /** Stakes of `audited` claimed before the checks, and the one left unclaimed. */
  let claimed: Stake[];
  let unclaimed: Stake;

  beforeAll(async () => {
    audited = await settledMarket('audited', [
      { bettor: alice, amount: parseEther('1'), side: 1 },
      { bettor: bob, amount: parseEther('2'), side: 1 },
      { bettor: carol, amount: parseEther('1.5'), side: 2 },
      { bettor: dave, amount: parseEther('0.5'), side: 1 },
    ]);
    const other = await settledMarket('elsewhere', [
      { bettor: dave, amount: parseEther('0.5'), side: 1 },
      { bettor: carol, amount: parseEther('0.5'), side: 2 },
    ]);
    foreign = other.stakes[0] as Stake;
    await openClaims();
    const list = audited.read();
    claimed = audited.stakes.filter((stake) => stake.bettor !== dave && stake.side === 1);
    unclaimed = audited.stakes.find((stake) => stake.bettor === dave) as Stake;
    await world.mined(
      world.as(relayer).write.claimMany([
        claimsFor(
          list,
          claimed.map((stake) => stake.stakeId),
        ),
      ]),
    );
    expect((await verify(list)).ok).toBe(true);
  });

  /** The published list with one change, as a reader would parse it. */
  async function tampered(change: (list: PayoutList) => void) {
    const list = audited.read();
    change(list);
    const report = await verify(list);
    expect(report.ok).toBe(false);
    return report.discrepancies;
  }

  /** A list rebuilt whole from other payouts: it holds together, so only the chain can catch it. */
  async function forged(payouts: Payout[], stakes: Stake[] = audited.stakes) {
    const settlement = buildSettlement({ pool: audited.pool, payouts, fee: audited.settlement.fee });
    const list = readList(
      toPayoutList({
        chainId: 31337,
        escrow: world.address,
        market: audited.market,
        outcome: 1,
        verdictHash: keccak256(toHex('verdict of audited')),
        settlement,
        // A forger writes whatever stakes it likes: no market to check them against.
        stakes: stakes.map(({ stakeId, owner, amount }) => ({ stakeId, owner, amount })),
      }),
    );
    const report = await verify(list);
    expect(report.ok).toBe(false);
    return { list, discrepancies: report.discrepancies };
  }

  const leafOf = (list: PayoutList, stake: Stake) => {
    const leaf = list.leaves.find((candidate) => candidate.stakeId === stake.stakeId);
    if (!leaf) throw new Error(`stake ${stake.stakeId} not listed`);
    return leaf;
  };
  const settledAt = () => `The chain's settlement (block ${audited.receipt.blockNumber})`;
  const listed = () => audited.read();

  test('a payout changed: the root, the total and the claim made give it away', async () => {
    const stake = claimed[0] as Stake;
    const payout = leafOf(listed(), stake).payout;
    const discrepancies = await tampered((list) => {
      leafOf(list, stake).payout = payout + 1n;
    });
    const { payoutTotal, root } = listed();
    expect(discrepancies).toContain(
      `The leaves pay ${payoutTotal + 1n} wei in all, but the list's payoutTotal is ${payoutTotal} wei.`,
    );
    expect(
      discrepancies.find((sentence) => sentence.startsWith('The root recomputed from the leaves')),
    ).toMatch(new RegExp(`is not the list's root \\(${root}\\)\\.$`));
    expect(discrepancies).toContain(
      `Stake ${stake.stakeId} was paid ${payout} wei at block ${await claimBlock(stake)}, the list says ${payout + 1n} wei.`,
    );
  });

  test('a stake’s deposit changed: only the chain knows it', async () => {
    const discrepancies = await tampered((list) => {
      leafOf(list, unclaimed).amount += 1n;
    });
    expect(discrepancies).toEqual([
      `Stake ${unclaimed.stakeId} deposited ${unclaimed.amount} wei, the list says ${unclaimed.amount + 1n} wei.`,
    ]);
  });

  test('a leaf added or removed', async () => {
    const loser = audited.stakes.find((stake) => stake.side === 2) as Stake;
    const added = await tampered((list) => {
      list.leaves.push({
        stakeId: loser.stakeId,
        owner: loser.owner,
        amount: loser.amount,
        payout: 1000n,
        proof: [],
      });
    });
    expect(added).toContain(
      `OpenZeppelin's tree dump does not hold the list's leaves; not in the dump: stake ${loser.stakeId} paid 1000 wei.`,
    );
    expect(added.some((sentence) => sentence.startsWith('The leaves pay'))).toBe(true);

    const removedUnclaimed = await tampered((list) => {
      list.leaves = list.leaves.filter((leaf) => leaf.stakeId !== unclaimed.stakeId);
    });
    const unclaimedPayout = leafOf(listed(), unclaimed).payout;
    expect(removedUnclaimed).toContain(
      `OpenZeppelin's tree dump does not hold the list's leaves; only in the dump: stake ${unclaimed.stakeId} paid ${unclaimedPayout} wei.`,
    );

    const gone = claimed[1] as Stake;
    const removedClaimed = await tampered((list) => {
      list.leaves = list.leaves.filter((leaf) => leaf.stakeId !== gone.stakeId);
    });
    expect(removedClaimed).toContain(
      `Stake ${gone.stakeId} was paid ${leafOf(listed(), gone).payout} wei at block ${await claimBlock(gone)} but is not in the list.`,
    );
  });

  test('another market’s stake in the list', async () => {
    const payouts = listed().leaves.map((leaf) => ({
      stakeId: leaf.stakeId === unclaimed.stakeId ? foreign.stakeId : leaf.stakeId,
      amount: leaf.payout,
    }));
    const { discrepancies } = await forged(payouts, [...audited.stakes, foreign]);
    expect(discrepancies).toContain(
      `Stake ${foreign.stakeId} was not deposited into market ${audited.market.key}.`,
    );
    expect(discrepancies.some((sentence) => sentence.startsWith(`${settledAt()} has root`))).toBe(true);
  });

  test('a root that is not the chain’s: the same stakes split otherwise', async () => {
    const payouts = listed().leaves.map((leaf) => ({ stakeId: leaf.stakeId, amount: leaf.payout }));
    const [first, second] = payouts as [Payout, Payout];
    first.amount += 5n;
    second.amount -= 5n;
    const { list, discrepancies } = await forged(payouts);
    expect(discrepancies).toContain(
      `${settledAt()} has root ${audited.settlement.root}, the list says ${list.root}.`,
    );
  });

  test('a wrong fee, outcome, verdict or owner', async () => {
    const { fee, payoutTotal } = listed();
    const feeChanged = await tampered((list) => {
      list.fee += 1n;
    });
    expect(feeChanged).toContain(`${settledAt()} keeps a fee of ${fee} wei, the list says ${fee + 1n} wei.`);
    expect(feeChanged).toContain(
      `The market holds ${audited.pool} wei (deposits ${audited.pool} less refunds 0), but the list's payoutTotal + fee is ${payoutTotal + fee + 1n} wei.`,
    );

    const outcome = await tampered((list) => {
      list.outcome = 2;
    });
    expect(outcome).toEqual([`${settledAt()} has outcome 1, the list says 2.`]);

    const otherVerdict = keccak256(toHex('another verdict'));
    const verdict = await tampered((list) => {
      list.verdictHash = otherVerdict;
    });
    expect(verdict).toEqual([
      `${settledAt()} has verdict hash ${keccak256(toHex('verdict of audited'))}, the list says ${otherVerdict}.`,
    ]);

    const stake = claimed[0] as Stake;
    const thief = devAccount(relayer).address;
    const owner = await tampered((list) => {
      leafOf(list, stake).owner = thief;
    });
    expect(owner).toEqual([
      `Stake ${stake.stakeId} was deposited by ${stake.owner}, the list says ${thief}.`,
      `Stake ${stake.stakeId} was paid to ${stake.owner}, the list's owner is ${thief}.`,
    ]);
  });

  test('another chain or another escrow', async () => {
    const chain = await tampered((list) => {
      list.chainId = 56;
    });
    expect(chain).toEqual([
      'The list is for chain 56, but the RPC serves chain 31337: the chain was not checked.',
    ]);

    const elsewhere = devAccount(TREASURY).address;
    const report = await verifySettlement(world.publicClient, elsewhere, listed());
    expect(report.discrepancies).toContain(
      `The list names escrow ${getAddress(world.address)}, but the escrow checked is ${elsewhere}.`,
    );
    expect(
      report.discrepancies.some((sentence) => sentence.startsWith('The escrow has no Settled event')),
    ).toBe(true);
  });

  async function claimBlock(stake: Stake): Promise<bigint> {
    const events = await readMarketEvents(world.publicClient, {
      escrow: world.address,
      marketKey: audited.market.key,
      fromBlock: 0n,
      toBlock: await world.publicClient.getBlockNumber(),
    });
    const claim = events.claims.find((event) => event.stakeId === stake.stakeId);
    if (!claim) throw new Error(`stake ${stake.stakeId} was not claimed`);
    return claim.blockNumber;
  }
});

describe('a settlement no longer in force, and refunds', () => {
  test('a vetoed or voided settlement: its list pays nothing', async () => {
    const bets: Bet[] = [
      { bettor: alice, amount: parseEther('1'), side: 1 },
      { bettor: bob, amount: parseEther('1'), side: 2 },
    ];
    const vetoed = await settledMarket('vetoed', bets);
    const veto = await world.mined(world.as(GUARDIAN).write.veto([vetoed.market.key]));
    expect((await verify(vetoed.read())).discrepancies).toEqual([
      `The guardian vetoed the settlement at block ${veto.blockNumber}: the list pays nothing, every stake is refunded.`,
    ]);

    const voided = await settledMarket('voided', bets);
    const voiding = await world.mined(
      world.as(OPERATOR).write.settleAsRefund([voided.market.key, 3, keccak256(toHex('void'))]),
    );
    expect((await verify(voided.read())).discrepancies).toEqual([
      `The operator voided the settlement at block ${voiding.blockNumber}: the list pays nothing, every stake is refunded.`,
    ]);
  });

  test('a disputed settlement: its list pays nothing, and the list posted after it, the bond a leaf, verifies', async () => {
    const { market, stakes, read } = await settledMarket('disputed', [
      { bettor: alice, amount: parseEther('1'), side: 1 },
      { bettor: bob, amount: parseEther('1'), side: 2 },
    ]);
    const { stake: bond, receipt } = await world.dispute(
      carol,
      market,
      await world.read.disputeBond([market.key]),
    );
    expect((await verify(read())).discrepancies).toEqual([
      `Stake ${bond.stakeId} disputed the settlement at block ${receipt.blockNumber}: the list pays nothing until the market is settled again.`,
    ]);

    // Overturned in review: NO wins, and the bond comes back in full.
    const { pool } = await world.market(market.key);
    const [, no] = stakes as [Stake, Stake];
    const settlement = buildSettlement({
      pool,
      payouts: [
        { stakeId: no.stakeId, amount: pool - bond.amount },
        { stakeId: bond.stakeId, amount: bond.amount },
      ],
      fee: 0n,
    });
    const verdictHash = keccak256(toHex('verdict of disputed, reviewed'));
    await world.mined(
      world
        .as(OPERATOR)
        .write.settle(
          settleArgs(settlement, { marketKey: market.key, outcome: 2, verdictHash, delay: DELAY }),
        ),
    );
    const list = readList(
      toPayoutList({
        chainId: await world.publicClient.getChainId(),
        escrow: world.address,
        market,
        outcome: 2,
        verdictHash,
        settlement,
        stakes: [...stakes, bond],
      }),
    );
    expect(await verify(list)).toMatchObject({ ok: true, discrepancies: [] });
    await openClaims();
    await world.mined(world.as(relayer).write.claim([claimFor(list, bond.stakeId)]));
    expect((await verify(list)).ok).toBe(true);
  });

  test('a stake refunded before the settlement leaves the pool, and no list may pay it', async () => {
    const { market, stakes } = await closedMarket('refused deposit', [
      { bettor: alice, amount: parseEther('1'), side: 1 },
      { bettor: bob, amount: parseEther('2'), side: 1 },
      { bettor: carol, amount: parseEther('1'), side: 2 },
    ]);
    const [refused, ...kept] = stakes as [Stake, ...Stake[]];
    const refund = await world.mined(world.as(OPERATOR).write.refundStake([refused]));
    const [pool] = await world.read.markets([market.key]);
    expect(pool).toBe(parseEther('3'));
    const verdictHash = keccak256(toHex('verdict'));
    const post = async (payouts: Payout[], fee: bigint) => {
      const settlement = buildSettlement({ pool, payouts, fee });
      await world.mined(
        world
          .as(OPERATOR)
          .write.settle(
            settleArgs(settlement, { marketKey: market.key, outcome: 1, verdictHash, delay: DELAY }),
          ),
      );
      const chainId = 31337;
      return readList(
        toPayoutList({ chainId, escrow: world.address, market, outcome: 1, verdictHash, settlement, stakes }),
      );
    };
    // An honest list: the pool is the deposits less the refund.
    expect((await verify(await post(parimutuel(kept, pool, 0n, 1), 0n))).ok).toBe(true);
    // An amended list that pays the refunded stake (and fits the pool): refused by the check.
    const list = await post(
      [
        { stakeId: refused.stakeId, amount: parseEther('1') },
        { stakeId: (kept[0] as Stake).stakeId, amount: parseEther('2') },
      ],
      0n,
    );
    expect((await verify(list)).discrepancies).toEqual([
      `Stake ${refused.stakeId} was refunded at block ${refund.blockNumber}: the list cannot pay it.`,
    ]);
  });
});

describe('readMarketEvents', () => {
  test('one market’s events in chain order, credits of its failed pushes included, nothing of another market', async () => {
    // A winner whose account refuses BNB when it is paid (code set on it after it bet): its payout
    // becomes a credit.
    const refuser = BETTORS[9];
    const refuserAddress = devAccount(refuser).address;
    const { market, stakes, read } = await settledMarket('events', [
      { bettor: refuser, amount: parseEther('1'), side: 1 },
      { bettor: alice, amount: parseEther('1'), side: 1 },
      { bettor: bob, amount: parseEther('1'), side: 2 },
    ]);
    await settledMarket('events elsewhere', [{ bettor: alice, amount: parseEther('1'), side: 1 }], {
      feeBps: 0n,
    });
    await openClaims();
    const list = read();
    await world.testClient.setCode({ address: refuserAddress, bytecode: '0x5f5ffd' });
    try {
      await world.mined(
        world.as(relayer).write.claimMany([
          claimsFor(
            list,
            list.leaves.map((leaf) => leaf.stakeId),
          ),
        ]),
      );
    } finally {
      await world.testClient.setCode({ address: refuserAddress, bytecode: '0x' });
    }
    await world.mined(world.as(refuser).write.withdraw([refuserAddress]));

    const query = {
      escrow: world.address,
      marketKey: market.key,
      fromBlock: 0n,
      toBlock: await world.publicClient.getBlockNumber(),
    };
    const events = await readMarketEvents(world.publicClient, query);
    expect(events.deposits.map((deposit) => deposit.stakeId)).toEqual(stakes.map((stake) => stake.stakeId));
    expect(events.deposits.every((deposit) => deposit.market === market.key)).toBe(true);
    expect(events.settlements).toHaveLength(1);
    expect(events.settlements[0]).toMatchObject({ market: market.key, payoutRoot: list.root, fee: list.fee });
    expect(events.claims.map((claim) => [claim.stakeId, claim.amount])).toEqual(
      list.leaves.map((leaf) => [leaf.stakeId, leaf.payout]),
    );
    const refuserLeaf = list.leaves.find((leaf) => leaf.owner === refuserAddress);
    expect(events.credits).toEqual([
      expect.objectContaining({
        owner: refuserAddress,
        stakeId: refuserLeaf?.stakeId,
        amount: refuserLeaf?.payout,
      }),
    ]);
    expect(events.voids).toEqual([]);
    expect(events.vetoes).toEqual([]);
    expect(events.disputes).toEqual([]);
    expect(events.refunds).toEqual([]);

    // In ranges of 3 blocks (an RPC's cap): the same events.
    expect(await readMarketEvents(world.publicClient, { ...query, maxBlockRange: 3n })).toEqual(events);

    // A log a reorg removed (an RPC may still return it, flagged) is not an event.
    const reorging = {
      ...world.publicClient,
      getLogs: async (parameters: Parameters<PublicClient['getLogs']>[0]) => {
        const logs = await world.publicClient.getLogs(parameters);
        return logs.map((log, index) => (index === 0 ? { ...log, removed: true } : log));
      },
    } as PublicClient;
    const afterReorg = await readMarketEvents(reorging, query);
    expect(afterReorg.deposits).toEqual(events.deposits.slice(1));
    expect(afterReorg.claims).toEqual(events.claims.slice(1));
  });
});

describe('the verify-settlement command', () => {
  const script = fileURLToPath(new URL('../scripts/verify-settlement.ts', import.meta.url));
  const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

  async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [tsx, script, ...args]);
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  test('prints the report and exits 0 when the list matches the chain, 1 on a discrepancy, 2 when it cannot check', async () => {
    const { document } = await settledMarket('cli', [
      { bettor: alice, amount: parseEther('1'), side: 1 },
      { bettor: bob, amount: parseEther('1'), side: 2 },
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'verify-settlement-'));
    try {
      const good = join(dir, 'list.json');
      await writeFile(good, JSON.stringify(document, null, 2));
      const bad = join(dir, 'bad.json');
      await writeFile(bad, JSON.stringify({ ...document, outcome: 2 }));
      const rpc = ['--rpc', world.node.rpcUrl, '--escrow', world.address];

      // Three runs at once: each starts its own tsx.
      const [passed, failed, unreadable] = await Promise.all([
        run([...rpc, good]),
        run([...rpc, '--max-block-range', '50', bad]),
        run([...rpc, join(dir, 'missing.json')]),
      ]);
      expect(passed.stdout).toContain('✔ The payout list matches the chain.');
      expect(passed.code).toBe(0);
      expect(failed.stdout).toContain('✘ 1 discrepancy:');
      expect(failed.stdout).toMatch(/has outcome 1, the list says 2\./);
      expect(failed.code).toBe(1);
      expect(unreadable.stderr).toMatch(/^Could not verify/);
      expect(unreadable.code).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000); // tsx starts in seconds alone, much slower on a shared machine
});

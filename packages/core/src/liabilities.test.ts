import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeBondedMarketPayouts } from './flag-bonds.ts';
import {
  flagBondOwes,
  LIABILITY_PARTS,
  type LiabilityParts,
  liabilitiesOf,
  marketBetOwes,
  noLiabilities,
  type Owed,
  paymentOwes,
  payoutOwes,
  reserveRatioBps,
  reservesReport,
  roundBetOwes,
  sumLiabilities,
  vaultTransferOwes,
} from './liabilities.ts';
import { parseBnb } from './money.ts';
import { computeRoundPayouts } from './payouts.ts';

const bnb = parseBnb;

describe('the row rules', () => {
  test('a market bet owes its stake until the market settles, in review too', () => {
    for (const marketStatus of ['active', 'settling'] as const) {
      expect(
        marketBetOwes({
          marketStatus,
          status: 'pending',
          amountWei: bnb('0.2'),
          payoutAmountWei: null,
          inPayout: false,
        }),
      ).toEqual({ part: 'openMarketStakesWei', wei: bnb('0.2') });
    }
  });

  test('a settled market bet owes its return when won or refunded, nothing when lost, claimed or in a payout', () => {
    const settled = { marketStatus: 'settled', amountWei: bnb('1'), inPayout: false } as const;
    expect(marketBetOwes({ ...settled, status: 'won', payoutAmountWei: bnb('1.5') })).toEqual({
      part: 'unclaimedMarketWei',
      wei: bnb('1.5'),
    });
    expect(marketBetOwes({ ...settled, status: 'refunded', payoutAmountWei: bnb('1') })).toEqual({
      part: 'unclaimedMarketWei',
      wei: bnb('1'),
    });
    expect(marketBetOwes({ ...settled, status: 'lost', payoutAmountWei: 0n })).toBeNull();
    expect(marketBetOwes({ ...settled, status: 'claimed', payoutAmountWei: bnb('1.5') })).toBeNull();
    expect(
      marketBetOwes({ ...settled, status: 'won', payoutAmountWei: bnb('1.5'), inPayout: true }),
    ).toBeNull();
  });

  test('a round bet owes its stake while the round runs, then its return until paid', () => {
    const bet = { amountWei: bnb('0.1'), claimed: false, inPayout: false };
    for (const roundStatus of ['upcoming', 'live', 'locked'] as const) {
      expect(roundBetOwes({ ...bet, roundStatus, payoutAmountWei: null })).toEqual({
        part: 'openRoundStakesWei',
        wei: bnb('0.1'),
      });
    }
    expect(roundBetOwes({ ...bet, roundStatus: 'ended', payoutAmountWei: bnb('0.25') })).toEqual({
      part: 'unclaimedRoundWei',
      wei: bnb('0.25'),
    });
    expect(roundBetOwes({ ...bet, roundStatus: 'ended', payoutAmountWei: 0n })).toBeNull();
    expect(
      roundBetOwes({ ...bet, roundStatus: 'ended', payoutAmountWei: bnb('0.25'), claimed: true }),
    ).toBeNull();
    expect(
      roundBetOwes({ ...bet, roundStatus: 'ended', payoutAmountWei: bnb('0.25'), inPayout: true }),
    ).toBeNull();
  });

  test('a round bet on the escrow contract owes the vault nothing, running or ended (decision 026)', () => {
    const bet = { amountWei: bnb('0.1'), claimed: false, inPayout: false, onEscrow: true };
    expect(roundBetOwes({ ...bet, roundStatus: 'live', payoutAmountWei: null })).toBeNull();
    expect(roundBetOwes({ ...bet, roundStatus: 'ended', payoutAmountWei: bnb('0.25') })).toBeNull();
  });

  test('a market bet on the escrow contract owes the vault nothing, open or settled (decision 026)', () => {
    const bet = { amountWei: bnb('0.1'), inPayout: false, onEscrow: true };
    expect(
      marketBetOwes({ ...bet, marketStatus: 'active', status: 'pending', payoutAmountWei: null }),
    ).toBeNull();
    expect(
      marketBetOwes({ ...bet, marketStatus: 'settled', status: 'won', payoutAmountWei: bnb('0.25') }),
    ).toBeNull();
  });

  test('a refund owed is its refund_amount when set (a returned bond with its reward), else the amount', () => {
    const payment = { amountWei: bnb('0.01'), refundAmountWei: null, inPayout: false };
    expect(paymentOwes({ ...payment, status: 'refund_due' })).toEqual({
      part: 'refundsOwedWei',
      wei: bnb('0.01'),
    });
    expect(paymentOwes({ ...payment, status: 'refund_held', refundAmountWei: bnb('0.012') })).toEqual({
      part: 'refundsOwedWei',
      wei: bnb('0.012'),
    });
    expect(paymentOwes({ ...payment, status: 'recorded' })).toBeNull();
    expect(paymentOwes({ ...payment, status: 'refunded' })).toBeNull();
    expect(paymentOwes({ ...payment, status: 'refund_due', inPayout: true })).toBeNull();
  });

  test('a held bond owes its amount; a settled one owes through its refund or the winners', () => {
    expect(flagBondOwes({ bondStatus: 'held', bondAmountWei: bnb('0.01') })).toEqual({
      part: 'flagBondsHeldWei',
      wei: bnb('0.01'),
    });
    for (const bondStatus of ['returned', 'forfeited', 'returned_void', null] as const) {
      expect(flagBondOwes({ bondStatus, bondAmountWei: bnb('0.01') })).toBeNull();
    }
    // Decision 026: a bond that is a dispute deposit is held by the escrow, not owed by the vault.
    expect(flagBondOwes({ bondStatus: 'held', bondAmountWei: bnb('0.01'), onEscrow: true })).toBeNull();
  });

  test('a payout owes its amount until confirmed; a failed one owes nothing (its items are released)', () => {
    for (const status of ['created', 'signed', 'broadcast'] as const) {
      expect(payoutOwes({ status, amountWei: bnb('2') })).toEqual({
        part: 'payoutsQueuedWei',
        wei: bnb('2'),
      });
    }
    expect(payoutOwes({ status: 'confirmed', amountWei: bnb('2') })).toBeNull();
    expect(payoutOwes({ status: 'failed', amountWei: bnb('2') })).toBeNull();
  });

  test('a transfer seen on chain owes its amount until it is recorded or settled', () => {
    expect(vaultTransferOwes({ resolved: false, recorded: false, amountWei: bnb('0.3') })).toEqual({
      part: 'unrecordedTransfersWei',
      wei: bnb('0.3'),
    });
    expect(vaultTransferOwes({ resolved: false, recorded: true, amountWei: bnb('0.3') })).toBeNull();
    expect(vaultTransferOwes({ resolved: true, recorded: false, amountWei: bnb('0.3') })).toBeNull();
  });
});

describe('the total and the ratio', () => {
  test('the total is the sum of the parts, and a negative part throws', () => {
    const parts: LiabilityParts = { ...noLiabilities(), openMarketStakesWei: 5n, payoutsQueuedWei: 7n };
    expect(liabilitiesOf(parts)).toEqual({ parts, totalWei: 12n });
    expect(() => liabilitiesOf({ ...parts, refundsOwedWei: -1n })).toThrow(RangeError);
  });

  test('debts add up by part', () => {
    const debts: Array<Owed | null> = [
      { part: 'refundsOwedWei', wei: 3n },
      null,
      { part: 'refundsOwedWei', wei: 4n },
      { part: 'flagBondsHeldWei', wei: 1n },
    ];
    expect(sumLiabilities(debts)).toEqual({
      parts: { ...noLiabilities(), refundsOwedWei: 7n, flagBondsHeldWei: 1n },
      totalWei: 8n,
    });
  });

  test('the ratio is floor(balance × 10000 / owed), null when nothing is owed', () => {
    expect(reserveRatioBps(bnb('1'), bnb('1'))).toBe(10_000n);
    expect(reserveRatioBps(bnb('1') - 1n, bnb('1'))).toBe(9_999n);
    expect(reserveRatioBps(bnb('3'), bnb('2'))).toBe(15_000n);
    expect(reserveRatioBps(0n, bnb('2'))).toBe(0n);
    expect(reserveRatioBps(bnb('5'), 0n)).toBeNull();
    // A ratio a float could not hold exactly stays exact.
    expect(reserveRatioBps(10n ** 30n, 1n)).toBe(10n ** 34n);
    expect(() => reserveRatioBps(-1n, 1n)).toThrow(RangeError);
  });

  test('the ratio is below 10000 exactly when the vault is short', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 27n }),
        fc.bigInt({ min: 1n, max: 10n ** 27n }),
        (balance, owed) => {
          const ratio = reserveRatioBps(balance, owed);
          expect(ratio).not.toBeNull();
          expect((ratio ?? 0n) < 10_000n).toBe(balance < owed);
        },
      ),
    );
  });

  test('a report says covered or short, and by how much', () => {
    const liabilities = liabilitiesOf({ ...noLiabilities(), unclaimedMarketWei: bnb('2') });
    expect(reservesReport({ blockNumber: 9n, vaultBalanceWei: bnb('3'), liabilities })).toEqual({
      blockNumber: 9n,
      vaultBalanceWei: bnb('3'),
      liabilities,
      covered: true,
      shortfallWei: 0n,
      reserveRatioBps: 15_000n,
    });
    expect(reservesReport({ blockNumber: 9n, vaultBalanceWei: bnb('1.5'), liabilities })).toMatchObject({
      covered: false,
      shortfallWei: bnb('0.5'),
      reserveRatioBps: 7_500n,
    });
  });
});

// A simulated vault driven through random histories of the product: bets, flags, settlements
// (with fees, dust and bonds), rounds, refusals, transfers waiting for reconciliation, claims,
// refunds, held refunds, confirmed and failed payouts. After every step the vault's balance minus
// what the row rules say it owes must be exactly what the vault keeps (fees net of rewards, and
// dust): a row counted twice or forgotten would break the equality by its amount.

type Side = 'YES' | 'NO';
type Verdict = Side | 'VOID';

type SimPayment = {
  status: 'recorded' | 'refund_due' | 'refund_held' | 'refunded';
  from: number;
  amountWei: bigint;
  refundAmountWei: bigint | null;
  payoutId: number | null;
};
type SimBet = {
  market: number;
  user: number;
  side: Side;
  amountWei: bigint;
  status: 'pending' | 'won' | 'lost' | 'claimed' | 'refunded';
  payoutAmountWei: bigint | null;
  payoutId: number | null;
};
type SimRoundBet = {
  round: number;
  user: number;
  side: 'bull' | 'bear';
  amountWei: bigint;
  payoutAmountWei: bigint | null;
  claimed: boolean;
  payoutId: number | null;
};
type SimFlag = {
  market: number;
  paymentId: number;
  bondStatus: 'held' | 'returned' | 'forfeited' | 'returned_void';
  bondAmountWei: bigint;
};
type SimPayout = {
  status: 'created' | 'signed' | 'broadcast' | 'confirmed' | 'failed';
  amountWei: bigint;
  to: number;
};
type SimTransfer = { amountWei: bigint; from: number; resolved: boolean; recorded: boolean };

type Sim = {
  balanceWei: bigint;
  keptWei: bigint;
  markets: Array<{ status: 'active' | 'settling' | 'settled'; proposed: Verdict | null }>;
  rounds: Array<{ status: 'live' | 'ended' }>;
  payments: SimPayment[];
  bets: SimBet[];
  roundBets: SimRoundBet[];
  flags: SimFlag[];
  payouts: SimPayout[];
  transfers: SimTransfer[];
};

const newSim = (): Sim => ({
  balanceWei: 0n,
  keptWei: 0n,
  markets: [{ status: 'active', proposed: null }],
  rounds: [{ status: 'live' }],
  payments: [],
  bets: [],
  roundBets: [],
  flags: [],
  payouts: [],
  transfers: [],
});

function simLiabilities(sim: Sim) {
  return sumLiabilities([
    ...sim.bets.map((bet) =>
      marketBetOwes({
        marketStatus: sim.markets[bet.market]?.status ?? 'active',
        status: bet.status,
        amountWei: bet.amountWei,
        payoutAmountWei: bet.payoutAmountWei,
        inPayout: bet.payoutId !== null,
      }),
    ),
    ...sim.roundBets.map((bet) =>
      roundBetOwes({
        roundStatus: sim.rounds[bet.round]?.status ?? 'live',
        amountWei: bet.amountWei,
        payoutAmountWei: bet.payoutAmountWei,
        claimed: bet.claimed,
        inPayout: bet.payoutId !== null,
      }),
    ),
    ...sim.payments.map((payment) =>
      paymentOwes({
        status: payment.status,
        amountWei: payment.amountWei,
        refundAmountWei: payment.refundAmountWei,
        inPayout: payment.payoutId !== null,
      }),
    ),
    ...sim.flags.map(flagBondOwes),
    ...sim.payouts.map(payoutOwes),
    ...sim.transfers.map(vaultTransferOwes),
  ]);
}

/** Money in: a payment recorded (or owed back), the vault's balance grows by it. */
function receive(sim: Sim, from: number, amountWei: bigint, status: SimPayment['status']): number {
  sim.balanceWei += amountWei;
  sim.payments.push({ status, from, amountWei, refundAmountWei: null, payoutId: null });
  return sim.payments.length - 1;
}

const amountArb = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 10n ** 21n }));
const verdictArb = fc.constantFrom<Verdict>('YES', 'NO', 'VOID');
const pick = fc.nat({ max: 50 });

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const stepArb = fc.oneof(
  w(
    8,
    fc.record({
      kind: fc.constant('bet'),
      market: pick,
      user: pick,
      side: fc.constantFrom<Side>('YES', 'NO'),
      amount: amountArb,
    }),
  ),
  w(2, fc.record({ kind: fc.constant('close'), market: pick, proposed: verdictArb })),
  w(3, fc.record({ kind: fc.constant('flag'), market: pick, user: pick, amount: amountArb })),
  w(
    2,
    fc.record({
      kind: fc.constant('settle'),
      market: pick,
      result: verdictArb,
      feeBps: fc.integer({ min: 0, max: 2000 }),
    }),
  ),
  w(1, fc.record({ kind: fc.constant('newMarket') })),
  w(
    6,
    fc.record({
      kind: fc.constant('roundBet'),
      round: pick,
      user: pick,
      side: fc.constantFrom<'bull' | 'bear'>('bull', 'bear'),
      amount: amountArb,
    }),
  ),
  w(
    2,
    fc.record({
      kind: fc.constant('endRound'),
      round: pick,
      result: fc.constantFrom<'bull' | 'bear' | 'draw' | 'cancelled'>('bull', 'bear', 'draw', 'cancelled'),
      feeBps: fc.integer({ min: 0, max: 2000 }),
    }),
  ),
  w(1, fc.record({ kind: fc.constant('newRound') })),
  w(2, fc.record({ kind: fc.constant('refused'), user: pick, amount: amountArb })),
  w(2, fc.record({ kind: fc.constant('transferSeen'), user: pick, amount: amountArb })),
  w(2, fc.record({ kind: fc.constant('transferSettled'), index: pick, byApiFirst: fc.boolean() })),
  w(5, fc.record({ kind: fc.constant('claim'), user: pick })),
  w(3, fc.record({ kind: fc.constant('refundPayout'), index: pick })),
  w(1, fc.record({ kind: fc.constant('hold'), index: pick })),
  w(1, fc.record({ kind: fc.constant('payHeld'), index: pick })),
  w(2, fc.record({ kind: fc.constant('advance'), index: pick })),
  w(4, fc.record({ kind: fc.constant('confirm'), index: pick })),
  w(2, fc.record({ kind: fc.constant('fail'), index: pick })),
);
/** Histories long enough to reach settlements, claims and failures (fast-check's default size is small). */
const historyArb = (maxLength: number) => fc.array(stepArb, { minLength: 20, maxLength, size: 'max' });
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

const USERS = 3;
const at = <T>(list: T[], index: number): T | undefined =>
  list.length ? list[index % list.length] : undefined;

function newPayout(sim: Sim, to: number, amountWei: bigint): number {
  sim.payouts.push({ status: 'created', amountWei, to });
  return sim.payouts.length - 1;
}

function apply(sim: Sim, step: Step): void {
  switch (step.kind) {
    case 'bet': {
      const market = step.market % sim.markets.length;
      if (sim.markets[market]?.status !== 'active') return;
      receive(sim, step.user % USERS, step.amount, 'recorded');
      sim.bets.push({
        market,
        user: step.user % USERS,
        side: step.side,
        amountWei: step.amount,
        status: 'pending',
        payoutAmountWei: null,
        payoutId: null,
      });
      return;
    }
    case 'close': {
      const market = sim.markets[step.market % sim.markets.length];
      if (market?.status !== 'active') return;
      market.status = 'settling';
      market.proposed = step.proposed;
      return;
    }
    case 'flag': {
      const index = step.market % sim.markets.length;
      if (sim.markets[index]?.status !== 'settling') return;
      const paymentId = receive(sim, step.user % USERS, step.amount, 'recorded');
      sim.flags.push({ market: index, paymentId, bondStatus: 'held', bondAmountWei: step.amount });
      return;
    }
    case 'settle': {
      const index = step.market % sim.markets.length;
      const market = sim.markets[index];
      if (!market || market.status === 'settled') return;
      const bets = sim.bets.flatMap((bet, id) =>
        bet.market === index ? [{ id, side: bet.side, amountWei: bet.amountWei }] : [],
      );
      const bonds = sim.flags.flatMap((flag, id) =>
        flag.market === index && flag.bondStatus === 'held' ? [{ id, amountWei: flag.bondAmountWei }] : [],
      );
      const settled = computeBondedMarketPayouts({
        bets,
        bonds,
        proposedResult: market.proposed ?? step.result,
        result: step.result,
        feeBps: step.feeBps,
      });
      const returns = new Map(settled.bets.payouts.map((payout) => [payout.id, payout.returnWei]));
      for (const { id } of bets) {
        const bet = sim.bets[id];
        if (!bet) continue;
        const returned = returns.get(id);
        bet.status = settled.bets.refund ? 'refunded' : returned === undefined ? 'lost' : 'won';
        bet.payoutAmountWei = returned ?? 0n;
      }
      for (const bond of settled.bonds.bonds) {
        const flag = sim.flags[bond.id];
        const fate = settled.bonds.fate;
        if (!flag || !fate) continue;
        flag.bondStatus = fate;
        const payment = sim.payments[flag.paymentId];
        if (bond.returnWei > 0n && payment) {
          payment.status = 'refund_due';
          payment.refundAmountWei = bond.returnWei;
        }
      }
      market.status = 'settled';
      sim.keptWei += settled.feeKeptWei + settled.dustWei;
      return;
    }
    case 'newMarket':
      sim.markets.push({ status: 'active', proposed: null });
      return;
    case 'newRound':
      sim.rounds.push({ status: 'live' });
      return;
    case 'roundBet': {
      const round = step.round % sim.rounds.length;
      if (sim.rounds[round]?.status !== 'live') return;
      receive(sim, step.user % USERS, step.amount, 'recorded');
      sim.roundBets.push({
        round,
        user: step.user % USERS,
        side: step.side,
        amountWei: step.amount,
        payoutAmountWei: null,
        claimed: false,
        payoutId: null,
      });
      return;
    }
    case 'endRound': {
      const index = step.round % sim.rounds.length;
      const round = sim.rounds[index];
      if (round?.status !== 'live') return;
      const bets = sim.roundBets.flatMap((bet, id) =>
        bet.round === index ? [{ id, side: bet.side, amountWei: bet.amountWei }] : [],
      );
      round.status = 'ended';
      if (!bets.length) return;
      const computed = computeRoundPayouts({ bets, result: step.result, feeBps: step.feeBps });
      const returns = new Map(computed.payouts.map((payout) => [payout.id, payout.returnWei]));
      for (const { id } of bets) {
        const bet = sim.roundBets[id];
        if (bet) bet.payoutAmountWei = returns.get(id) ?? 0n;
      }
      sim.keptWei += computed.feeWei + computed.dustWei;
      return;
    }
    case 'refused':
      receive(sim, step.user % USERS, step.amount, 'refund_due');
      return;
    case 'transferSeen':
      sim.balanceWei += step.amount;
      sim.transfers.push({
        amountWei: step.amount,
        from: step.user % USERS,
        resolved: false,
        recorded: false,
      });
      return;
    case 'transferSettled': {
      const transfer = at(sim.transfers, step.index);
      if (!transfer || transfer.resolved) return;
      if (transfer.recorded || !step.byApiFirst) {
        // Reconciliation settles it: known already, or kept as a refund (no usable intent).
        if (!transfer.recorded) {
          sim.payments.push({
            status: 'refund_due',
            from: transfer.from,
            amountWei: transfer.amountWei,
            refundAmountWei: null,
            payoutId: null,
          });
        }
        transfer.resolved = true;
        return;
      }
      // The API records the payment before reconciliation gets to its row (not yet resolved).
      sim.payments.push({
        status: 'refund_due',
        from: transfer.from,
        amountWei: transfer.amountWei,
        refundAmountWei: null,
        payoutId: null,
      });
      transfer.recorded = true;
      return;
    }
    case 'claim': {
      const user = step.user % USERS;
      const bets = sim.bets.filter(
        (bet) =>
          bet.user === user &&
          bet.payoutId === null &&
          sim.markets[bet.market]?.status === 'settled' &&
          (bet.status === 'won' || bet.status === 'refunded'),
      );
      const roundBets = sim.roundBets.filter(
        (bet) =>
          bet.user === user && bet.payoutId === null && !bet.claimed && (bet.payoutAmountWei ?? 0n) > 0n,
      );
      const total = [...bets, ...roundBets].reduce((sum, bet) => sum + (bet.payoutAmountWei ?? 0n), 0n);
      if (total === 0n) return;
      const id = newPayout(sim, user, total);
      for (const bet of [...bets, ...roundBets]) bet.payoutId = id;
      return;
    }
    case 'refundPayout': {
      const payment = at(sim.payments, step.index);
      if (payment?.status !== 'refund_due' || payment.payoutId !== null) return;
      payment.payoutId = newPayout(sim, payment.from, payment.refundAmountWei ?? payment.amountWei);
      return;
    }
    case 'hold': {
      const payment = at(sim.payments, step.index);
      if (payment?.status !== 'refund_due' || payment.payoutId !== null) return;
      payment.status = 'refund_held';
      return;
    }
    case 'payHeld': {
      const payment = at(sim.payments, step.index);
      if (payment?.status !== 'refund_held' || payment.payoutId !== null) return;
      payment.status = 'refund_due';
      payment.payoutId = newPayout(sim, payment.from, payment.refundAmountWei ?? payment.amountWei);
      return;
    }
    case 'advance': {
      const payout = at(sim.payouts, step.index);
      if (payout?.status === 'created') payout.status = 'signed';
      else if (payout?.status === 'signed') payout.status = 'broadcast';
      return;
    }
    case 'confirm': {
      const id = sim.payouts.length ? step.index % sim.payouts.length : -1;
      const payout = sim.payouts[id];
      if (!payout || payout.status === 'confirmed' || payout.status === 'failed') return;
      payout.status = 'confirmed';
      sim.balanceWei -= payout.amountWei;
      for (const bet of sim.bets) if (bet.payoutId === id) bet.status = 'claimed';
      for (const bet of sim.roundBets) if (bet.payoutId === id) bet.claimed = true;
      for (const payment of sim.payments) if (payment.payoutId === id) payment.status = 'refunded';
      return;
    }
    case 'fail': {
      const id = sim.payouts.length ? step.index % sim.payouts.length : -1;
      const payout = sim.payouts[id];
      if (!payout || payout.status === 'confirmed' || payout.status === 'failed') return;
      payout.status = 'failed';
      for (const bet of sim.bets) if (bet.payoutId === id) bet.payoutId = null;
      for (const bet of sim.roundBets) if (bet.payoutId === id) bet.payoutId = null;
      for (const payment of sim.payments) {
        if (payment.payoutId !== id) continue;
        payment.payoutId = null;
        payment.status = 'refund_held';
      }
      return;
    }
  }
}

// Long histories on a loaded machine take seconds: room for them, not a speed check.
const SIMULATION_TIMEOUT_MS = 60_000;

describe('a simulated vault', () => {
  test(
    'after every step, balance − liabilities is exactly what the vault keeps (fees and dust)',
    () => {
      fc.assert(
        fc.property(historyArb(150), (steps) => {
          const sim = newSim();
          for (const step of steps) {
            apply(sim, step);
            const liabilities = simLiabilities(sim);
            expect(sim.balanceWei - liabilities.totalWei).toBe(sim.keptWei);
            expect(sim.keptWei).toBeGreaterThanOrEqual(0n);
            expect(
              reservesReport({ blockNumber: 1n, vaultBalanceWei: sim.balanceWei, liabilities }).covered,
            ).toBe(true);
          }
        }),
        { numRuns: 200 },
      );
    },
    SIMULATION_TIMEOUT_MS,
  );

  test(
    'linking bets or a refund to a payout, and failing it, moves debt between parts but not the total',
    () => {
      fc.assert(
        fc.property(historyArb(100), pick, (steps, who) => {
          const sim = newSim();
          for (const step of steps) apply(sim, step);
          const before = simLiabilities(sim).totalWei;
          apply(sim, { kind: 'claim', user: who });
          apply(sim, { kind: 'refundPayout', index: who });
          expect(simLiabilities(sim).totalWei).toBe(before);
          for (let index = 0; index < sim.payouts.length; index++) apply(sim, { kind: 'fail', index });
          expect(simLiabilities(sim).totalWei).toBe(before);
        }),
        { numRuns: 100 },
      );
    },
    SIMULATION_TIMEOUT_MS,
  );

  test(
    'a confirmed payout lowers the balance and the liabilities by its amount',
    () => {
      fc.assert(
        fc.property(historyArb(100), pick, (steps, who) => {
          const sim = newSim();
          for (const step of steps) apply(sim, step);
          apply(sim, { kind: 'claim', user: who });
          const open = sim.payouts.findIndex((payout) => payout.status === 'created');
          if (open < 0) return;
          const amount = sim.payouts[open]?.amountWei ?? 0n;
          const before = simLiabilities(sim).totalWei;
          const balance = sim.balanceWei;
          apply(sim, { kind: 'confirm', index: open });
          expect(before - simLiabilities(sim).totalWei).toBe(amount);
          expect(balance - sim.balanceWei).toBe(amount);
        }),
        { numRuns: 100 },
      );
    },
    SIMULATION_TIMEOUT_MS,
  );

  test('every part is listed once', () => {
    expect(new Set(LIABILITY_PARTS).size).toBe(LIABILITY_PARTS.length);
    expect(Object.keys(noLiabilities())).toEqual([...LIABILITY_PARTS]);
  });
});

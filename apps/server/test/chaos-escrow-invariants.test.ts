import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../chaos/check-invariants.ts';
import type { DbSnapshot } from '../chaos/db-snapshot.ts';
import type { EscrowView } from '../chaos/escrow-ledger.ts';

// The chaos suite's escrow invariants (docs/chaos.md) on a made-up snapshot: a round paid as it should
// holds every check; each way money can go wrong on the escrow is reported, with the wei lost.

const ALICE = '0x00000000000000000000000000000000000000a1';
const BOB = '0x00000000000000000000000000000000000000b2';
const OPERATOR = '0x00000000000000000000000000000000000000fe';
const KEY = `0x${'11'.repeat(32)}`;
const OTHER_KEY = `0x${'22'.repeat(32)}`;
const T0 = new Date('2026-01-01T00:00:00Z');
const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** Round 5: Alice bull 1 BNB wins Bob's bear 1 BNB (2 BNB, claimed by relay 1); a refused deposit given back. */
function world() {
  const snapshot: DbSnapshot = {
    payments: [
      payment(1, tx(1), ALICE, 10n ** 18n, 'recorded', 1n),
      payment(2, tx(2), BOB, 10n ** 18n, 'recorded', 2n),
      payment(3, tx(3), BOB, 5n, 'refunded', 3n),
    ],
    bets: [],
    oracleBets: [
      {
        id: 1,
        epoch: 5,
        user_address: ALICE,
        position: 'bull',
        amount: 10n ** 18n,
        payout_amount: 2n * 10n ** 18n,
        claimed: true,
        payment_id: 1,
        stake_id: 1n,
      },
      {
        id: 2,
        epoch: 5,
        user_address: BOB,
        position: 'bear',
        amount: 10n ** 18n,
        payout_amount: 0n,
        claimed: false,
        payment_id: 2,
        stake_id: 2n,
      },
    ],
    flags: [],
    markets: [],
    rounds: [{ epoch: 5, status: 'ended', result: 'bull', close_time: T0 }],
    requests: [],
    payoutsCursor: 100n,
    escrowCursor: 100n,
    escrowRefunds: [
      {
        id: 1,
        stake_id: 3n,
        payment_id: 3,
        tx_hash: tx(3),
        owner: BOB,
        amount: 5n,
        market_key: OTHER_KEY,
        reason: 'AMOUNT_TOO_LOW',
        status: 'refunded',
        last_error: null,
        created_at: T0,
      },
    ],
    escrowDeposits: [],
    payoutLists: [
      {
        id: 1,
        market_key: KEY,
        epoch: 5,
        prediction_market_id: null,
        refund: false,
        status: 'settled',
        payout_total: 2n * 10n ** 18n,
        fee: 0n,
        pool: 2n * 10n ** 18n,
        operator_tx_id: 1,
        attempts: 0,
        last_error: null,
        claimable_at: T0,
        created_at: T0,
      },
    ],
    payoutListLeaves: [{ stake_id: 1n, market_key: KEY, payout: 2n * 10n ** 18n }],
    relays: [
      {
        id: 1,
        kind: 'claim',
        owner: ALICE,
        operator_tx_id: 2,
        status: 'done',
        last_error: null,
        created_at: T0,
      },
    ],
    relayStakes: [{ relay_id: 1, stake_id: 1n, oracle_bet_id: 1, bet_id: null, flag_id: null }],
    stakePayouts: [
      {
        stake_id: 1n,
        market_key: KEY,
        owner: ALICE,
        kind: 'claimed',
        amount: 2n * 10n ** 18n,
        credited: false,
        tx_hash: tx(10),
        relay_id: 1,
      },
    ],
    operatorTxs: [
      {
        id: 1,
        key: 'settle',
        status: 'confirmed',
        tx_hash: tx(9),
        tx_hashes: [tx(9)],
        last_error: null,
        created_at: T0,
      },
      {
        id: 2,
        key: 'relay',
        status: 'confirmed',
        tx_hash: tx(10),
        tx_hashes: [tx(10)],
        last_error: null,
        created_at: T0,
      },
    ],
    dbNow: T0,
  };
  const escrow: EscrowView = {
    address: '0xe5',
    head: 101n,
    balance: 0n,
    liabilities: 0n,
    deposits: [
      { stakeId: 1n, market: KEY, owner: ALICE, amount: 10n ** 18n, txHash: tx(1), kind: 3 },
      { stakeId: 2n, market: KEY, owner: BOB, amount: 10n ** 18n, txHash: tx(2), kind: 3 },
      { stakeId: 3n, market: OTHER_KEY, owner: BOB, amount: 5n, txHash: tx(3), kind: 3 },
    ],
    outs: [
      {
        stakeId: 3n,
        market: OTHER_KEY,
        owner: BOB,
        kind: 'refunded',
        amount: 5n,
        credited: false,
        txHash: tx(8),
      },
      {
        stakeId: 1n,
        market: KEY,
        owner: ALICE,
        kind: 'claimed',
        amount: 2n * 10n ** 18n,
        credited: false,
        txHash: tx(10),
      },
    ],
    settlements: [{ market: KEY, kind: 'settled', payoutTotal: 2n * 10n ** 18n, fee: 0n, txHash: tx(9) }],
    withdrawn: 0n,
    feesCollected: 0n,
    swept: 0n,
    markets: new Map([
      [
        KEY,
        { pool: 2n * 10n ** 18n, state: 2, payoutTotal: 2n * 10n ** 18n, paid: 2n * 10n ** 18n, fee: 0n },
      ],
      [OTHER_KEY, { pool: 0n, state: 1, payoutTotal: 0n, paid: 0n, fee: 0n }],
    ]),
    spent: new Map([
      [1n, true],
      [3n, true],
    ]),
  };
  return { snapshot, escrow };
}

function payment(id: number, hash: string, from: string, amount: bigint, status: string, stake: bigint) {
  return {
    id,
    tx_hash: hash,
    from_address: from,
    amount,
    intent: 'escrow',
    purpose: 'oracle_bet',
    status,
    refund_reason: status === 'recorded' ? null : 'AMOUNT_TOO_LOW',
    stake_id: stake,
  };
}

function check(snapshot: DbSnapshot, escrow: EscrowView) {
  return checkInvariants({
    snapshot,
    transfers: [],
    operator: OPERATOR,
    head: 101n,
    confirmations: 2,
    initialBalance: 0n,
    finalBalance: 0n,
    escrow,
    scanTarget: 100n,
    chainNowS: T0.getTime() / 1000,
  });
}

/** The list's item at `index`, which the made-up world has. */
function at<T>(items: T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

const keys = (report: ReturnType<typeof check>) => report.violations.map((v) => v.key);

describe('chaos escrow invariants', () => {
  it('hold for a round paid once and a refused deposit given back', () => {
    const { snapshot, escrow } = world();
    const report = check(snapshot, escrow);
    expect(report.violations).toEqual([]);
    expect(report.lostWei).toBe(0n);
    expect(report.stats).toMatchObject({ escrowDeposits: 3, escrowPaid: 2 });
  });

  it('count a market bet and a flag bond as the holders of their stakes (migration 0018)', () => {
    const { snapshot, escrow } = world();
    const MARKET_KEY = `0x${'33'.repeat(32)}`;
    snapshot.payments.push(
      { ...payment(4, tx(4), ALICE, 3n, 'recorded', 4n), purpose: 'market_bet' },
      { ...payment(5, tx(5), BOB, 2n, 'recorded', 5n), purpose: 'market_flag' },
    );
    snapshot.bets.push({
      id: 1,
      market_id: 1,
      user_address: ALICE,
      prediction: 'YES',
      amount: 3n,
      payout_amount: null,
      status: 'pending',
      payment_id: 4,
      stake_id: 4n,
    });
    snapshot.flags.push({
      id: 1,
      market_id: 1,
      address: BOB,
      bond_payment_id: 5,
      bond_amount: 2n,
      bond_status: 'held',
      bond_return_amount: null,
      stake_id: 5n,
    });
    escrow.deposits.push(
      { stakeId: 4n, market: MARKET_KEY, owner: ALICE, amount: 3n, txHash: tx(4), kind: 2 },
      { stakeId: 5n, market: MARKET_KEY, owner: BOB, amount: 2n, txHash: tx(5), kind: 4 },
    );
    escrow.markets.set(MARKET_KEY, { pool: 5n, state: 1, payoutTotal: 0n, paid: 0n, fee: 0n });
    const report = check(snapshot, escrow);
    expect(report.violations.filter((v) => v.key.startsWith('I1:'))).toEqual([]);
    // The bond's payment recorded twice (a bet on it too) is reported.
    snapshot.bets.push({ ...at(snapshot.bets, 0), id: 2, payment_id: 5, stake_id: 5n });
    expect(keys(check(snapshot, escrow))).toContain('I1:escrow-bets:5');
  });

  it('report a stake paid twice, with the second payout lost', () => {
    const { snapshot, escrow } = world();
    escrow.outs.push({ ...at(escrow.outs, 1), txHash: tx(11) });
    const report = check(snapshot, escrow);
    expect(keys(report)).toContain('I4:escrow-twice:1');
    expect(report.lostWei).toBe(2n * 10n ** 18n);
  });

  it('report a deposit that is neither bet nor refund, and a payment with no deposit', () => {
    const { snapshot, escrow } = world();
    escrow.deposits.push({ stakeId: 4n, market: KEY, owner: ALICE, amount: 7n, txHash: tx(4), kind: 3 });
    snapshot.payments.push(payment(9, tx(99), ALICE, 9n, 'recorded', 99n));
    const report = check(snapshot, escrow);
    expect(keys(report)).toEqual(expect.arrayContaining(['I1:escrow-unaccounted:4', 'I1:escrow-phantom:99']));
    expect(report.lostWei).toBe(16n);
  });

  it('report a win never paid, and a claimed bet the chain never paid', () => {
    const unpaid = world();
    at(unpaid.snapshot.oracleBets, 0).claimed = false;
    expect(keys(check(unpaid.snapshot, unpaid.escrow))).toContain('I2:unpaid-oracle-bet:1');
    const notOnChain = world();
    notOnChain.escrow.outs.pop();
    expect(keys(check(notOnChain.snapshot, notOnChain.escrow))).toContain('I2:escrow-bet:1:not-on-chain');
  });

  it('report an escrow whose books do not add up', () => {
    const { snapshot, escrow } = world();
    escrow.balance = -1n;
    escrow.markets.set(KEY, {
      pool: 2n * 10n ** 18n,
      state: 2,
      payoutTotal: 10n ** 18n,
      paid: 2n * 10n ** 18n,
      fee: 10n ** 18n,
    });
    expect(keys(check(snapshot, escrow))).toEqual(
      expect.arrayContaining(['I3:escrow-solvent:101', 'I3:escrow-balance:101', `I3:escrow-overpaid:${KEY}`]),
    );
  });

  it('report what is stuck: a relay open, a settlement not final, a refused deposit not given back', () => {
    const { snapshot, escrow } = world();
    snapshot.dbNow = new Date(T0.getTime() + 600_000);
    at(snapshot.relays, 0).status = 'open';
    at(snapshot.payoutLists, 0).status = 'published';
    at(snapshot.escrowRefunds, 0).status = 'failed';
    expect(keys(check(snapshot, escrow))).toEqual(
      expect.arrayContaining(['I5:relay:1', `I5:payout-list:${KEY}`, 'I5:escrow-refund:3']),
    );
  });
});

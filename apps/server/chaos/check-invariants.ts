import { formatEther } from 'viem';
import type { DbSnapshot, PayoutRow } from './db-snapshot.ts';
import { expectedMarketPayouts, expectedRoundPayouts } from './expected-payouts.ts';
import type { VaultTransfer } from './vault-ledger.ts';

// The five promises of the money path (docs/chaos.md), checked against the chain after the jobs
// have quiesced. Each violation carries a stable key, so one bug seen in every round is reported
// once, with the round it first appeared in.

export type Violation = { invariant: 1 | 2 | 3 | 4 | 5; key: string; message: string };

export type InvariantInput = {
  snapshot: DbSnapshot;
  transfers: VaultTransfer[];
  vault: string;
  head: bigint;
  confirmations: number;
  initialBalance: bigint;
  finalBalance: bigint;
  /** Chain time at the snapshot: deadlines and round closes are compared with it. */
  chainNowS: number;
};

export type InvariantReport = {
  violations: Violation[];
  checks: number;
  /** BNB the run cannot account for: payments neither bet nor refunded, phantom bets, extra payouts. */
  lostWei: bigint;
  stats: {
    inbound: number;
    outbound: number;
    bets: number;
    oracleBets: number;
    refunds: number;
    claims: number;
    /** Why payments became refunds: a transient fault here (RECORD_FAILED…) turned a valid bet into one. */
    refundReasons: Record<string, number>;
  };
};

const OPEN_PAYOUT = new Set(['created', 'signed', 'broadcast']);
const REFUND_STATUSES = new Set(['refund_due', 'refunded', 'held']);
/** Bounds for "stuck" after quiescence (invariant 5). */
const MAX_OPEN_REQUEST_AGE_S = 120;
const MAX_OPEN_PAYOUT_AGE_S = 60;
const MAX_CURSOR_LAG_BLOCKS = 5n;
const MAX_OVERDUE_S = 60;

export function checkInvariants(input: InvariantInput): InvariantReport {
  const { snapshot } = input;
  const violations: Violation[] = [];
  let checks = 0;
  let lostWei = 0n;
  const fail = (invariant: Violation['invariant'], key: string, message: string) =>
    violations.push({ invariant, key: `I${invariant}:${key}`, message });
  const check = (ok: boolean, invariant: Violation['invariant'], key: string, message: () => string) => {
    checks += 1;
    if (!ok) fail(invariant, key, message());
    return ok;
  };
  const bnb = (wei: bigint) => `${formatEther(wei)} BNB`;

  const inbound = input.transfers.filter(
    (t) => t.to === input.vault && t.from !== input.vault && t.success && t.value > 0n,
  );
  const outbound = input.transfers.filter(
    (t) => t.from === input.vault && t.to !== input.vault && t.success && t.value > 0n,
  );
  const inboundByHash = new Map(inbound.map((t) => [t.hash, t]));
  const outboundByHash = new Map(outbound.map((t) => [t.hash, t]));
  const paymentByHash = new Map(snapshot.payments.map((p) => [p.tx_hash.toLowerCase(), p]));
  const payoutById = new Map(snapshot.payouts.map((p) => [p.id, p]));
  const betsByPayment = new Map<number, number>();
  for (const bet of [...snapshot.bets, ...snapshot.oracleBets])
    betsByPayment.set(bet.payment_id, (betsByPayment.get(bet.payment_id) ?? 0) + 1);

  /** The payout's transaction as the chain has it, if one of its hashes was mined. */
  const minedOf = (payout: PayoutRow) =>
    payout.tx_hashes.map((hash) => outboundByHash.get(hash.toLowerCase())).filter((t) => t !== undefined);

  const checkPaidOnChain = (invariant: 1 | 2, key: string, payout: PayoutRow | undefined, to: string) => {
    if (!check(payout !== undefined, invariant, `${key}:no-payout`, () => `${key}: no payout row`)) return;
    if (!payout) return;
    const mined = minedOf(payout);
    check(
      payout.status === 'confirmed',
      invariant,
      `${key}:not-confirmed`,
      () => `${key}: payout ${payout.id} is ${payout.status}`,
    );
    const tx = mined[0];
    if (
      !check(
        tx !== undefined,
        invariant,
        `${key}:not-on-chain`,
        () => `${key}: payout ${payout.id} (${payout.tx_hash}) is not on chain`,
      )
    )
      return;
    if (!tx) return;
    check(
      tx.to === to,
      invariant,
      `${key}:wrong-recipient`,
      () => `${key}: payout ${payout.id} went to ${tx.to}, not ${to}`,
    );
    check(
      tx.value === payout.amount,
      invariant,
      `${key}:wrong-value`,
      () => `${key}: payout ${payout.id} sent ${bnb(tx.value)} on chain, the row says ${bnb(payout.amount)}`,
    );
  };

  // 1. Every paid inbound transfer is exactly one bet or exactly one refund; nothing else exists.
  for (const transfer of inbound) {
    const payment = paymentByHash.get(transfer.hash);
    if (
      !check(
        payment !== undefined,
        1,
        `unaccounted:${transfer.hash}`,
        () =>
          `payment ${transfer.hash} (${bnb(transfer.value)} from ${transfer.from}, data ${intentOf(transfer.input)}) is neither a bet nor a refund`,
      )
    ) {
      lostWei += transfer.value;
      continue;
    }
    if (!payment) continue;
    check(
      payment.amount === transfer.value && payment.from_address.toLowerCase() === transfer.from,
      1,
      `mismatch:${transfer.hash}`,
      () =>
        `payment ${payment.id} says ${bnb(payment.amount)} from ${payment.from_address}; the chain says ${bnb(transfer.value)} from ${transfer.from}`,
    );
    const betCount = betsByPayment.get(payment.id) ?? 0;
    if (payment.status === 'recorded') {
      check(
        betCount === 1,
        1,
        `bets:${transfer.hash}`,
        () => `recorded payment ${payment.id} (${transfer.hash}) has ${betCount} bets`,
      );
      check(
        payment.refund_payout_id === null,
        1,
        `bet-and-refund:${transfer.hash}`,
        () => `payment ${payment.id} is both a bet and refund payout ${payment.refund_payout_id}`,
      );
    } else if (
      check(
        REFUND_STATUSES.has(payment.status),
        1,
        `status:${transfer.hash}`,
        () => `payment ${payment.id} has status ${payment.status}`,
      )
    ) {
      check(
        betCount === 0,
        1,
        `refund-and-bet:${transfer.hash}`,
        () => `refunded payment ${payment.id} also has ${betCount} bets`,
      );
      if (payment.status === 'refunded') {
        const payout =
          payment.refund_payout_id === null ? undefined : payoutById.get(payment.refund_payout_id);
        checkPaidOnChain(1, `refund:${transfer.hash}`, payout, payment.from_address.toLowerCase());
        if (payout)
          check(
            payout.amount === payment.amount,
            1,
            `refund-amount:${transfer.hash}`,
            () => `refund payout ${payout.id} is ${bnb(payout.amount)} for a ${bnb(payment.amount)} payment`,
          );
      }
    }
  }
  for (const payment of snapshot.payments) {
    if (payment.amount === 0n) continue;
    const onChain = inboundByHash.get(payment.tx_hash.toLowerCase());
    if (
      !check(
        onChain !== undefined,
        1,
        `phantom:${payment.tx_hash}`,
        () =>
          `payment ${payment.id} (${payment.status}, ${bnb(payment.amount)}, ${payment.intent}) has no successful transfer on the canonical chain`,
      )
    ) {
      lostWei += payment.amount;
    }
  }
  const paymentById = new Map(snapshot.payments.map((p) => [p.id, p]));
  for (const bet of [...snapshot.bets, ...snapshot.oracleBets]) {
    const payment = paymentById.get(bet.payment_id);
    check(
      payment?.status === 'recorded' &&
        payment.amount === bet.amount &&
        payment.from_address === bet.user_address,
      1,
      `bet-payment:${bet.payment_id}`,
      () =>
        `bet with payment ${bet.payment_id} does not match a recorded payment of the same amount and owner`,
    );
  }

  // 2. Every claimed bet has exactly one confirmed payout on chain, to its owner, of the right amount;
  //    and (after the claim sweep) every win is claimed.
  const owedMarket = expectedMarketPayouts(snapshot);
  const owedRound = expectedRoundPayouts(snapshot);
  const owedByPayout = new Map<number, bigint>();
  const addOwed = (payoutId: number | null, owed: bigint | undefined) => {
    if (payoutId !== null) owedByPayout.set(payoutId, (owedByPayout.get(payoutId) ?? 0n) + (owed ?? 0n));
  };
  for (const bet of snapshot.bets) {
    const owed = owedMarket.get(bet.id);
    addOwed(bet.payout_id, owed);
    // Unpaid: owed something and not claimed, whether no payout was made or it never confirmed.
    if (owed !== undefined && bet.status !== 'claimed')
      check(
        owed === 0n,
        2,
        `unpaid-market-bet:${bet.id}`,
        () => `market bet ${bet.id} (${bet.user_address}) is owed ${bnb(owed)} and was never paid`,
      );
    if (bet.status === 'claimed') {
      checkPaidOnChain(
        2,
        `market-bet:${bet.id}`,
        bet.payout_id === null ? undefined : payoutById.get(bet.payout_id),
        bet.user_address,
      );
    }
    if (owed !== undefined && bet.status !== 'claimed' && bet.status !== 'pending') {
      const stored =
        bet.status === 'won'
          ? bet.amount + (bet.payout_amount ?? 0n)
          : bet.status === 'refunded'
            ? bet.amount
            : 0n;
      check(
        stored === owed,
        2,
        `settled-amount:${bet.id}`,
        () => `market bet ${bet.id} is ${bet.status} for ${bnb(stored)}, the pools say ${bnb(owed)}`,
      );
    }
  }
  for (const bet of snapshot.oracleBets) {
    const owed = owedRound.get(bet.id);
    addOwed(bet.payout_id, owed);
    if (owed !== undefined) {
      check(
        bet.payout_amount === owed,
        2,
        `round-amount:${bet.id}`,
        () => `oracle bet ${bet.id} stores ${bet.payout_amount} wei, the pools say ${owed}`,
      );
      if (!bet.claimed)
        check(
          owed === 0n,
          2,
          `unpaid-oracle-bet:${bet.id}`,
          () => `oracle bet ${bet.id} (${bet.user_address}) is owed ${bnb(owed)} and was never paid`,
        );
    }
    if (bet.claimed)
      checkPaidOnChain(
        2,
        `oracle-bet:${bet.id}`,
        bet.payout_id === null ? undefined : payoutById.get(bet.payout_id),
        bet.user_address,
      );
  }
  for (const payout of snapshot.payouts) {
    if (payout.kind !== 'claim') continue;
    const owed = owedByPayout.get(payout.id) ?? 0n;
    check(
      owed === payout.amount,
      2,
      `claim-amount:${payout.id}`,
      () => `claim payout ${payout.id} is ${bnb(payout.amount)}, its bets are owed ${bnb(owed)}`,
    );
    if (owed !== payout.amount && minedOf(payout).length) lostWei += abs(payout.amount - owed);
  }

  // 3. The vault's balance is what the chain's transfers say it is.
  const deposits = inbound.reduce((total, t) => total + t.value, 0n);
  const paidOut = outbound.reduce((total, t) => total + t.value, 0n);
  const gas = input.transfers
    .filter((t) => t.from === input.vault)
    .reduce((total, t) => total + t.gasCostWei, 0n);
  const expectedBalance = input.initialBalance + deposits - paidOut - gas;
  check(
    expectedBalance === input.finalBalance,
    3,
    `balance:${input.head}`,
    () =>
      `vault balance ${bnb(input.finalBalance)} ≠ initial ${bnb(input.initialBalance)} + deposits ${bnb(deposits)} − payouts ${bnb(paidOut)} − gas ${bnb(gas)} = ${bnb(expectedBalance)}`,
  );

  // 4. Nothing paid twice: each outgoing transfer is one payout's; one payout, one transfer.
  const payoutByHash = new Map<string, PayoutRow>();
  for (const payout of snapshot.payouts)
    for (const hash of payout.tx_hashes) payoutByHash.set(hash.toLowerCase(), payout);
  for (const transfer of outbound) {
    if (
      !check(
        payoutByHash.has(transfer.hash),
        4,
        `unexplained:${transfer.hash}`,
        () =>
          `the vault sent ${bnb(transfer.value)} to ${transfer.to} (${transfer.hash}) and no payout row explains it`,
      )
    )
      lostWei += transfer.value;
  }
  const refundPayments = new Map<number, number>();
  for (const payment of snapshot.payments)
    if (payment.refund_payout_id !== null)
      refundPayments.set(payment.refund_payout_id, (refundPayments.get(payment.refund_payout_id) ?? 0) + 1);
  for (const payout of snapshot.payouts) {
    const mined = minedOf(payout);
    if (
      !check(
        mined.length <= 1,
        4,
        `twice:${payout.id}`,
        () => `payout ${payout.id} was mined ${mined.length} times`,
      )
    )
      lostWei += mined.slice(1).reduce((total, t) => total + t.value, 0n);
    if (payout.kind === 'refund') {
      const count = refundPayments.get(payout.id) ?? 0;
      check(
        count === 1,
        4,
        `refund-links:${payout.id}`,
        () => `refund payout ${payout.id} is linked to ${count} payments`,
      );
    } else {
      const linked =
        snapshot.bets.filter((bet) => bet.payout_id === payout.id).length +
        snapshot.oracleBets.filter((bet) => bet.payout_id === payout.id).length;
      check(linked > 0, 4, `claim-links:${payout.id}`, () => `claim payout ${payout.id} pays no bet`);
    }
  }

  // 5. Nothing stuck once the faults stopped and the jobs had time.
  const ageS = (date: Date) => (snapshot.dbNow.getTime() - date.getTime()) / 1000;
  for (const request of snapshot.requests) {
    if (request.resolved_at !== null) continue;
    check(
      ageS(request.created_at) <= MAX_OPEN_REQUEST_AGE_S,
      5,
      `request:${request.tx_hash}`,
      () =>
        `payment request ${request.id} (${request.tx_hash}) is open after ${Math.round(ageS(request.created_at))} s, ${request.attempts} attempts, last error ${request.last_error}`,
    );
  }
  const finalHead = input.head - BigInt(input.confirmations - 1);
  check(
    input.snapshot.reconcileCursor !== null &&
      input.snapshot.reconcileCursor >= finalHead - MAX_CURSOR_LAG_BLOCKS,
    5,
    'cursor',
    () => `the reconciliation cursor is at ${input.snapshot.reconcileCursor}, the final head at ${finalHead}`,
  );
  for (const payout of snapshot.payouts) {
    if (!OPEN_PAYOUT.has(payout.status)) continue;
    check(
      ageS(payout.created_at) <= MAX_OPEN_PAYOUT_AGE_S,
      5,
      `payout-open:${payout.id}`,
      () =>
        `payout ${payout.id} (${payout.kind}, ${bnb(payout.amount)}) is ${payout.status} after ${Math.round(ageS(payout.created_at))} s; last error: ${payout.last_error}`,
    );
  }
  for (const payment of snapshot.payments) {
    if (payment.status !== 'refund_due' || payment.amount === 0n) continue;
    const payout = payment.refund_payout_id === null ? undefined : payoutById.get(payment.refund_payout_id);
    fail(
      5,
      `refund-due:${payment.tx_hash}`,
      `payment ${payment.id} (${bnb(payment.amount)}, ${payment.refund_reason}) is still refund_due; payout: ${payout ? `${payout.id} ${payout.status}` : 'none'}`,
    );
    checks += 1;
  }
  for (const market of snapshot.markets) {
    const overdue = input.chainNowS - market.deadline.getTime() / 1000 > MAX_OVERDUE_S;
    check(
      !overdue || market.status === 'settled',
      5,
      `market:${market.id}`,
      () => `market ${market.id} is still ${market.status} ${MAX_OVERDUE_S}+ s after its deadline`,
    );
  }
  for (const round of snapshot.rounds) {
    const overdue = input.chainNowS - round.close_time.getTime() / 1000 > MAX_OVERDUE_S;
    check(
      !overdue || round.status === 'ended',
      5,
      `round:${round.epoch}`,
      () => `round ${round.epoch} is still ${round.status} ${MAX_OVERDUE_S}+ s after its close`,
    );
  }

  return {
    violations,
    checks,
    lostWei,
    stats: {
      inbound: inbound.length,
      outbound: outbound.length,
      bets: snapshot.bets.length,
      oracleBets: snapshot.oracleBets.length,
      refunds: snapshot.payouts.filter((p) => p.kind === 'refund').length,
      claims: snapshot.payouts.filter((p) => p.kind === 'claim').length,
      refundReasons: countBy(
        snapshot.payments.filter((p) => p.status !== 'recorded'),
        (p) => p.refund_reason ?? '(none)',
      ),
    },
  };
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

function intentOf(input: string): string {
  if (input === '0x') return '(none)';
  try {
    return JSON.stringify(Buffer.from(input.slice(2), 'hex').toString('utf8'));
  } catch {
    return input.slice(0, 80);
  }
}

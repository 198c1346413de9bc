import type { InvariantContext } from './invariant-context.ts';

// Invariant 5: nothing stuck once the faults stopped and the jobs had time.

const MAX_OPEN_REQUEST_AGE_S = 120;
const MAX_CURSOR_LAG_BLOCKS = 5n;
const MAX_OVERDUE_S = 60;
/** An operator action, relay, settlement or refused deposit's refund still under way after this long. */
const MAX_OPEN_ESCROW_AGE_S = 90;
const OPEN_OPERATOR_TX = new Set(['queued', 'signed', 'sent']);

/** Invariant 5 (docs/chaos.md). */
export function checkNothingStuck(context: InvariantContext): void {
  const { input, snapshot, check } = context;
  const ageS = (date: Date) => (snapshot.dbNow.getTime() - date.getTime()) / 1000;
  for (const request of snapshot.requests) {
    if (request.resolved_at !== null) continue;
    // Kept with the server's clock, which follows chain time on the local chain (CLOCK=chain).
    const requestAgeS = input.chainNowS - request.created_at.getTime() / 1000;
    check(
      requestAgeS <= MAX_OPEN_REQUEST_AGE_S,
      5,
      `request:${request.tx_hash}`,
      () =>
        `payment request ${request.id} (${request.tx_hash}) is open after ${Math.round(requestAgeS)} s, ${request.attempts} attempts, last error ${request.last_error}`,
    );
  }
  const finalHead = input.head - BigInt(input.confirmations - 1);
  // Reached: the head quiescence waited for (every payment of the round below it), else near the head.
  const scanTarget = input.scanTarget ?? finalHead - MAX_CURSOR_LAG_BLOCKS;
  check(
    input.snapshot.payoutsCursor !== null && input.snapshot.payoutsCursor >= scanTarget,
    5,
    'cursor',
    () =>
      `the escrow payouts watch's cursor is at ${input.snapshot.payoutsCursor}, short of block ${scanTarget} (final head ${finalHead})`,
  );
  for (const market of snapshot.markets) {
    const overdue = input.chainNowS - market.deadline.getTime() / 1000 > MAX_OVERDUE_S;
    check(
      !overdue || market.status === 'settled',
      5,
      `market:${market.id}`,
      () => `market ${market.id} is still ${market.status} ${MAX_OVERDUE_S}+ s after its deadline`,
    );
  }
  checkEscrowNothingStuck(context, ageS, scanTarget, finalHead);
  for (const round of snapshot.rounds) {
    const overdue = input.chainNowS - round.close_time.getTime() / 1000 > MAX_OVERDUE_S;
    check(
      !overdue || round.status === 'ended',
      5,
      `round:${round.epoch}`,
      () => `round ${round.epoch} is still ${round.status} ${MAX_OVERDUE_S}+ s after its close`,
    );
  }
}

/** The escrow's side (decision 026): what the operator key sends, relays, settlements, refused deposits. */
function checkEscrowNothingStuck(
  context: InvariantContext,
  ageS: (date: Date) => number,
  scanTarget: bigint,
  finalHead: bigint,
) {
  const { snapshot, outsByStake, check, bnb } = context;
  check(
    snapshot.escrowCursor !== null && snapshot.escrowCursor >= scanTarget,
    5,
    'escrow-cursor',
    () =>
      `the escrow deposit scan is at ${snapshot.escrowCursor}, short of block ${scanTarget} (final head ${finalHead})`,
  );
  for (const tx of snapshot.operatorTxs) {
    if (!OPEN_OPERATOR_TX.has(tx.status)) continue;
    check(
      ageS(tx.created_at) <= MAX_OPEN_ESCROW_AGE_S,
      5,
      `operator-tx:${tx.key}`,
      () =>
        `operator transaction ${tx.id} (${tx.key}) is ${tx.status} after ${Math.round(ageS(tx.created_at))} s; last error: ${tx.last_error}`,
    );
  }
  for (const relay of snapshot.relays) {
    if (relay.status !== 'open') continue;
    check(
      ageS(relay.created_at) <= MAX_OPEN_ESCROW_AGE_S,
      5,
      `relay:${relay.id}`,
      () =>
        `escrow relay ${relay.id} (${relay.kind} for ${relay.owner}) is open after ${Math.round(ageS(relay.created_at))} s`,
    );
  }
  for (const list of snapshot.payoutLists) {
    if (list.status === 'settled') continue;
    check(
      ageS(list.created_at) <= MAX_OPEN_ESCROW_AGE_S,
      5,
      `payout-list:${list.market_key}`,
      () =>
        `${list.epoch === null ? `market ${list.prediction_market_id}` : `round ${list.epoch}`}'s settlement on the escrow is ${list.status} after ${Math.round(ageS(list.created_at))} s (${list.attempts} attempts; last error: ${list.last_error})`,
    );
  }
  // Every ended round with stakes on the escrow has its settlement.
  const listByEpoch = new Set(snapshot.payoutLists.map((l) => l.epoch));
  const staked = new Set(snapshot.oracleBets.filter((b) => b.stake_id !== null).map((b) => b.epoch));
  for (const round of snapshot.rounds) {
    if (round.status !== 'ended' || !staked.has(round.epoch)) continue;
    check(
      listByEpoch.has(round.epoch),
      5,
      `round-unsettled:${round.epoch}`,
      () => `round ${round.epoch} ended with stakes on the escrow and has no settlement`,
    );
  }
  // Every settled market with stakes on the escrow has its settlement (migration 0018).
  const listByMarket = new Set(snapshot.payoutLists.map((l) => l.prediction_market_id));
  const stakedMarkets = new Set(snapshot.bets.filter((b) => b.stake_id !== null).map((b) => b.market_id));
  for (const market of snapshot.markets) {
    if (market.status !== 'settled' || !stakedMarkets.has(market.id)) continue;
    check(
      listByMarket.has(market.id),
      5,
      `market-unsettled:${market.id}`,
      () => `market ${market.id} settled with stakes on the escrow and has no settlement on it`,
    );
  }
  for (const deposit of snapshot.escrowDeposits) {
    if (deposit.resolved_at !== null) continue;
    check(
      ageS(deposit.created_at) <= MAX_OPEN_REQUEST_AGE_S,
      5,
      `escrow-deposit:${deposit.stake_id}`,
      () =>
        `escrow deposit ${deposit.stake_id} (${deposit.tx_hash}) is unresolved after ${Math.round(ageS(deposit.created_at))} s; last error: ${deposit.last_error}`,
    );
  }
  for (const refund of snapshot.escrowRefunds) {
    const back = (outsByStake.get(refund.stake_id) ?? []).length > 0;
    const stuck =
      refund.status === 'failed' ||
      ((refund.status === 'queued' || refund.status === 'refunding') &&
        ageS(refund.created_at) > MAX_OPEN_ESCROW_AGE_S) ||
      (refund.status === 'payout_list' && !back);
    check(
      !stuck,
      5,
      `escrow-refund:${refund.stake_id}`,
      () =>
        `refused deposit ${refund.stake_id} (${bnb(refund.amount)} of ${refund.owner}, ${refund.reason}) is ${refund.status} after ${Math.round(ageS(refund.created_at))} s and ${back ? 'was' : 'was not'} given back; last error: ${refund.last_error}`,
    );
  }
}

import type { MarketEscrowEvent } from '../market-escrow-events.ts';
import type { JudgedStake } from './recompute-judged-payouts.ts';

// What a judged market's events say its settlement in force pays from: the latest `Settled`, unless a
// later event took it back, with the stakes deposited and refunded before it and the verdicts its
// disputes sent back (docs/decisions/031 "Judged markets keep the committed verdict"). Pure: the events
// are read once (readMarketEscrowEvents) and every question is answered from that one reading.

export type SettledEvent = Extract<MarketEscrowEvent, { eventName: 'Settled' }>;

/** A dispute whose bond is still in the pool, and the outcome of the settlement it sent back. */
export type ContestedSettlement = { bondStakeId: bigint; disputedAtBlock: bigint; outcome: number };

export type JudgedSettlementRecord =
  | {
      inForce: false;
      /** Why nothing is to be recomputed, as a sentence. */
      reason: string;
      /** The latest `Settled` read, if any (taken back since). */
      latest: SettledEvent | null;
    }
  | {
      inForce: true;
      settled: SettledEvent;
      /** pending: payouts open at its claimableAt, later than the block read; claimable: they are open. */
      standing: 'pending' | 'claimable';
      /** Every `Deposited` before the settlement, in chain order. */
      stakes: JudgedStake[];
      /** The stakes `Refunded` before the settlement. */
      refunded: bigint[];
      /** The settlements the disputes of bonds still in the pool sent back, in chain order. */
      contested: ContestedSettlement[];
      /** The settlement's `Claimed` events: each reveals one leaf of its list. */
      claims: Array<{ stakeId: bigint; amount: bigint; blockNumber: bigint }>;
    };

/**
 * The settlement in force of a judged market from its events in chain order, at chain time `atS` (the
 * block read's timestamp). Not in force: no judged market's creation read (another kind, none, or a
 * range that starts after it), no settlement yet, or its latest taken back (a dispute or the
 * operator's withdrawal sent it back, the guardian vetoed it, the operator voided it, or it escaped).
 */
export function judgedSettlementInForce(
  events: readonly MarketEscrowEvent[],
  atS: bigint,
): JudgedSettlementRecord {
  const creation = events.find(
    (event) =>
      event.eventName === 'JudgedMarketCreated' ||
      event.eventName === 'RoundOpened' ||
      event.eventName === 'PriceMarketCreated',
  );
  if (creation === undefined) {
    return {
      inForce: false,
      reason:
        'No creation of this market is in the blocks read: it does not exist, or the range starts after its creation and its deposits cannot all be read.',
      latest: null,
    };
  }
  if (creation.eventName !== 'JudgedMarketCreated') {
    return {
      inForce: false,
      reason:
        'This market is a price kind: the contract settles it from its feed (verifyPriceOutcome checks it).',
      latest: null,
    };
  }
  let at = -1;
  events.forEach((event, index) => {
    if (event.eventName === 'Settled') at = index;
  });
  const settled = events[at];
  if (settled === undefined || settled.eventName !== 'Settled') {
    const voided = events.find((event) => event.eventName === 'Voided' || event.eventName === 'Escaped');
    const reason = voided
      ? `The market is refunding since block ${voided.blockNumber} (${voided.eventName === 'Voided' ? 'voided by the operator' : 'escaped: unsettled in its window'}) and was never settled: the contract refunds every stake in full, there is no payout list.`
      : 'The market has no settlement yet.';
    return { inForce: false, reason, latest: null };
  }
  const takenBack = events
    .slice(at + 1)
    .find(
      (event) =>
        event.eventName === 'Disputed' ||
        event.eventName === 'SettlementWithdrawn' ||
        event.eventName === 'Vetoed' ||
        event.eventName === 'Voided' ||
        event.eventName === 'Escaped',
    );
  if (takenBack !== undefined) {
    const told = TAKEN_BACK[takenBack.eventName] ?? { what: 'taken back', next: 'nothing is paid by it' };
    return {
      inForce: false,
      reason: `The latest settlement (block ${settled.blockNumber}) was ${told.what} at block ${takenBack.blockNumber}: it pays nobody; ${told.next}.`,
      latest: settled,
    };
  }

  const before = events.slice(0, at);
  const refunded = before.flatMap((event) => (event.eventName === 'Refunded' ? [event.args.stakeId] : []));
  const refundedIds = new Set(refunded);
  const stakes = before.flatMap((event) =>
    event.eventName === 'Deposited'
      ? [
          {
            stakeId: event.args.stakeId,
            owner: event.args.owner,
            amount: event.args.amount,
            side: event.args.side,
          },
        ]
      : [],
  );
  // A dispute needs a pending settlement, so the latest `Settled` before it is the one it sent back.
  const contested: ContestedSettlement[] = [];
  let inForceThen: SettledEvent | null = null;
  for (const event of before) {
    if (event.eventName === 'Settled') inForceThen = event;
    if (event.eventName === 'Disputed' && inForceThen !== null && !refundedIds.has(event.args.stakeId)) {
      contested.push({
        bondStakeId: event.args.stakeId,
        disputedAtBlock: event.blockNumber,
        outcome: inForceThen.args.outcome,
      });
    }
  }
  const claims = events
    .slice(at + 1)
    .flatMap((event) =>
      event.eventName === 'Claimed'
        ? [{ stakeId: event.args.stakeId, amount: event.args.amount, blockNumber: event.blockNumber }]
        : [],
    );
  return {
    inForce: true,
    settled,
    standing: atS < settled.args.claimableAt ? 'pending' : 'claimable',
    stakes,
    refunded,
    contested,
    claims,
  };
}

const TAKEN_BACK: Partial<Record<MarketEscrowEvent['eventName'], { what: string; next: string }>> = {
  Disputed: { what: 'sent back by a dispute', next: 'the operator answers with a new settlement or a void' },
  SettlementWithdrawn: { what: 'withdrawn by the operator', next: 'its next settlement or void answers' },
  Vetoed: { what: 'vetoed by the guardian', next: 'every stake is refunded' },
  Voided: { what: 'voided by the operator', next: 'every stake is refunded' },
  Escaped: { what: 'escaped', next: 'every stake is refunded' },
};

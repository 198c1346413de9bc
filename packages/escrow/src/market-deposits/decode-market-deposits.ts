import { type Address, type Hash, type Hex, isAddress, isAddressEqual, type Log, parseEventLogs } from 'viem';
import { marketEscrowAbi } from '../market-escrow.gen.ts';
import {
  type MarketDeposit,
  marketDepositKey,
  marketDepositKinds,
  marketDepositSide,
} from './market-deposit.ts';

// docs/decisions/034 "Intake": the server's verifier and reconciliation read a payment back from its
// receipt. A deposit is its `Deposited` event, with the creation and the dispute the same transaction
// holds for it, so a creation's terms are checked against what the chain recorded, not what was asked.

/** The creation event of a deposit's market, when its transaction created it. */
export type MarketCreation =
  | { kind: 'round'; coin: number; lockAt: number; closeAt: number }
  | {
      kind: 'priceMarket';
      creator: Address;
      id: Hex;
      coin: number;
      target: bigint;
      above: boolean;
      closesAt: number;
    }
  | { kind: 'judged'; creator: Address; id: Hex; closesAt: number; contentHash: Hex };

/** One `Deposited` event of the escrow, with what its transaction says about it. */
export type MarketDepositEvent = {
  stakeId: bigint;
  market: Hex;
  owner: Address;
  amount: bigint;
  /** DEPOSIT_CREATE, DEPOSIT_BET, DEPOSIT_ROUND or DEPOSIT_DISPUTE. */
  kind: number;
  side: number;
  ref: Hex;
  /** The market's creation, when it came in this transaction just before the deposit (its first bet). */
  creation: MarketCreation | null;
  /** The dispute this deposit's bond made, for a dispute: how many the market has now, and the answer's deadline. */
  dispute: { disputes: number; answerBy: bigint } | null;
  blockNumber: bigint;
  logIndex: number;
  transactionHash: Hash;
};

/**
 * Every `Deposited` event `escrow` emitted among `logs` (a receipt's), in log order, each with its creation
 * and its dispute. Logs of any other address are ignored, whatever their shape, and so are logs a reorg
 * removed.
 */
export function decodeMarketDeposits(escrow: Address, logs: readonly Log[]): MarketDepositEvent[] {
  const own = logs.filter((log) => !log.removed && isAddressEqual(log.address, escrow));
  const events = parseEventLogs({
    abi: marketEscrowAbi,
    eventName: ['Deposited', 'RoundOpened', 'PriceMarketCreated', 'JudgedMarketCreated', 'Disputed'],
    logs: own,
    strict: true,
  }).sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0));

  const deposits: MarketDepositEvent[] = [];
  // A creation belongs to the next deposit of its market: the contract emits it just before its first bet.
  const pending = new Map<Hex, MarketCreation>();
  for (const event of events) {
    switch (event.eventName) {
      case 'RoundOpened': {
        const { market, coin, lockAt, closeAt } = event.args;
        pending.set(market, { kind: 'round', coin, lockAt, closeAt });
        break;
      }
      case 'PriceMarketCreated': {
        const { market, creator, id, coin, target, above, closesAt } = event.args;
        pending.set(market, { kind: 'priceMarket', creator, id, coin, target, above, closesAt });
        break;
      }
      case 'JudgedMarketCreated': {
        const { market, creator, id, closesAt, contentHash } = event.args;
        pending.set(market, { kind: 'judged', creator, id, closesAt, contentHash });
        break;
      }
      case 'Deposited': {
        const { stakeId, market, owner, amount, kind, side, ref } = event.args;
        deposits.push({
          stakeId,
          market,
          owner,
          amount,
          kind,
          side,
          ref,
          creation: pending.get(market) ?? null,
          dispute: null,
          blockNumber: event.blockNumber ?? 0n,
          logIndex: event.logIndex ?? 0,
          transactionHash: event.transactionHash ?? '0x',
        });
        pending.delete(market);
        break;
      }
      case 'Disputed': {
        // Emitted after the bond's own `Deposited`, naming its stake.
        const bond = deposits.find((deposit) => deposit.stakeId === event.args.stakeId);
        if (bond) bond.dispute = { disputes: event.args.disputes, answerBy: event.args.answerBy };
        break;
      }
    }
  }
  return deposits;
}

/**
 * Whether `event` is the deposit `deposit` describes, sent by `sender`: its key, its kind, its side and
 * its owner, and for a creation the terms the chain recorded (a creation event in the same transaction
 * is required); a dispute must have made its dispute. The amount is the event's to record, not a term.
 */
export function matchesMarketDeposit(
  event: MarketDepositEvent,
  deposit: MarketDeposit,
  sender: Address,
): boolean {
  if (!isAddress(sender, { strict: false })) return false;
  let key: Hex;
  try {
    key = marketDepositKey(deposit, sender);
  } catch {
    return false;
  }
  if (event.market.toLowerCase() !== key) return false;
  if (!isAddressEqual(event.owner, sender)) return false;
  if (!marketDepositKinds(deposit).includes(event.kind)) return false;
  if (event.side !== marketDepositSide(deposit)) return false;
  const creation = event.creation;
  switch (deposit.kind) {
    case 'round':
      // The round's key is its terms; only its first bet carries the opening.
      return (
        creation === null ||
        (creation.kind === 'round' &&
          creation.coin === deposit.coin &&
          creation.lockAt === deposit.lockAt &&
          creation.closeAt === deposit.closeAt)
      );
    case 'createPriceMarket':
      return (
        creation?.kind === 'priceMarket' &&
        isAddressEqual(creation.creator, sender) &&
        creation.id.toLowerCase() === deposit.id.toLowerCase() &&
        creation.coin === deposit.coin &&
        creation.target === deposit.target &&
        creation.above === deposit.above &&
        creation.closesAt === deposit.closesAt
      );
    case 'createJudgedMarket':
      return (
        creation?.kind === 'judged' &&
        isAddressEqual(creation.creator, sender) &&
        creation.id.toLowerCase() === deposit.id.toLowerCase() &&
        creation.closesAt === deposit.closesAt &&
        creation.contentHash.toLowerCase() === deposit.contentHash.toLowerCase()
      );
    case 'bet':
      // Its kind says enough: a creation's first bet is DEPOSIT_CREATE; a round's, opening or not, the same stake.
      return true;
    case 'dispute':
      return event.dispute !== null && isAddressEqual(deposit.stake.owner, sender);
  }
}

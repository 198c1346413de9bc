import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Address, getAbiItem, type Hash, type Hex, type Log, parseEventLogs } from 'viem';
import type { MarketFate } from '../../db/schema.ts';

// docs/architecture.md "Following the chain", market fates: what the escrow's `Vetoed` and `Escaped`
// events say, read in this one place. Both name the market by its key alone; an escape comes with
// its first `Refunded` (the call that found the market past its escape delay refunds a stake), whose
// stake ids are kept so a market none of the server's keys name is still found by a stake of it. The
// successor contract emits the same two events; only this file knows their shape.

/** The escrow's events a market's fate is read from, for a log filter. */
export const marketFateEvents = [
  getAbiItem({ abi: predictionEscrowAbi, name: 'Vetoed' }),
  getAbiItem({ abi: predictionEscrowAbi, name: 'Escaped' }),
  getAbiItem({ abi: predictionEscrowAbi, name: 'Refunded' }),
] as const;

/** One market the escrow turned to refunds on its own, as its event states it. */
export type MarketFateEvent = {
  fate: MarketFate;
  /** The contract's market key, lower-case. */
  marketKey: Hex;
  txHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
  /** The stakes of this market its transaction refunded (an escape's first refund), as decimal strings. */
  stakeIds: string[];
};

/** Every `Vetoed` and `Escaped` of the escrow in these logs, in chain order, with their transactions' refunds. */
export function decodeMarketFates(logs: readonly Log[], escrow: Address): MarketFateEvent[] {
  const ours = logs.filter((log) => !log.removed && log.address.toLowerCase() === escrow.toLowerCase());
  const events = parseEventLogs({
    abi: predictionEscrowAbi,
    logs: ours,
    eventName: ['Vetoed', 'Escaped', 'Refunded'],
  });
  const refunded = new Map<string, string[]>();
  for (const event of events) {
    if (event.eventName !== 'Refunded') continue;
    const key = `${event.transactionHash}:${event.args.market.toLowerCase()}`;
    refunded.set(key, [...(refunded.get(key) ?? []), event.args.stakeId.toString()]);
  }
  const fates: MarketFateEvent[] = [];
  for (const event of events) {
    if (event.eventName === 'Refunded') continue;
    if (event.transactionHash === null || event.blockNumber === null || event.blockHash === null) continue;
    if (event.logIndex === null) continue;
    const marketKey = event.args.market.toLowerCase() as Hex;
    fates.push({
      fate: event.eventName === 'Vetoed' ? 'vetoed' : 'escaped',
      marketKey,
      txHash: event.transactionHash,
      logIndex: event.logIndex,
      blockNumber: event.blockNumber,
      blockHash: event.blockHash,
      stakeIds: refunded.get(`${event.transactionHash}:${marketKey}`) ?? [],
    });
  }
  return fates.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
}
